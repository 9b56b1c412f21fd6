package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during {@code dlq replay}, in a child JVM: it stops before the next record, commits what it
 * sent, says how many on stdout and stderr, and exits 130; the number it gives is the number a
 * read-committed consumer finds in the target topic and in the replay log.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(SharedKafka.class)
class DlqReplayInterruptIT {
    private static final int RECORDS = 200_000;
    private static final String DLQ = SharedKafka.unique("interrupted") + ".dlq";
    private static final String OUT = SharedKafka.unique("interrupted-out");

    @TempDir
    Path dir;

    @Test
    void ctrlCCommitsWhatWasSentAndSaysHowMany(EmbeddedKafka kafka) throws Exception {
        assumeFalse(
                sigintIgnored(),
                "this JVM was started with SIGINT ignored (a background job of a shell without job"
                        + " control): the replay inherits that, and no Ctrl-C can reach it");
        kafka.createTopics(1, DLQ, OUT);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(DLQ, ("r" + i).getBytes(StandardCharsets.UTF_8)));
            }
        }
        Path config = dir.resolve("replay.properties");
        Files.writeString(config, "bootstrap.servers=" + kafka.bootstrapServers() + "\nsanitiser.input.topics=x\n");
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        Process replay = new ProcessBuilder(
                        ChildCli.command("dlq", "replay", "--config", config.toString(), "--topic", DLQ, "--to", OUT))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (sentLines(stdout) < 2_000 && replay.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(replay.isAlive()).as("still replaying when interrupted").isTrue();
        new ProcessBuilder("kill", "-INT", Long.toString(replay.pid())).start().waitFor();
        assertThat(replay.waitFor(60, TimeUnit.SECONDS)).isTrue();

        String out = Files.readString(stdout);
        String err = Files.readString(stderr);
        assertThat(replay.exitValue()).as(err).isEqualTo(130);
        Matcher last = Pattern.compile(
                        "(?m)^Stopped on request after (\\d+) chosen records: (\\d+) sent and committed, with their"
                                + " entries in " + Pattern.quote(DLQ + ".replayed") + "; run the replay again to"
                                + " send the rest\\.$")
                .matcher(out);
        assertThat(last.find())
                .as(out.substring(Math.max(0, out.length() - 500)))
                .isTrue();
        long sent = Long.parseLong(last.group(2));
        assertThat(sent).isPositive().isLessThan(RECORDS);
        assertThat(out.lines().filter(l -> l.startsWith("sent ")).count())
                .as("a sent line for each record sent")
                .isEqualTo(sent);
        assertThat(err.strip())
                .isEqualTo("utf8-sanitiser: dlq replay: stopped on request; " + sent + " records were sent to " + OUT);
        assertThat(committed(kafka, OUT)).isEqualTo(sent);
        assertThat(committed(kafka, DLQ + ".replayed")).isEqualTo(sent);
    }

    /** Whether SIGINT (signal 2) is in this process's ignored set, which its children inherit. */
    private static boolean sigintIgnored() throws Exception {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        return Files.readAllLines(status).stream()
                .filter(line -> line.startsWith("SigIgn:"))
                .anyMatch(line -> (Long.parseUnsignedLong(
                                        line.substring("SigIgn:".length()).trim(), 16)
                                & 0b10)
                        != 0);
    }

    private static long sentLines(Path stdout) throws Exception {
        return Files.exists(stdout)
                ? Files.readAllLines(stdout).stream()
                        .filter(l -> l.startsWith("sent "))
                        .count()
                : 0;
    }

    /** The records a read-committed consumer finds in {@code topic}. */
    private static long committed(EmbeddedKafka kafka, String topic) {
        Map<String, Object> config = kafka.consumerConfig(SharedKafka.unique("count"));
        config.put("isolation.level", "read_committed");
        config.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long count = 0;
            long quietSince = System.nanoTime();
            while (System.nanoTime() - quietSince < TimeUnit.SECONDS.toNanos(3)) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                if (!records.isEmpty()) {
                    count += records.count();
                    quietSince = System.nanoTime();
                }
            }
            return count;
        }
    }
}
