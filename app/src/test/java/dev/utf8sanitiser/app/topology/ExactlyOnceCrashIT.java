package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.cli.ChildCli;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across a crash: the sanitiser runs as its own process ({@code run --config}), is
 * killed with SIGKILL mid-stream, and a second instance finishes the work. Read with
 * read_committed, every input record is in the output or the dead-letter topic exactly once. A
 * transaction Kafka leaves hanging on a loaded machine is aborted as an operator would, after the
 * sanitiser has reported it ({@link HangingTransactionOperator}); the accounting is unchanged. On
 * a broker of its own: the killed instance's open transactions and group membership must not meet
 * other tests' traffic on the shared broker's single offsets and transaction-state partitions.
 */
class ExactlyOnceCrashIT {
    private static final int RECORDS = 60_000;
    /** After this long without output, the test looks for a transaction Kafka left hanging. */
    private static final Duration QUIET = Duration.ofSeconds(60);

    private static EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void broker() {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void stopBroker() {
        kafka.close();
    }

    private int aborted;

    @Test
    void killedMidStreamAndRestartedLosesNothingAndDuplicatesNothing() throws Exception {
        String in = "crash-in";
        kafka.createTopics(2, in, in + ".clean", in + ".dlq");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (int i = 0; i < RECORDS; i++) {
                // Every seventh record is ill-formed (a CESU-8 surrogate), the rest well-formed.
                byte[] value = i % 7 == 0
                        ? new byte[] {0x61, (byte) 0xED, (byte) 0xA0, (byte) 0x80}
                        : ("record " + i).getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(in, Integer.toString(i).getBytes(), value));
            }
        }
        Path config = dir.resolve("crash.properties");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "application.id=crash-test",
                        "bootstrap.servers=" + kafka.bootstrapServers(),
                        "sanitiser.input.topics=" + in,
                        "sanitiser.http.port=-1",
                        "replication.factor=1",
                        "commit.interval.ms=100",
                        "max.poll.records=200",
                        "consumer.auto.offset.reset=earliest",
                        "consumer.session.timeout.ms=6000",
                        ""));

        Map<String, Object> consumerConfig = kafka.consumerConfig("crash-verifier");
        consumerConfig.put("isolation.level", "read_committed");
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig)) {
            consumer.subscribe(List.of(in + ".clean", in + ".dlq"));

            Process first = startSanitiser(config, "first");
            pollUntil(consumer, seen, 1, Duration.ofSeconds(90));
            first.destroyForcibly().waitFor();
            int atKill = seen.size();
            assertThat(atKill).as("killed mid-stream").isLessThan(RECORDS);

            Process second = startSanitiser(config, "second");
            try {
                long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
                while (seen.size() < RECORDS && System.nanoTime() < deadline) {
                    int before = seen.size();
                    pollUntil(consumer, seen, RECORDS, QUIET);
                    if (seen.size() == before) {
                        aborted += HangingTransactionOperator.abortReported(
                                kafka, List.of(in + ".clean", in + ".dlq"), () -> log("second"), System.out::println);
                    }
                }
                pollUntil(consumer, seen, RECORDS + 1, Duration.ofSeconds(3)); // late duplicates
            } finally {
                second.destroy(); // SIGTERM: commit, close, exit 0 (docs/cli.md)
                assertThat(second.waitFor()).as("exit code after SIGTERM").isZero();
            }
        }
        Set<String> unique = new HashSet<>(seen);
        assertThat(seen).as("no duplicates").hasSameSizeAs(unique);
        assertThat(unique)
                .as(
                        "no loss (%d hanging transactions aborted); the second instance's log ends:%n%s",
                        aborted, logTail())
                .hasSize(RECORDS);
    }

    private Process startSanitiser(Path config, String name) throws IOException {
        return new ProcessBuilder(ChildCli.command(List.of("-Xmx512m"), "run", "--config", config.toString()))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile())
                .start();
    }

    private String log(String name) {
        try {
            return Files.readString(dir.resolve(name + ".log"));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private String logTail() {
        List<String> lines = log("second").lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static void pollUntil(
            KafkaConsumer<byte[], byte[]> consumer, List<String> seen, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (seen.size() < count && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                seen.add(new String(r.key(), StandardCharsets.UTF_8));
            }
        }
    }
}
