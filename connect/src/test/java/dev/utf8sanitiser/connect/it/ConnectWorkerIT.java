package dev.utf8sanitiser.connect.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin archive in a real Kafka Connect worker (standalone, Kafka 4.3's connect-runtime) on a
 * real broker: loaded from {@code plugin.path} in isolation, on connectors that carry raw bytes
 * (ByteArrayConverter): a sink that records what it receives, and MirrorMaker 2's source. One
 * worker runs every connector at once, so the whole class costs one broker and one worker start.
 */
class ConnectWorkerIT {
    static final Duration TIMEOUT = Duration.ofSeconds(90);
    static final long TIMESTAMP = 1_700_000_000_000L;
    static final String SMT = "dev.utf8sanitiser.connect.Utf8Sanitise";
    static final String BYTES_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";

    /** "abc", an encoded surrogate U+D800 (ED A0 80), "d". */
    static final byte[] SURROGATE = bytes("abc", 0xED, 0xA0, 0x80, "d");
    /** U+1F600 as a CESU-8 pair, as a database in CESU-8 exports it. */
    static final byte[] CESU8_PAIR = bytes("x", 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80);
    /** "café" in Latin-1. */
    static final byte[] LATIN1 = bytes("caf", 0xE9);

    @TempDir
    static Path directory;

    static EmbeddedKafka kafka;
    static StandaloneWorker worker;
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void startBrokerAndWorker() throws Exception {
        kafka = EmbeddedKafka.start();
        kafka.createTopics("orders", "orders-sink.dlq", "legacy-orders", "legacy.legacy-orders.dlq", "file-lines");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            send(producer, "orders", utf8("k0"), utf8("plain ascii"), "trace", "t0");
            send(producer, "orders", utf8("k1"), SURROGATE, "trace", "t1");
            send(producer, "orders", LATIN1, LATIN1);
            send(producer, "orders", utf8("k3"), CESU8_PAIR);
            send(producer, "orders", utf8("k4"), utf8("grüße 😀"));
            send(producer, "legacy-orders", utf8("a"), utf8("fine"), "origin", "db");
            send(producer, "legacy-orders", utf8("b"), CESU8_PAIR, "origin", "db");
            producer.flush();
        }
        Files.write(directory.resolve("latin1.txt"), bytes("plain\n", "caf", 0xE9, "\n"));

        Map<String, Map<String, String>> connectors = new LinkedHashMap<>();
        connectors.put(
                "sink-strict",
                recordingSink(
                        "sink-strict",
                        Map.of(
                                "transforms", "sanitise",
                                "transforms.sanitise.type", SMT + "$Value",
                                "errors.tolerance", "all",
                                "errors.deadletterqueue.topic.name", "orders-sink.dlq",
                                "errors.deadletterqueue.topic.replication.factor", "1",
                                "errors.deadletterqueue.context.headers.enable", "true")));
        connectors.put(
                "sink-repair",
                recordingSink(
                        "sink-repair",
                        Map.of(
                                "transforms", "value,key",
                                "transforms.value.type", SMT + "$Value",
                                "transforms.value.sanitiser.policy", "repair",
                                "transforms.key.type", SMT + "$Key",
                                "transforms.key.sanitiser.policy", "repair")));
        connectors.put(
                "sink-filter",
                recordingSink(
                        "sink-filter",
                        Map.of(
                                "transforms", "dropIllFormed",
                                "transforms.dropIllFormed.type", "org.apache.kafka.connect.transforms.Filter",
                                "transforms.dropIllFormed.predicate", "wellFormed",
                                "transforms.dropIllFormed.negate", "true",
                                "predicates", "wellFormed",
                                "predicates.wellFormed.type", "dev.utf8sanitiser.connect.IsWellFormedUtf8")));
        Map<String, String> mirror = new LinkedHashMap<>();
        mirror.put("connector.class", "org.apache.kafka.connect.mirror.MirrorSourceConnector");
        mirror.put("tasks.max", "1");
        mirror.put("source.cluster.alias", "legacy");
        mirror.put("target.cluster.alias", "local");
        mirror.put("source.cluster.bootstrap.servers", kafka.bootstrapServers());
        mirror.put("target.cluster.bootstrap.servers", kafka.bootstrapServers());
        mirror.put("topics", "legacy-orders");
        mirror.put("replication.factor", "1");
        mirror.put("sync.topic.acls.enabled", "false");
        mirror.put("sync.topic.configs.enabled", "false");
        mirror.put("offset-syncs.topic.replication.factor", "1");
        // Headers byte for byte, as MirrorMaker 2 set-ups configure it.
        mirror.put("header.converter", BYTES_CONVERTER);
        mirror.put("transforms", "sanitise");
        mirror.put("transforms.sanitise.type", SMT + "$Value");
        mirror.put("transforms.sanitise.sanitiser.on.reject", "route");
        mirror.put("transforms.sanitise.sanitiser.header.type", "bytes");
        connectors.put("mirror-route", mirror);
        Map<String, String> file = new LinkedHashMap<>();
        file.put("connector.class", "org.apache.kafka.connect.file.FileStreamSourceConnector");
        file.put("tasks.max", "1");
        file.put("file", directory.resolve("latin1.txt").toString());
        file.put("topic", "file-lines");
        file.put("value.converter", "org.apache.kafka.connect.storage.StringConverter");
        // Strict and failing: if the SMT saw a bad byte, the task would fail (errors.tolerance=none).
        file.put("transforms", "sanitise,markIllFormed");
        file.put("transforms.sanitise.type", SMT + "$Value");
        file.put("transforms.markIllFormed.type", "org.apache.kafka.connect.transforms.InsertHeader");
        file.put("transforms.markIllFormed.header", "ill-formed");
        file.put("transforms.markIllFormed.value.literal", "true");
        file.put("transforms.markIllFormed.predicate", "wellFormed");
        file.put("transforms.markIllFormed.negate", "true");
        file.put("predicates", "wellFormed");
        file.put("predicates.wellFormed.type", "dev.utf8sanitiser.connect.IsWellFormedUtf8");
        connectors.put("file-source", file);

        worker = StandaloneWorker.start(
                directory, Path.of(System.getProperty("plugin.archive")), kafka.bootstrapServers(), connectors);
        for (String connector : connectors.keySet()) {
            awaitRunning(connector);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (worker != null) {
            worker.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void theWorkerLoadsThePluginFromPluginPathInIsolation() throws Exception {
        String version = System.getProperty("plugin.version");
        JsonNode plugins = JSON.readTree(worker.get("/connector-plugins?connectorsOnly=false"));
        Map<String, String> ours = new LinkedHashMap<>();
        for (JsonNode plugin : plugins) {
            if (plugin.get("class").asText().startsWith("dev.utf8sanitiser.connect.")
                    && !plugin.get("class").asText().contains(".it.")) {
                ours.put(
                        plugin.get("class").asText(),
                        plugin.get("type").asText() + " "
                                + plugin.get("version").asText());
            }
        }

        assertThat(ours)
                .containsOnly(
                        entry(SMT + "$Key", "transformation " + version),
                        entry(SMT + "$Value", "transformation " + version),
                        entry("dev.utf8sanitiser.connect.IsWellFormedUtf8", "predicate " + version));
        assertThat(StandaloneWorker.classPath())
                .as("nothing of the plugin is on the worker's class path")
                .noneMatch(entry -> entry.contains("utf8-sanitiser-") || entry.contains("icu4j"))
                .anyMatch(entry -> entry.contains("connect-runtime"));
        assertThat(worker.logText())
                .contains("Loading plugin from: "
                        + directory.resolve("plugins/utf8sanitiser-utf8-sanitiser-connect-" + version));
    }

    @Test
    void theArchiveHasTheLayoutOfAPluginHubWithoutTheWorkersOwnJars() throws Exception {
        String version = System.getProperty("plugin.version");
        Path plugin = directory.resolve("plugins/utf8sanitiser-utf8-sanitiser-connect-" + version);
        JsonNode manifest = JSON.readTree(plugin.resolve("manifest.json").toFile());
        List<String> lib;
        try (Stream<Path> jars = Files.list(plugin.resolve("lib"))) {
            lib = jars.map(jar -> jar.getFileName().toString()).sorted().toList();
        }

        assertThat(manifest.get("name").asText()).isEqualTo("utf8-sanitiser-connect");
        assertThat(manifest.get("version").asText()).isEqualTo(version);
        assertThat(manifest.get("component_types").get(0).asText()).isEqualTo("transform");
        assertThat(manifest.get("owner").get("username").asText()).isEqualTo("utf8sanitiser");
        assertThat(lib)
                .contains(
                        "utf8-sanitiser-connect-" + version + ".jar",
                        "utf8-sanitiser-core-" + version + ".jar",
                        "utf8-sanitiser-config-" + version + ".jar",
                        "utf8-sanitiser-registry-" + version + ".jar",
                        "utf8-sanitiser-serdes-" + version + ".jar")
                .anyMatch(jar -> jar.startsWith("icu4j-"))
                .noneMatch(jar -> jar.startsWith("kafka-") || jar.startsWith("connect-") || jar.startsWith("slf4j"));
        assertThat(plugin.resolve("doc/connect.md")).exists();
        assertThat(plugin.resolve("etc/connect-smt.properties")).exists();
    }

    @Test
    void strictFailsIllFormedRecordsIntoConnectsDeadLetterQueueWithItsContextHeaders() throws Exception {
        List<ReceivedRecord> received = awaitReceived("sink-strict", 2);
        List<ConsumerRecord<byte[], byte[]>> dead = awaitRecords("orders-sink.dlq", 3);

        assertThat(received).extracting(r -> new String(r.key(), UTF_8)).containsExactly("k0", "k4");
        assertThat(received.get(1).value()).isEqualTo(utf8("grüße 😀"));
        assertThat(dead).extracting(ConsumerRecord::value).containsExactly(SURROGATE, LATIN1, CESU8_PAIR);
        assertThat(dead.get(0).key()).isEqualTo(utf8("k1"));
        assertThat(headers(dead.get(0)))
                .contains(
                        entry("trace", "t1"),
                        entry("__connect.errors.topic", "orders"),
                        entry("__connect.errors.partition", "0"),
                        entry("__connect.errors.offset", "1"),
                        entry("__connect.errors.connector.name", "sink-strict"),
                        entry("__connect.errors.stage", "TRANSFORMATION"),
                        entry("__connect.errors.class.name", SMT + "$Value"),
                        entry("__connect.errors.exception.class.name", "org.apache.kafka.connect.errors.DataException"),
                        entry("__connect.errors.exception.message", "SURROGATE at value byte 3 (ED A0 80)"));
        assertThat(headers(dead.get(1)))
                .contains(entry("__connect.errors.exception.message", "TRUNCATED_AT_END at value byte 3 (E9)"));
        assertThat(headers(dead.get(2)))
                .contains(entry("__connect.errors.exception.message", "SURROGATE at value byte 1 (ED A0 BD ED B8 80)"));
    }

    @Test
    void repairFixesKeyAndValueAndSaysWhatItDid() throws Exception {
        List<ReceivedRecord> received = awaitReceived("sink-repair", 5);

        assertThat(received).extracting(ReceivedRecord::offset).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(received.get(0).headers()).containsOnly(entry("trace", "t0"));
        assertThat(received.get(1).value()).isEqualTo(utf8("abc\uFFFD\uFFFD\uFFFDd"));
        assertThat(received.get(1).headers())
                .containsOnly(entry("trace", "t1"), entry("__utf8.action", "replaced"), entry("__utf8.errors", "3"));
        assertThat(received.get(2).key()).isEqualTo(utf8("caf\uFFFD"));
        assertThat(received.get(2).value()).isEqualTo(utf8("caf\uFFFD"));
        assertThat(received.get(3).value()).as("the CESU-8 pair repaired").isEqualTo(utf8("x😀"));
        assertThat(received.get(3).headers())
                .containsOnly(entry("__utf8.action", "repaired"), entry("__utf8.errors", "1"));
        assertThat(received.get(4).value()).isEqualTo(utf8("grüße 😀"));
    }

    @Test
    void thePredicateLetsFilterDropTheIllFormed() throws Exception {
        awaitReceived("sink-repair", 5); // by then the filtering sink has had time for all five too

        assertThat(awaitReceived("sink-filter", 2))
                .extracting(r -> new String(r.value(), UTF_8))
                .containsExactly("plain ascii", "grüße 😀");
    }

    @Test
    void routeSendsAMirroredRecordToTheDeadLetterTopicWithTheDlqMdHeaders() throws Exception {
        List<ConsumerRecord<byte[], byte[]>> mirrored = awaitRecords("legacy.legacy-orders", 1);
        List<ConsumerRecord<byte[], byte[]>> dead = awaitRecords("legacy.legacy-orders.dlq", 1);

        assertThat(mirrored.get(0).value()).isEqualTo(utf8("fine"));
        ConsumerRecord<byte[], byte[]> routed = dead.get(0);
        assertThat(routed.key()).isEqualTo(utf8("b"));
        assertThat(routed.value()).isEqualTo(CESU8_PAIR);
        assertThat(routed.timestamp()).isEqualTo(TIMESTAMP);
        assertThat(headers(routed))
                .containsExactly(
                        entry("origin", "db"),
                        entry("__utf8.rule", "SURROGATE"),
                        entry("__utf8.offset", "1"),
                        entry("__utf8.length", "1"),
                        entry("__utf8.errors", "6"),
                        entry("__utf8.part", "value"),
                        entry("__utf8.context", "78 [ED A0 BD ED B8 80]"),
                        entry("__utf8.policy", "strict"),
                        entry("__utf8.source.topic", "legacy-orders"),
                        entry("__utf8.source.partition", "0"),
                        entry("__utf8.source.offset", "1"),
                        entry("__utf8.source.timestamp", Long.toString(TIMESTAMP)),
                        entry("__streams.errors.exception", "dev.utf8sanitiser.serdes.IllFormedTextException"),
                        entry("__streams.errors.message", "SURROGATE at value byte 1 (ED A0 BD ED B8 80)"),
                        entry("__streams.errors.topic", "legacy-orders"),
                        entry("__streams.errors.partition", "0"),
                        entry("__streams.errors.offset", "1"));
    }

    /**
     * FileStreamSource reads lines with a lenient UTF-8 decoder: Latin-1 "café" is already "caf"
     * U+FFFD when the SMT sees it, so neither the strict SMT nor the predicate can notice, and the
     * damage reaches Kafka as EF BF BD. docs/connect.md says what to do instead.
     */
    @Test
    void fileStreamSourceHidesIllFormedBytesBeforeAnyTransformationRuns() throws Exception {
        List<ConsumerRecord<byte[], byte[]>> lines = awaitRecords("file-lines", 2);

        assertThat(lines)
                .extracting(ConsumerRecord::value)
                .containsExactly(utf8("plain"), bytes("caf", 0xEF, 0xBF, 0xBD));
        assertThat(lines).allSatisfy(line -> assertThat(line.headers().lastHeader("ill-formed"))
                .isNull());
        assertThat(status("file-source")).isEqualTo("RUNNING");
    }

    // ----------------------------------------------------------------------------------------------

    private static Map<String, String> recordingSink(String name, Map<String, String> transforms) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("connector.class", RecordingSinkConnector.class.getName());
        props.put("tasks.max", "1");
        props.put("topics", "orders");
        props.put(
                RecordingSinkConnector.FILE_CONFIG,
                directory.resolve(name + ".received").toString());
        props.putAll(transforms);
        return props;
    }

    private static void send(
            KafkaProducer<byte[], byte[]> producer, String topic, byte[] key, byte[] value, String... headers)
            throws Exception {
        RecordHeaders kafkaHeaders = new RecordHeaders();
        for (int i = 0; i < headers.length; i += 2) {
            kafkaHeaders.add(headers[i], utf8(headers[i + 1]));
        }
        producer.send(new ProducerRecord<>(topic, 0, TIMESTAMP, key, value, kafkaHeaders))
                .get();
    }

    /** The connector's first task's state, or the connector's own when it has no task yet. */
    private static String status(String connector) throws Exception {
        JsonNode status;
        try {
            status = JSON.readTree(worker.get("/connectors/" + connector + "/status"));
        } catch (IOException e) {
            return "STARTING"; // the REST server is not listening yet
        }
        JsonNode tasks = status.path("tasks");
        if (tasks.size() > 0) {
            JsonNode task = tasks.get(0);
            return task.path("state").asText()
                    + (task.has("trace") ? "\n" + task.get("trace").asText() : "");
        }
        return status.path("connector").path("state").asText("UNKNOWN");
    }

    private static void awaitRunning(String connector) throws Exception {
        String state = await(
                () -> worker.isAlive() ? status(connector) : "worker exited",
                s -> s.equals("RUNNING") || s.startsWith("FAILED") || s.equals("worker exited"),
                connector);
        assertThat(state)
                .as(connector + ", worker log ending:\n" + worker.logTail(60))
                .isEqualTo("RUNNING");
    }

    private static List<ReceivedRecord> awaitReceived(String sink, int count) throws Exception {
        Path file = directory.resolve(sink + ".received");
        List<ReceivedRecord> received = await(
                () -> Files.exists(file)
                        ? Files.readAllLines(file, UTF_8).stream()
                                .map(ReceivedRecord::parse)
                                .toList()
                        : List.<ReceivedRecord>of(),
                r -> r.size() >= count,
                sink);
        assertThat(received).as(sink + " received").hasSize(count);
        return received;
    }

    private static List<ConsumerRecord<byte[], byte[]>> awaitRecords(String topic, int count) throws Exception {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kafka.consumerConfig("it-" + topic))) {
            TopicPartition partition = new TopicPartition(topic, 0);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (records.size() < count && System.nanoTime() < deadline) {
                if (consumer.assignment().isEmpty()) {
                    if (consumer.partitionsFor(topic).isEmpty()) {
                        Thread.sleep(200);
                        continue;
                    }
                    consumer.assign(List.of(partition));
                    consumer.seekToBeginning(List.of(partition));
                }
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
            // Nothing more than expected: a short grace for late arrivals.
            consumer.poll(Duration.ofMillis(1000)).forEach(records::add);
        }
        assertThat(records).as(topic).hasSize(count);
        return records;
    }

    private static <T> T await(Callable<T> probe, Predicate<T> done, String what) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        T value = probe.call();
        while (!done.test(value) && System.nanoTime() < deadline) {
            Thread.sleep(250);
            value = probe.call();
        }
        return value;
    }

    private static Map<String, String> headers(ConsumerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), header.value() == null ? null : new String(header.value(), UTF_8));
        }
        return headers;
    }

    static byte[] utf8(String s) {
        return s.getBytes(UTF_8);
    }

    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(s.getBytes(UTF_8));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }

    @SuppressWarnings("unused")
    private static String list(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(Path::toString).collect(Collectors.joining("\n"));
        }
    }
}
