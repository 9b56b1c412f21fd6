package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.KafkaCluster;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The set-up the fault tests on a {@link KafkaCluster} share: a {@code run} configuration for the
 * cluster, a producer that waits for a broker that is away, and a reader that sees only committed
 * records.
 */
final class ClusterRun {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ClusterRun() {}

    /**
     * Writes the configuration of a {@code run} that reads {@code input} from the cluster, with
     * replication factor 3 and from the earliest offset, and the lines {@code more}; {@code httpPort}
     * -1 for no HTTP server.
     */
    static Path config(Path file, KafkaCluster cluster, String input, int httpPort, String... more) throws Exception {
        List<String> lines = new ArrayList<>(List.of(
                "application.id=" + input,
                "bootstrap.servers=" + cluster.bootstrapServers(),
                "sanitiser.input.topics=" + input,
                "sanitiser.http.port=" + httpPort,
                "replication.factor=3",
                "consumer.auto.offset.reset=earliest"));
        lines.addAll(List.of(more));
        return Files.write(file, lines);
    }

    /** One sanitiser's configuration, with an HTTP port of its own for {@code /health/ready}. */
    record Instance(Path config, int port) {
        /** Writes {@code name.properties} in {@code dir}: {@link #config} with a free port and {@code more}. */
        static Instance of(Path dir, String name, KafkaCluster cluster, String input, String... more) throws Exception {
            int port = freePort();
            return new Instance(ClusterRun.config(dir.resolve(name + ".properties"), cluster, input, port, more), port);
        }

        RunChild start(Path log) throws java.io.IOException {
            return RunChild.start(config, log);
        }

        /** Waits up to 120 s until {@code run} answers 200 on {@code /health/ready}. */
        void awaitReady(RunChild run) {
            if (!KafkaCluster.await(() -> status(port, "/health/ready") == 200, Duration.ofSeconds(120))) {
                throw new AssertionError("not ready within 120 s; log:\n" + run.log());
            }
        }
    }

    /**
     * Two instances of one application reading {@code input} ({@code input-a}, {@code input-b}),
     * logging to {@code first.log} and {@code second.log} in the directory; closing stops both.
     */
    record Pair(RunChild first, RunChild second) implements AutoCloseable {
        /** Creates the topics ({@link #createTopics}), starts both and waits until both are ready. */
        static Pair startReady(Path dir, KafkaCluster cluster, String input, int partitions) throws Exception {
            createTopics(cluster, input, partitions);
            Instance a = Instance.of(dir, input + "-a", cluster, input);
            Instance b = Instance.of(dir, input + "-b", cluster, input);
            Pair pair = new Pair(a.start(dir.resolve("first.log")), b.start(dir.resolve("second.log")));
            try {
                a.awaitReady(pair.first);
                b.awaitReady(pair.second);
                return pair;
            } catch (RuntimeException | Error e) {
                pair.close();
                throw e;
            }
        }

        /** Both logs, the first instance's then the second's. */
        String logs() {
            return first.log() + second.log();
        }

        /** Both instances still running; the log of one that is not. */
        void assertBothAlive() {
            assertThat(first.isAlive()).as(first.log()).isTrue();
            assertThat(second.isAlive()).as(second.log()).isTrue();
        }

        @Override
        public void close() {
            try (RunChild closedSecond = second) {
                first.close();
            }
        }
    }

    /** Creates {@code input} and {@code input.clean} with {@code partitions}, {@code input.dlq} with one. */
    static void createTopics(KafkaCluster cluster, String input, int partitions) {
        cluster.createTopics(partitions, input, input + ".clean");
        cluster.createTopics(1, input + ".dlq");
    }

    /**
     * Restarts {@code nodeId} after a SIGTERM, as a rolling restart does, and waits until every
     * partition has all its replicas in sync again; returns the milliseconds that took.
     */
    static long restartInSync(KafkaCluster cluster, int nodeId, Duration downFor) throws InterruptedException {
        long start = System.nanoTime();
        cluster.stop(nodeId);
        Thread.sleep(downFor.toMillis());
        cluster.restart(nodeId);
        if (!KafkaCluster.await(cluster::allInSync, Duration.ofSeconds(120))) {
            throw new AssertionError("not every partition in sync 120 s after node " + nodeId + " restarted");
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** The lines of {@code log} at WARN or ERROR. */
    static List<String> warnings(String log) {
        return log.lines()
                .filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
                .collect(Collectors.toList());
    }

    /**
     * Every record once, no hanging-transaction alarm, no WARN or ERROR line but the sanitiser's own
     * reports of the cluster in {@code logs}, and every instance still running.
     */
    static void assertExactlyOnceAndQuiet(ClusterLedger.Verdict verdict, String logs, RunChild... instances) {
        verdict.assertExactlyOnce();
        assertThat(logs).doesNotContain("hanging transaction");
        assertThat(foreignWarnings(logs)).as("WARN and ERROR lines").isEmpty();
        for (RunChild instance : instances) {
            assertThat(instance.isAlive()).as(instance.log()).isTrue();
        }
    }

    /**
     * The WARN and ERROR lines of {@code log} other than the sanitiser's own reports of the cluster
     * ({@code ClusterMonitor}, {@code PartitionMonitor}): Kafka's clients retry on their own, and
     * their per-retry warnings stay out of the log.
     */
    static List<String> foreignWarnings(String log) {
        return warnings(log).stream()
                .filter(line -> !line.contains(" PartitionMonitor: ") && !line.contains(" ClusterMonitor: "))
                .collect(Collectors.toList());
    }

    /** The HTTP status of {@code GET path} on the sanitiser's port, -1 if it does not answer. */
    static int status(int port, String path) {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (java.io.IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    static int freePort() throws java.io.IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Sends records {@code from} (inclusive) to {@code to} (exclusive), waiting up to 120 s each. */
    static void send(
            KafkaCluster cluster, String topic, int from, int to, IntFunction<byte[]> key, IntFunction<byte[]> value) {
        Map<String, Object> config = cluster.producerConfig();
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(topic, key.apply(i), value.apply(i)));
            }
            producer.flush();
        }
    }

    /** Partitions 0 to {@code count - 1} of {@code topic}. */
    static List<TopicPartition> partitions(String topic, int count) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        return partitions;
    }

    /**
     * Reads {@code partitions} from the beginning under read_committed, without a group, and
     * gives each record to {@code each} until {@code stop} is set.
     */
    static void read(
            KafkaCluster cluster,
            List<TopicPartition> partitions,
            AtomicBoolean stop,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Map<String, Object> config = cluster.consumerConfig("unused");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!stop.get()) {
                consumer.poll(Duration.ofMillis(200)).forEach(each);
            }
        }
    }
}
