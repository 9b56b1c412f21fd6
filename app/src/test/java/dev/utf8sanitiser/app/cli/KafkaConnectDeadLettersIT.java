package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.cli.ConnectStandalone;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.file.FileStreamSinkConnector;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.errors.DeadLetterQueueReporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone Kafka Connect worker (Connect's own ConnectStandalone, in a child JVM) running a file
 * sink whose JSON converter fails on a record that is not JSON, with {@code errors.tolerance=all}
 * and the dead-letter queue on with its context headers: the dead letter Connect writes is read and
 * replayed by the dlq commands.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(SharedKafka.class)
class KafkaConnectDeadLettersIT {
    @TempDir
    Path dir;

    @Test
    void aKafkaConnectDeadLetterIsCountedInspectedAndReplayedOnce(EmbeddedKafka kafka) throws Exception {
        String in = SharedKafka.unique("connect-in");
        String dlq = in + ".connect-dlq";
        kafka.createTopics(2, in);
        kafka.createTopics(1, dlq);
        List<Header> own = List.<Header>of(PlainHeader.of("trace-id", "c1"));
        byte[] key = "k3".getBytes(UTF_8);
        byte[] notJson = "{not json".getBytes(UTF_8);
        RecordMetadata badAt;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            producer.send(new ProducerRecord<>(in, 0, key, "{\"a\":1}".getBytes(UTF_8)))
                    .get();
            badAt = producer.send(new ProducerRecord<>(in, 0, key, notJson, own))
                    .get();
        }

        Properties worker = new Properties();
        worker.setProperty("bootstrap.servers", kafka.bootstrapServers());
        worker.setProperty("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        worker.setProperty("value.converter", JsonConverter.class.getName());
        worker.setProperty("value.converter.schemas.enable", "false");
        worker.setProperty(
                "offset.storage.file.filename", dir.resolve("offsets").toString());
        worker.setProperty("listeners", "http://127.0.0.1:" + freePort());
        worker.setProperty("plugin.discovery", "service_load");
        Properties sink = new Properties();
        sink.setProperty("name", "orders-sink");
        sink.setProperty("connector.class", FileStreamSinkConnector.class.getName());
        sink.setProperty("tasks.max", "1");
        sink.setProperty("topics", in);
        sink.setProperty("file", dir.resolve("sink.txt").toString());
        sink.setProperty("errors.tolerance", "all");
        sink.setProperty("errors.deadletterqueue.topic.name", dlq);
        sink.setProperty("errors.deadletterqueue.topic.replication.factor", "1");
        sink.setProperty("errors.deadletterqueue.context.headers.enable", "true");
        sink.setProperty("consumer.override.auto.offset.reset", "earliest");

        // ConnectStandalone as a user starts it, in a JVM of its own: Connect's runtime needs the
        // Jetty it was built against, not this module's.
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                String.join(File.pathSeparator, workerClassPath()),
                ConnectStandalone.class.getName(),
                store(dir.resolve("worker.properties"), worker).toString(),
                store(dir.resolve("sink.properties"), sink).toString());
        Path log = dir.resolve("worker.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        List<ConsumerRecord<byte[], byte[]>> dead;
        try {
            dead = ForeignDeadLetters.await(kafka, dlq, 1, Duration.ofSeconds(90));
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        assertThat(dead).as(tail(log)).hasSize(1);
        assertThat(dead).hasSize(1);
        ConsumerRecord<byte[], byte[]> letter = dead.get(0);
        assertThat(new String(
                        letter.headers()
                                .lastHeader(DeadLetterQueueReporter.ERROR_HEADER_STAGE)
                                .value(),
                        UTF_8))
                .isEqualTo("VALUE_CONVERTER");

        ForeignDeadLetters.check(
                kafka,
                dir,
                dlq,
                1,
                letter.offset(),
                new ForeignDeadLetters.Expected(
                        "kafka-connect",
                        DataException.class.getName(),
                        in,
                        OptionalInt.of(0),
                        badAt.offset(),
                        key,
                        notJson,
                        own));
    }

    /** This JVM's class path with Connect's own Jetty (copied by the build) for this module's. */
    private static List<String> workerClassPath() throws IOException {
        List<String> path = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.replace('\\', '/').contains("/org/eclipse/jetty/")) {
                path.add(entry);
            }
        }
        try (Stream<Path> jars = Files.list(Path.of("target", "connect-jetty"))) {
            jars.map(Path::toString).forEach(path::add);
        }
        return path;
    }

    private static Path store(Path file, Properties props) throws IOException {
        try (var out = Files.newBufferedWriter(file, UTF_8)) {
            props.store(out, null);
        }
        return file;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log, UTF_8) : List.of();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
