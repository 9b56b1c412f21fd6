package dev.utf8sanitiser.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// SEPARATE_THREAD: a test stuck reading a child's output cannot be interrupted, only abandoned.
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EmbeddedKafkaIT {

    /** Values the sanitiser cares about: well-formed, ill-formed, empty. Compared byte for byte. */
    private static final List<byte[]> VALUES = List.of(
            "plain ASCII".getBytes(UTF_8),
            "Grüße, 世界, 😀".getBytes(UTF_8),
            new byte[] {'a', (byte) 0xC0, (byte) 0xAF, 'b', (byte) 0xED, (byte) 0xA0, (byte) 0x80},
            new byte[0]);

    @Test
    void committedTransactionalRecordsComeBackExactlyAndCloseLeavesNothingBehind() throws Exception {
        long startNanos = System.nanoTime();
        EmbeddedKafka kafka = EmbeddedKafka.start();
        System.out.printf(
                "EmbeddedKafka started in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        Path directory = kafka.directory();
        int port = Integer.parseInt(kafka.bootstrapServers().substring("127.0.0.1:".length()));
        try {
            assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
            kafka.createTopics("records");

            Map<String, Object> producerConfig = kafka.producerConfig();
            producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "embedded-kafka-test");
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig)) {
                producer.initTransactions();

                producer.beginTransaction();
                producer.send(new ProducerRecord<>("records", "aborted".getBytes(UTF_8), "never seen".getBytes(UTF_8)));
                producer.flush();
                producer.abortTransaction();

                producer.beginTransaction();
                for (int i = 0; i < VALUES.size(); i++) {
                    RecordHeaders headers = new RecordHeaders();
                    headers.add("index", new byte[] {(byte) i});
                    producer.send(new ProducerRecord<>("records", null, key(i), VALUES.get(i), headers));
                }
                producer.commitTransaction();
            }

            Map<String, Object> consumerConfig = kafka.consumerConfig("embedded-kafka-test");
            consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig)) {
                consumer.subscribe(List.of("records"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (received.size() < VALUES.size() && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                }
                // A last poll: anything more (the aborted record) would show up here.
                consumer.poll(Duration.ofMillis(500)).forEach(received::add);
                consumer.commitSync();
            }

            assertThat(received).hasSize(VALUES.size());
            for (int i = 0; i < VALUES.size(); i++) {
                ConsumerRecord<byte[], byte[]> record = received.get(i);
                assertThat(record.key()).isEqualTo(key(i));
                assertThat(record.value()).isEqualTo(VALUES.get(i));
                assertThat(record.headers().lastHeader("index").value()).containsExactly((byte) i);
            }
            assertThat(Files.readString(kafka.logFile())).contains("Kafka Server started");
        } finally {
            long closeNanos = System.nanoTime();
            kafka.close();
            System.out.printf(
                    "EmbeddedKafka closed in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeNanos));
        }

        assertThat(isAcceptingConnections(port)).isFalse();
        assertThat(directory).doesNotExist();
        assertThat(ProcessHandle.of(kafka.pid())).isEmpty();
        kafka.close(); // idempotent
    }

    @Test
    void aBadBrokerPropertyFailsStartUpWithTheBrokersOwnWordsAndLeavesNoDirectory() {
        EmbeddedKafkaException failure =
                catchThrowableOfType(EmbeddedKafkaException.class, () -> EmbeddedKafka.builder()
                        .brokerProperty("num.io.threads", "zero")
                        .start());

        assertThat(failure)
                .hasMessageContaining("exited with code 1")
                .hasMessageContaining("Invalid value zero for configuration num.io.threads");
        Matcher log =
                Pattern.compile("The end of its log, (\\S+) \\(now deleted\\)").matcher(failure.getMessage());
        assertThat(log.find()).as(failure.getMessage()).isTrue();
        assertThat(Path.of(log.group(1)).getParent()).doesNotExist();
    }

    @Test
    void listenerAndDirectoryPropertiesAreRefused() {
        assertThatThrownBy(() -> EmbeddedKafka.builder().brokerProperty("listeners", "PLAINTEXT://:9092"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("listeners");
        assertThatThrownBy(() -> EmbeddedKafka.builder().brokerProperty("log.dirs", "/tmp/elsewhere"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBrokerStopsWhenItsParentIsKilledWithoutRunningHooks() throws Exception {
        Process parent = startAbandoningParent("wait");
        Broker broker = awaitBroker(parent);
        try {
            parent.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs

            Optional<ProcessHandle> child = ProcessHandle.of(broker.pid());
            if (child.isPresent()) {
                child.get().onExit().get(30, TimeUnit.SECONDS);
            }
            assertThat(ProcessHandle.of(broker.pid())).isEmpty();
        } finally {
            ProcessHandle.of(broker.pid()).ifPresent(ProcessHandle::destroyForcibly);
            // Nobody is left to delete the directory when the parent is killed.
            deleteRecursively(broker.directory());
        }
    }

    /** Slow (another broker start, about 10 s) for a plain JVM shutdown hook: run with -Pslow. */
    @Test
    @Tag("slow")
    void theShutdownHookStopsTheBrokerAndDeletesItsDirectoryWhenTheParentForgetsToClose() throws Exception {
        Process parent = startAbandoningParent("exit");
        Broker broker = awaitBroker(parent);
        try {
            assertThat(parent.waitFor(60, TimeUnit.SECONDS)).isTrue();

            assertThat(ProcessHandle.of(broker.pid())).isEmpty();
            assertThat(broker.directory()).doesNotExist();
        } finally {
            ProcessHandle.of(broker.pid()).ifPresent(ProcessHandle::destroyForcibly);
            deleteRecursively(broker.directory());
        }
    }

    private record Broker(long pid, Path directory) {}

    private static Process startAbandoningParent(String mode) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), AbandoningParent.class.getName(), mode)
                .redirectErrorStream(true)
                .start();
    }

    /** Reads the parent's output until it names its broker; fails with that output otherwise. */
    private static Broker awaitBroker(Process parent) throws IOException {
        List<String> output = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(parent.getInputStream(), UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (line.startsWith(AbandoningParent.MARKER)) {
                String[] fields = line.split(" ", 3);
                return new Broker(Long.parseLong(fields[1]), Path.of(fields[2]));
            }
            output.add(line);
        }
        throw new AssertionError("The parent JVM ended without starting a broker:\n" + String.join("\n", output));
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(UTF_8);
    }

    private static boolean isAcceptingConnections(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }
}
