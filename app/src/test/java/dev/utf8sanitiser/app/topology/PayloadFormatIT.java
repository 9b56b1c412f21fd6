package dev.utf8sanitiser.app.topology;

import static dev.utf8sanitiser.app.topology.RegistryRun.header;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.cli.ChildCli;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Sanitised;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.ExampleOrders;
import dev.utf8sanitiser.testkit.SharedKafka;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sanitiser.payload.format=avro} and {@code json} end to end: the Kafka Streams application
 * on a real single-node KRaft broker, Avro schemas from the test registry over real HTTP, output and
 * dead-letter topics read with read_committed.
 *
 * <p>Every expectation is computed here, independently of the serdes module: the strings of an Avro
 * record, their field paths (docs/dlq.md's rendering) and their order come from walking the {@code
 * GenericRecord} that was written; where Apache Avro's own writer put each string in the binary
 * comes from that writer itself; errors, rules and offsets inside a string come from the core's
 * validator; JSON offsets from the documents as built here.
 */
@ExtendWith(SharedKafka.class)
class PayloadFormatIT {
    private static final int PREFIX = 5; // Confluent's wire format: magic byte 0, 4-byte schema id
    private static final int UNREGISTERED_ID = 9999;
    private static final Schema SCHEMA = ExampleOrders.SCHEMA;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static EmbeddedKafka kafka;
    private static TestSchemaRegistry registry;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRegistry(EmbeddedKafka shared) {
        kafka = shared;
        registry = TestSchemaRegistry.start();
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) {
            registry.close();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Avro

    @Test
    void avroStrictExactlyOnceDeadLettersEachRecordWithItsFirstStringErrorOrRecordLevelRule() throws Exception {
        String in = SharedKafka.unique("orders-avro-strict");
        kafka.createTopics(2, in);
        int id = registry.register(in + "-value", SCHEMA.toString()); // as Confluent's serializer would
        Map<String, AvroInput> inputs = avroInputs(id, new Random(11), 300, true);
        produce(in, inputs);

        try (SanitiserApplication app =
                SanitiserApplication.start(config(in, "strict", "avro", in + "-app", Map.of()), true)) {
            Map<String, ConsumerRecord<byte[], byte[]>> clean = new HashMap<>();
            Map<String, ConsumerRecord<byte[], byte[]>> dead = new HashMap<>();
            RegistryRun.consumeUntil(kafka, inputs.size(), in + ".clean", in + ".dlq", clean, dead);

            assertThat(clean.size() + dead.size()).isEqualTo(inputs.size());
            Set<String> rules = new TreeSet<>();
            Set<String> fields = new TreeSet<>();
            for (Map.Entry<String, AvroInput> entry : inputs.entrySet()) {
                String key = entry.getKey();
                AvroInput input = entry.getValue();
                assertThat(clean.containsKey(key) ^ dead.containsKey(key))
                        .as("record %s in exactly one topic", key)
                        .isTrue();
                ConsumerRecord<byte[], byte[]> out = input.verdict() == null ? clean.get(key) : dead.get(key);
                assertThat(out).as("record %s where it belongs", key).isNotNull();
                assertThat(out.value()).as("record %s byte-exact", key).isEqualTo(input.value());
                assertThat(out.timestamp()).isEqualTo(timestamp(key));
                assertThat(out.headers().lastHeader("origin").value()).isEqualTo(origin(key));
                if (input.verdict() == null) {
                    assertThat(out.headers().lastHeader("__utf8.action")).isNull();
                    assertThat(decode(out.value())).as("record %s decodes", key).isEqualTo(input.datum());
                    continue;
                }
                Verdict expected = input.verdict();
                assertThat(deadLetterHeaders(out)).as("record %s", key).isEqualTo(expected.headers());
                assertThat(header(out, "__utf8.part")).isEqualTo("value");
                assertThat(header(out, "__utf8.policy")).isEqualTo("strict");
                assertThat(header(out, "__utf8.source.topic")).isEqualTo(in);
                assertThat(header(out, "__streams.errors.message")).startsWith(expected.rule() + " at value");
                expected.length().ifPresent(length -> assertThat(header(out, "__utf8.length"))
                        .isEqualTo(Integer.toString(length)));
                rules.add(expected.rule());
                expected.field().ifPresent(fields::add);
            }
            // The data reached what the test is about: every record-level rule, several UTF-8 rules,
            // strings nested in records, arrays and maps.
            assertThat(rules).contains("NOT_AVRO", "UNKNOWN_SCHEMA", "MALFORMED_AVRO");
            assertThat(rules.size()).isGreaterThanOrEqualTo(6);
            assertThat(fields).anyMatch(f -> f.matches(".*\\[\\d+]\\..*")); // lines[1].sku
            assertThat(fields).anyMatch(f -> f.matches(".*\\{key\\d+}.*")); // tags{key0}
            assertThat(fields).anyMatch(f -> f.matches("[a-zA-Z]+\\.[a-zA-Z]+\\.[a-zA-Z]+")); // customer.address.city
            assertThat(clean.size()).isGreaterThan(100);
        }
    }

    @Test
    void avroReplaceRewritesEachStringInPlaceUnderTheSameSchemaId() throws Exception {
        String in = SharedKafka.unique("orders-avro-replace");
        kafka.createTopics(1, in);
        int id = registry.register(in + "-value", SCHEMA.toString());
        Map<String, AvroInput> inputs = avroInputs(id, new Random(12), 120, false);
        byte[] notAvro = "{\"id\":\"x\"}".getBytes(UTF_8);
        inputs.put("not-avro", new AvroInput(notAvro, null, new Verdict("NOT_AVRO", 0, Optional.empty(), 1)));
        produce(in, inputs);

        try (SanitiserApplication app =
                SanitiserApplication.start(config(in, "replace", "avro", in + "-app", Map.of()), true)) {
            Map<String, ConsumerRecord<byte[], byte[]>> clean = new HashMap<>();
            Map<String, ConsumerRecord<byte[], byte[]>> dead = new HashMap<>();
            RegistryRun.consumeUntil(kafka, inputs.size(), in + ".clean", in + ".dlq", clean, dead);

            // Only what is not Avro at all is dead-lettered under replace.
            assertThat(dead.keySet()).containsExactly("not-avro");
            assertThat(dead.get("not-avro").value()).isEqualTo(notAvro);
            assertThat(header(dead.get("not-avro"), "__utf8.rule")).isEqualTo("NOT_AVRO");
            int replaced = 0;
            for (Map.Entry<String, AvroInput> entry : inputs.entrySet()) {
                if (entry.getKey().equals("not-avro")) {
                    continue;
                }
                AvroInput input = entry.getValue();
                ConsumerRecord<byte[], byte[]> out = clean.get(entry.getKey());
                assertThat(out).as("record %s", entry.getKey()).isNotNull();
                assertThat(Arrays.copyOf(out.value(), PREFIX))
                        .as("same schema id")
                        .isEqualTo(Arrays.copyOf(input.value(), PREFIX));
                // Each string is the core's REPLACE of the original string; nothing else changed.
                GenericRecord expected = (GenericRecord) replaced(SCHEMA, input.datum());
                assertThat(decode(out.value())).as("record %s", entry.getKey()).isEqualTo(expected);
                assertThat(out.value()).isEqualTo(wire(id, ExampleOrders.binary(SCHEMA, expected)));
                List<Site> before = strings(input.datum());
                List<Site> after = strings(decode(out.value()));
                assertThat(after).hasSameSizeAs(before);
                int errors = 0;
                for (int i = 0; i < before.size(); i++) {
                    assertThat(after.get(i).path()).isEqualTo(before.get(i).path());
                    assertThat(after.get(i).bytes())
                            .as("%s of record %s", before.get(i).path(), entry.getKey())
                            .isEqualTo(Utf8Sanitiser.sanitise(before.get(i).bytes(), Policy.REPLACE)
                                    .output());
                    errors += Utf8Validator.errors(before.get(i).bytes()).size();
                }
                if (errors == 0) {
                    assertThat(out.value()).isEqualTo(input.value());
                    assertThat(out.headers().lastHeader("__utf8.action")).isNull();
                } else {
                    replaced++;
                    assertThat(header(out, "__utf8.action")).isEqualTo("replaced");
                    assertThat(header(out, "__utf8.errors")).isEqualTo(Integer.toString(errors));
                }
            }
            assertThat(replaced).isGreaterThan(20);
        }
    }

    /**
     * A registry that cannot answer is never a verdict. The registry is down before the application
     * has asked it for the schema id: each lookup gives up after its short retry budget, the
     * exception escapes the sanitise processor, Kafka Streams' default processing exception handler
     * fails the stream thread, and {@code replace_thread} starts another one that reads the same
     * records again from the last commit (none). So nothing is written anywhere, not even inside a
     * transaction that is then aborted (read_uncommitted sees nothing), and Kafka Streams' own
     * {@code failed-stream-threads} metric shows the retries.
     *
     * <p>Timing: {@code sanitiser.registry.retry.timeout.ms=300} and {@code max.retries=1} make each
     * failed attempt take well under a second. What takes time is the rebalance after a replaced
     * thread: a Streams consumer does not send LeaveGroup when its thread dies, so the new thread's
     * join waits for the dead member's session to expire. {@code consumer.session.timeout.ms=6000}
     * (the broker's minimum) bounds that to about 6 s per failure, so two failures and the recovery
     * take about 15 s. Once the registry is back, the records are processed exactly once, each by
     * its own merits.
     */
    @Test
    void aRegistryThatIsDownIsNeverAVerdictAndTheRecordsAreProcessedOnceItIsBack() throws Exception {
        String in = SharedKafka.unique("orders-avro-outage");
        kafka.createTopics(1, in);
        int id = registry.register(in + "-value", SCHEMA.toString());
        Map<String, AvroInput> inputs = avroInputs(id, new Random(13), 6, false);
        assertThat(inputs.values()).anyMatch(i -> i.verdict() == null);
        assertThat(inputs.values()).anyMatch(i -> i.verdict() != null);

        registry.stop();
        try {
            produce(in, inputs);
            Map<String, Object> overrides = Map.of(
                    "sanitiser.on.fatal.error", "replace_thread",
                    "sanitiser.registry.retry.timeout.ms", "300",
                    "max.retries", "1",
                    "retries.wait.ms", "50",
                    "sanitiser.http.port", "0",
                    "consumer.session.timeout.ms", "6000");
            try (SanitiserApplication app =
                    SanitiserApplication.start(config(in, "strict", "avro", in + "-app", overrides), true)) {
                List<ConsumerRecord<byte[], byte[]>> written = new ArrayList<>();
                Map<String, Object> uncommitted = kafka.consumerConfig(in + "-uncommitted");
                uncommitted.put("isolation.level", "read_uncommitted");
                try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(uncommitted)) {
                    consumer.subscribe(List.of(in + ".clean", in + ".dlq"));
                    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    while (failedStreamThreads(app) < 2 && System.nanoTime() < deadline) {
                        consumer.poll(Duration.ofMillis(250)).forEach(written::add);
                    }
                    assertThat(failedStreamThreads(app))
                            .as("stream threads that failed on the registry and were replaced")
                            .isGreaterThanOrEqualTo(2);
                    consumer.poll(Duration.ofSeconds(1)).forEach(written::add);
                }
                assertThat(written).as("written while the registry was down").isEmpty();
                assertThat(app.isStopped()).isFalse();
                assertThat(app.failed()).isFalse();

                registry.restart();
                Map<String, ConsumerRecord<byte[], byte[]>> clean = new HashMap<>();
                Map<String, ConsumerRecord<byte[], byte[]>> dead = new HashMap<>();
                RegistryRun.consumeUntil(kafka, inputs.size(), in + ".clean", in + ".dlq", clean, dead);
                assertThat(clean.size() + dead.size()).isEqualTo(inputs.size());
                for (Map.Entry<String, AvroInput> entry : inputs.entrySet()) {
                    AvroInput input = entry.getValue();
                    ConsumerRecord<byte[], byte[]> out =
                            input.verdict() == null ? clean.get(entry.getKey()) : dead.get(entry.getKey());
                    assertThat(out)
                            .as("record %s where it belongs", entry.getKey())
                            .isNotNull();
                    assertThat(out.value()).isEqualTo(input.value());
                    if (input.verdict() != null) {
                        assertThat(deadLetterHeaders(out))
                                .isEqualTo(input.verdict().headers());
                    }
                }
                assertThat(app.failed()).isFalse();
            }
        } finally {
            registry.restart();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // JSON

    /** One JSON document, its strict verdict (null: clean), and what repair must make of it. */
    private record JsonCase(byte[] document, Verdict strict, byte[] repaired) {}

    @Test
    void jsonStrictNamesTheFieldAndRepairWritesWellFormedJson() throws Exception {
        Map<String, JsonCase> cases = jsonCases();
        for (String policy : List.of("strict", "repair")) {
            String in = SharedKafka.unique("orders-json-" + policy);
            kafka.createTopics(1, in);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
                for (Map.Entry<String, JsonCase> c : cases.entrySet()) {
                    producer.send(record(in, c.getKey(), c.getValue().document()))
                            .get();
                }
            }
            try (SanitiserApplication app =
                    SanitiserApplication.start(config(in, policy, "json", in + "-app", Map.of()), true)) {
                Map<String, ConsumerRecord<byte[], byte[]>> clean = new HashMap<>();
                Map<String, ConsumerRecord<byte[], byte[]>> dead = new HashMap<>();
                RegistryRun.consumeUntil(kafka, cases.size(), in + ".clean", in + ".dlq", clean, dead);
                assertThat(clean.size() + dead.size()).isEqualTo(cases.size());
                for (Map.Entry<String, JsonCase> c : cases.entrySet()) {
                    String key = c.getKey();
                    JsonCase json = c.getValue();
                    boolean invalid =
                            json.strict() != null && json.strict().rule().equals("INVALID_JSON");
                    boolean deadLettered = policy.equals("strict") ? json.strict() != null : invalid;
                    ConsumerRecord<byte[], byte[]> out = deadLettered ? dead.get(key) : clean.get(key);
                    assertThat(out)
                            .as("%s under %s where it belongs", key, policy)
                            .isNotNull();
                    if (deadLettered) {
                        assertThat(out.value()).isEqualTo(json.document());
                        assertThat(deadLetterHeaders(out))
                                .as("%s under %s", key, policy)
                                .isEqualTo(json.strict().headers());
                        assertThat(header(out, "__utf8.policy")).isEqualTo(policy);
                        continue;
                    }
                    assertThat(out.value())
                            .as("%s under %s", key, policy)
                            .isEqualTo(policy.equals("strict") ? json.document() : json.repaired());
                    JSON.readTree(out.value()); // parses
                    Sanitised repair = Utf8Sanitiser.sanitise(json.document(), Policy.REPAIR);
                    if (policy.equals("strict") || repair.inputWellFormed()) {
                        assertThat(out.headers().lastHeader("__utf8.action")).isNull();
                    } else {
                        assertThat(header(out, "__utf8.action"))
                                .isEqualTo(repair.errors().isEmpty() ? "repaired" : "replaced");
                        assertThat(header(out, "__utf8.errors"))
                                .isEqualTo(Integer.toString(repair.errors().size()
                                        + repair.repairs().size()));
                    }
                }
                if (policy.equals("repair")) {
                    JsonNode nul = JSON.readTree(clean.get("modified-nul").value());
                    assertThat(nul.path("customer").path("name").asText()).isEqualTo("a\u0000b");
                    JsonNode cesu = JSON.readTree(clean.get("cesu-pair").value());
                    assertThat(cesu.path("x").asText()).isEqualTo("\uD83D\uDE00"); // U+1F600, repaired
                }
            }
        }
    }

    private static Map<String, JsonCase> jsonCases() {
        Map<String, JsonCase> cases = new LinkedHashMap<>();
        byte[] clean = doc("{\"customer\":{\"name\":\"Zoë 世界 😀\",\"email\":\"z@example.com\"},"
                + "\"lines\":[{\"sku\":\"A-1\",\"qty\":2}]}");
        cases.put("clean", new JsonCase(clean, null, clean));
        cases.put(
                "clean-array",
                new JsonCase(doc("[\"Καλημέρα\",{\"a\":null}]"), null, doc("[\"Καλημέρα\",{\"a\":null}]")));
        illFormed(
                cases,
                "latin1-name",
                "customer.name",
                "{\"customer\":{\"name\":\"Jos",
                bytes(0xE9),
                "\",\"email\":\"j@x\"}}");
        illFormed(
                cases,
                "overlong-sku",
                "lines[2].sku",
                "{\"customer\":{\"name\":\"ok\"},\"lines\":[{\"sku\":\"A1\"},{\"sku\":\"B2\"},{\"sku\":\"C",
                bytes(0xC0, 0xAF),
                "3\"}]}");
        illFormed(cases, "surrogate-key", "customer{}", "{\"customer\":{\"na", bytes(0xED, 0xA0, 0x80), "me\":\"x\"}}");
        illFormed(cases, "top-level-key", "{}", "{\"k", bytes(0xFF), "\":1}");
        illFormed(
                cases,
                "deep-array",
                "a.b[0].c[1]",
                "{\"a\":{\"b\":[{\"c\":[\"x\",\"y",
                bytes(0xF4, 0x90, 0x80, 0x80),
                "\"]}]}}");
        illFormed(
                cases,
                "cesu-pair",
                "x",
                "{\"x\":\"",
                bytes(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80),
                "\",\"y\":[\"",
                bytes(0xE2, 0x82),
                "\"]}");
        illFormed(cases, "top-level-string", null, "\"abc", bytes(0xE9), "\"");
        // Modified UTF-8's NUL: under repair a NUL, which JSON can only hold as an escape.
        byte[] nul = doc("{\"customer\":{\"name\":\"a", bytes(0xC0, 0x80), "b\"}}");
        Utf8Error nulError = Utf8Validator.firstError(nul).orElseThrow();
        cases.put(
                "modified-nul",
                new JsonCase(
                        nul,
                        new Verdict(
                                nulError.rule().name(),
                                nulError.offset(),
                                Optional.of("customer.name"),
                                Utf8Validator.errors(nul).size()),
                        doc("{\"customer\":{\"name\":\"a\\u0000b\"}}")));
        invalid(cases, "trailing-comma", "{\"order\":{\"lines\":[1,2,", "order.lines[2]", "}}");
        invalid(cases, "ends-early", "{\"a\":", "a", "");
        invalid(cases, "two-documents", "{\"a\":1} ", null, "{\"b\":2}");
        invalid(cases, "empty", "", null, "");
        // An ill-formed byte outside any string: not JSON under any policy, whatever its bytes.
        byte[] outside = doc("{\"a\":1", bytes(0xFF), "}");
        cases.put(
                "byte-outside-string",
                new JsonCase(outside, new Verdict("INVALID_JSON", 6, Optional.of("a"), 1), null));
        // Ill-formed bytes in a document that does not parse: INVALID_JSON decides, and is the one error.
        byte[] unterminated = doc("{\"a\":\"", bytes(0xE9), "\"");
        cases.put(
                "unterminated-ill-formed",
                new JsonCase(
                        unterminated, new Verdict("INVALID_JSON", unterminated.length, Optional.of("a"), 1), null));
        return cases;
    }

    /** A document with ill-formed bytes in a string; its first error is in {@code field}. */
    private static void illFormed(Map<String, JsonCase> cases, String name, String field, Object... parts) {
        byte[] document = doc(parts);
        Utf8Error first = Utf8Validator.firstError(document).orElseThrow();
        Verdict strict = new Verdict(
                first.rule().name(),
                first.offset(),
                Optional.ofNullable(field),
                Utf8Validator.errors(document).size(),
                Optional.of(first.length()));
        cases.put(
                name,
                new JsonCase(
                        document,
                        strict,
                        Utf8Sanitiser.sanitise(document, Policy.REPAIR).output()));
    }

    /** A document that stops being JSON at the first byte of {@code rest} (its end when empty). */
    private static void invalid(Map<String, JsonCase> cases, String name, String head, String field, String rest) {
        byte[] document = doc(head, rest);
        cases.put(
                name,
                new JsonCase(
                        document,
                        new Verdict("INVALID_JSON", head.getBytes(UTF_8).length, Optional.ofNullable(field), 1),
                        null));
    }

    // ---------------------------------------------------------------------------------------------
    // run

    /**
     * {@code run} with Avro and neither {@code bootstrap.servers} nor {@code schema.registry.url}: it
     * starts both, prints them (docs/cli.md, a contract), the registry answers, records flow through it, and
     * SIGTERM ends it with exit 0. A child JVM, as a signal must reach it.
     */
    @Test
    void runWithAvroAndNoRegistryStartsAndPrintsTheTestRegistry() throws Exception {
        Path config = dir.resolve("avro.properties");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "application.id=run-avro",
                        "sanitiser.input.topics=orders",
                        "sanitiser.payload.format=avro",
                        "sanitiser.http.port=-1",
                        ""));
        Process run = new ProcessBuilder(ChildCli.command(List.of("-Xmx384m"), "run", "--config", config.toString()))
                .redirectError(dir.resolve("run.log").toFile())
                .start();
        BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(run.getInputStream(), UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    stdout.add(line);
                }
            } catch (IOException e) {
                // The process ended.
            }
        });
        reader.setDaemon(true);
        reader.start();
        try {
            String kafkaLine = stdout.poll(120, TimeUnit.SECONDS);
            assertThat(kafkaLine)
                    .as("first line (log: %s)", dir.resolve("run.log"))
                    .isNotNull();
            Matcher bootstrap = Pattern.compile("embedded kafka: bootstrap\\.servers=(\\S+:\\d+)")
                    .matcher(kafkaLine);
            assertThat(bootstrap.matches()).as(kafkaLine).isTrue();
            String registryLine = stdout.poll(30, TimeUnit.SECONDS);
            assertThat(registryLine).isNotNull();
            Matcher url = Pattern.compile("embedded registry: schema\\.registry\\.url=(http://\\S+:\\d+)")
                    .matcher(registryLine);
            assertThat(url.matches()).as(registryLine).isTrue();

            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> subjects = http.send(
                    HttpRequest.newBuilder(URI.create(url.group(1) + "/subjects"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(subjects.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(subjects.body()).isArray()).isTrue();

            // The application reads its schemas from that registry: register, produce, read.
            String body =
                    JSON.createObjectNode().put("schema", SCHEMA.toString()).toString();
            HttpResponse<String> registered = http.send(
                    HttpRequest.newBuilder(URI.create(url.group(1) + "/subjects/orders-value/versions"))
                            .header("Content-Type", TestSchemaRegistry.CONTENT_TYPE)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(registered.statusCode()).isEqualTo(200);
            int id = JSON.readTree(registered.body()).path("id").intValue();
            Map<String, AvroInput> inputs = new LinkedHashMap<>();
            Random random = new Random(14);
            Texts texts = new Texts();
            while (inputs.size() < 2) {
                texts.damage = inputs.isEmpty() ? 0 : 0.2;
                AvroInput input = avroRecord(id, ExampleOrders.random(random, texts, 2));
                if ((input.verdict() == null) == inputs.isEmpty()) {
                    inputs.put(Integer.toString(inputs.size()), input);
                }
            }
            Map<String, Object> producerConfig = Map.of(
                    "bootstrap.servers", bootstrap.group(1),
                    "key.serializer", ByteArraySerializer.class.getName(),
                    "value.serializer", ByteArraySerializer.class.getName());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig)) {
                for (Map.Entry<String, AvroInput> e : inputs.entrySet()) {
                    producer.send(record("orders", e.getKey(), e.getValue().value()))
                            .get();
                }
            }
            Map<String, Object> consumerConfig = new HashMap<>(Map.of(
                    "bootstrap.servers",
                    bootstrap.group(1),
                    "group.id",
                    "run-verifier",
                    "auto.offset.reset",
                    "earliest",
                    "isolation.level",
                    "read_committed",
                    "key.deserializer",
                    ByteArrayDeserializer.class.getName(),
                    "value.deserializer",
                    ByteArrayDeserializer.class.getName()));
            Map<String, ConsumerRecord<byte[], byte[]>> clean = new HashMap<>();
            Map<String, ConsumerRecord<byte[], byte[]>> dead = new HashMap<>();
            RegistryRun.consumeUntil(consumerConfig, 2, "orders.clean", "orders.dlq", clean, dead);
            assertThat(clean.keySet()).containsExactly("0");
            assertThat(dead.keySet()).containsExactly("1");
            assertThat(decode(clean.get("0").value())).isEqualTo(inputs.get("0").datum());
            assertThat(deadLetterHeaders(dead.get("1")))
                    .isEqualTo(inputs.get("1").verdict().headers());
        } finally {
            run.destroy(); // SIGTERM
            boolean ended = run.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                run.destroyForcibly().waitFor();
            }
            assertThat(ended).as("ended after SIGTERM").isTrue();
        }
        assertThat(run.exitValue())
                .as("exit code after SIGTERM (log: %s)", dir.resolve("run.log"))
                .isZero();
    }

    // ---------------------------------------------------------------------------------------------
    // The Avro inputs and their expected verdicts, computed without the serdes module

    /** A string in an Avro datum: its path as docs/dlq.md renders it, its bytes, where it lies in the binary. */
    private record Site(String path, byte[] bytes, int start) {}

    /**
     * What strict must do with a record: dead-letter it with these headers. {@code length} is
     * checked only where given.
     */
    private record Verdict(String rule, long offset, Optional<String> field, int errors, Optional<Integer> length) {
        Verdict(String rule, long offset, Optional<String> field, int errors) {
            this(rule, offset, field, errors, Optional.empty());
        }

        Map<String, String> headers() {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("__utf8.rule", rule);
            headers.put("__utf8.offset", Long.toString(offset));
            headers.put("__utf8.field", field.orElse(null));
            headers.put("__utf8.errors", Integer.toString(errors));
            return headers;
        }
    }

    /** One input value; {@code datum} is null where the value is not an order; {@code verdict} null: clean. */
    private record AvroInput(byte[] value, GenericRecord datum, Verdict verdict) {}

    /**
     * {@code count} records: random orders (a third with damaged strings) and, when {@code
     * recordLevel}, every few records one that is not Avro, names an unknown schema or does not match
     * its schema.
     */
    private static Map<String, AvroInput> avroInputs(int id, Random random, int count, boolean recordLevel) {
        Texts texts = new Texts();
        Map<String, AvroInput> inputs = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String key = Integer.toString(i);
            int kind = recordLevel ? i % 25 : -1;
            boolean recordLevelKind = Set.of(3, 5, 7, 9, 10, 11).contains(kind); // built from clean orders
            texts.damage = kind == 12 || (!recordLevelKind && i % 3 == 1) ? 0.08 : 0;
            GenericRecord datum = ExampleOrders.random(random, texts, 3);
            byte[] binary = ExampleOrders.binary(SCHEMA, datum);
            List<Site> sites = strings(datum, binary);
            AvroInput input =
                    switch (kind) {
                        case 3 ->
                            new AvroInput(
                                    "{\"id\":\"x\"}".getBytes(UTF_8),
                                    null,
                                    new Verdict("NOT_AVRO", 0, Optional.empty(), 1));
                        case 5 -> new AvroInput(new byte[0], null, new Verdict("NOT_AVRO", 0, Optional.empty(), 1));
                        case 7 -> // the 4 id bytes are where the error is
                            new AvroInput(
                                    wire(UNREGISTERED_ID, binary),
                                    null,
                                    new Verdict("UNKNOWN_SCHEMA", 1, Optional.empty(), 1));
                        case 9 -> truncatedInAString(id, datum, binary, sites);
                        case 10 -> {
                            // The last field is the metadata map; its last byte the 0 that ends it.
                            assertThat(SCHEMA.getFields()
                                            .get(SCHEMA.getFields().size() - 1)
                                            .name())
                                    .isEqualTo("metadata");
                            assertThat(binary[binary.length - 1]).isZero();
                            byte[] value = wire(id, Arrays.copyOf(binary, binary.length - 1));
                            yield new AvroInput(
                                    value,
                                    null,
                                    new Verdict("MALFORMED_AVRO", value.length, Optional.of("metadata"), 1));
                        }
                        case 11, 12 -> {
                            // A byte after the datum: MALFORMED_AVRO there, however many string errors before it.
                            byte[] value = Arrays.copyOf(wire(id, binary), PREFIX + binary.length + 1);
                            int errors = 1;
                            for (Site site : sites) {
                                errors += Utf8Validator.errors(site.bytes()).size();
                            }
                            yield new AvroInput(
                                    value,
                                    null,
                                    new Verdict("MALFORMED_AVRO", PREFIX + binary.length, Optional.empty(), errors));
                        }
                        default -> avroRecord(id, datum, binary, sites);
                    };
            inputs.put(key, input);
        }
        return inputs;
    }

    private static AvroInput avroRecord(int id, GenericRecord datum) {
        byte[] binary = ExampleOrders.binary(SCHEMA, datum);
        return avroRecord(id, datum, binary, strings(datum, binary));
    }

    /** A well-formed wire-format record: clean, or dead-lettered for its first ill-formed string. */
    private static AvroInput avroRecord(int id, GenericRecord datum, byte[] binary, List<Site> sites) {
        Verdict verdict = null;
        int errors = 0;
        for (Site site : sites) {
            List<Utf8Error> found = Utf8Validator.errors(site.bytes());
            if (!found.isEmpty() && verdict == null) {
                Utf8Error first = found.get(0);
                verdict = new Verdict(
                        first.rule().name(),
                        PREFIX + site.start() + first.offset(),
                        Optional.of(site.path()),
                        0,
                        Optional.of(first.length()));
            }
            errors += found.size();
        }
        if (verdict != null) {
            verdict = new Verdict(verdict.rule(), verdict.offset(), verdict.field(), errors, verdict.length());
        }
        return new AvroInput(wire(id, binary), datum, verdict);
    }

    /**
     * The record cut off inside the bytes of a string in a nested record (customer.address.street):
     * the string's length runs past the data, so the error is that length, at the start of its
     * varint, in that string's field. (Inside an array or a map the cut can show sooner, as a block
     * count too large for the bytes left; the test does not pin which.)
     */
    private static AvroInput truncatedInAString(int id, GenericRecord datum, byte[] binary, List<Site> sites) {
        Site site = sites.stream()
                .filter(s -> s.bytes().length >= 2 && s.path().matches("\\w+\\.\\w+(\\.\\w+)*"))
                .findFirst()
                .orElseThrow();
        assertThat(sites.subList(0, sites.indexOf(site)))
                .allMatch(s -> Utf8Validator.isWellFormed(s.bytes()), "well-formed before the cut");
        int lengthVarint = zigZagLength(site.bytes().length);
        byte[] value = wire(id, Arrays.copyOf(binary, site.start() + 1));
        return new AvroInput(
                value,
                datum,
                new Verdict("MALFORMED_AVRO", PREFIX + site.start() - lengthVarint, Optional.of(site.path()), 1));
    }

    /** The strings of a datum in the order Avro writes them, each where Avro's own writer put it. */
    static List<Site> strings(GenericRecord datum, byte[] binary) {
        List<Site> walked = new ArrayList<>();
        walk(SCHEMA, datum, "", walked);
        PositionRecordingWriter writer = new PositionRecordingWriter();
        byte[] written = writer.write(datum);
        assertThat(written).as("the same binary as ExampleOrders writes").isEqualTo(binary);
        assertThat(writer.spans).hasSameSizeAs(walked);
        List<Site> sites = new ArrayList<>();
        for (int i = 0; i < walked.size(); i++) {
            int[] span = writer.spans.get(i);
            byte[] bytes = walked.get(i).bytes();
            assertThat(span[1]).isEqualTo(bytes.length);
            assertThat(Arrays.copyOfRange(binary, span[0], span[0] + span[1])).isEqualTo(bytes);
            sites.add(new Site(walked.get(i).path(), bytes, span[0]));
        }
        return sites;
    }

    /** The strings of a datum, in order, with their paths; no positions. */
    static List<Site> strings(GenericRecord datum) {
        List<Site> walked = new ArrayList<>();
        walk(SCHEMA, datum, "", walked);
        return walked;
    }

    /**
     * Every string of {@code datum} in Avro's write order (fields in order, array items, map entries
     * in iteration order, each key before its value), with docs/dlq.md's path: {@code customer.name},
     * {@code lines[3].sku}, {@code tags{color}}, {@code tags{}} for a key; a union adds nothing.
     */
    private static void walk(Schema schema, Object datum, String path, List<Site> out) {
        switch (schema.getType()) {
            case STRING -> out.add(new Site(path, bytesOf(datum), -1));
            case RECORD -> {
                for (Schema.Field field : schema.getFields()) {
                    String child = path.isEmpty() ? field.name() : path + "." + field.name();
                    walk(field.schema(), ((GenericRecord) datum).get(field.pos()), child, out);
                }
            }
            case ARRAY -> {
                int index = 0;
                for (Object item : (Collection<?>) datum) {
                    walk(schema.getElementType(), item, path + "[" + index++ + "]", out);
                }
            }
            case MAP -> {
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) datum).entrySet()) {
                    String key = entry.getKey().toString();
                    out.add(new Site(path + "{}", key.getBytes(UTF_8), -1));
                    walk(schema.getValueType(), entry.getValue(), path + "{" + key + "}", out);
                }
            }
            case UNION -> walk(schema.getTypes().get(GenericData.get().resolveUnion(schema, datum)), datum, path, out);
            default -> {}
        }
    }

    /** A copy of {@code datum} with every string replaced by the core's REPLACE of its bytes. */
    private static Object replaced(Schema schema, Object datum) {
        return switch (schema.getType()) {
            case STRING ->
                new Utf8(Utf8Sanitiser.sanitise(bytesOf(datum), Policy.REPLACE).output());
            case RECORD -> {
                GenericData.Record copy = new GenericData.Record(schema);
                for (Schema.Field field : schema.getFields()) {
                    copy.put(field.pos(), replaced(field.schema(), ((GenericRecord) datum).get(field.pos())));
                }
                yield copy;
            }
            case ARRAY -> {
                List<Object> items = new ArrayList<>();
                for (Object item : (Collection<?>) datum) {
                    items.add(replaced(schema.getElementType(), item));
                }
                yield new GenericData.Array<>(schema, items);
            }
            case MAP -> {
                Map<Object, Object> copy = new LinkedHashMap<>();
                ((Map<?, ?>) datum).forEach((k, v) -> copy.put(k, replaced(schema.getValueType(), v)));
                yield copy;
            }
            case UNION -> replaced(schema.getTypes().get(GenericData.get().resolveUnion(schema, datum)), datum);
            default -> datum;
        };
    }

    /**
     * Apache Avro's writer, noting where each string it writes lands: {@code writeString(Object,
     * Encoder)} is what it calls for every string value and every map key.
     */
    private static final class PositionRecordingWriter extends GenericDatumWriter<Object> {
        final List<int[]> spans = new ArrayList<>(); // start, length
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        PositionRecordingWriter() {
            super(SCHEMA);
        }

        byte[] write(Object datum) {
            try {
                BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
                write(datum, encoder);
                encoder.flush();
                return out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        protected void writeString(Object datum, Encoder encoder) throws IOException {
            super.writeString(datum, encoder);
            encoder.flush(); // direct: nothing buffered, so the stream's size is where the string ends
            int length = bytesOf(datum).length;
            spans.add(new int[] {out.size() - length, length});
        }
    }

    /** Strings for the orders: well-formed text, or, with probability {@code damage}, ill-formed bytes. */
    private static final class Texts implements Function<Random, byte[]> {
        private static final List<byte[]> WELL_FORMED = List.of(
                "plain".getBytes(UTF_8),
                "Zoë".getBytes(UTF_8),
                "Καλημέρα".getBytes(UTF_8),
                "世界".getBytes(UTF_8),
                "😀 ok".getBytes(UTF_8),
                "O'Brien \"quoted\"".getBytes(UTF_8),
                "".getBytes(UTF_8),
                "sku-12345".getBytes(UTF_8));
        private static final List<byte[]> DAMAGE = List.of(
                bytes(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80), // CESU-8 for U+1F600
                bytes(0xC0, 0xAF), // overlong '/'
                bytes(0xE9), // Latin-1 'é'
                bytes(0xE2, 0x82)); // a truncated euro sign, at the end of the string
        double damage;

        @Override
        public byte[] apply(Random random) {
            byte[] text = WELL_FORMED.get(random.nextInt(WELL_FORMED.size()));
            if (damage == 0 || random.nextDouble() >= damage) {
                return text;
            }
            int kind = random.nextInt(DAMAGE.size());
            byte[] tail = kind == 3 ? new byte[0] : "!".getBytes(UTF_8);
            return doc("caf".getBytes(UTF_8), DAMAGE.get(kind), tail);
        }
    }

    private static byte[] bytesOf(Object string) {
        if (string instanceof Utf8 utf8) {
            return Arrays.copyOf(utf8.getBytes(), utf8.getByteLength());
        }
        return string.toString().getBytes(UTF_8);
    }

    private static int zigZagLength(long n) {
        long v = (n << 1) ^ (n >> 63);
        int length = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            length++;
        }
        return length;
    }

    private static byte[] wire(int id, byte[] binary) {
        byte[] value = new byte[PREFIX + binary.length];
        value[0] = 0;
        value[1] = (byte) (id >>> 24);
        value[2] = (byte) (id >>> 16);
        value[3] = (byte) (id >>> 8);
        value[4] = (byte) id;
        System.arraycopy(binary, 0, value, PREFIX, binary.length);
        return value;
    }

    /** Avro's own reader on a wire-format value; it must use every byte. */
    private static GenericRecord decode(byte[] value) throws IOException {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(value, PREFIX, value.length - PREFIX, null);
        GenericRecord record = new GenericDatumReader<GenericRecord>(SCHEMA).read(null, decoder);
        assertThat(decoder.isEnd()).as("nothing after the datum").isTrue();
        return record;
    }

    // ---------------------------------------------------------------------------------------------
    // Kafka, configuration, metrics

    private static SanitiserConfig config(
            String input, String policy, String format, String applicationId, Map<String, Object> overrides) {
        Optional<String> registryUrl = format.equals("avro") ? Optional.of(registry.url()) : Optional.empty();
        return RegistryRun.config(kafka, registryUrl, input, policy, format, applicationId, overrides);
    }

    /**
     * Recent, so that the broker's time-based retention (7 days by default, first checked 30 s after
     * it starts) cannot delete records that wait for a registry to come back.
     */
    private static final long BASE_TIMESTAMP = System.currentTimeMillis() - 60_000;

    private static long timestamp(String key) {
        return BASE_TIMESTAMP + Math.floorMod(key.hashCode(), 1000);
    }

    private static byte[] origin(String key) {
        return doc(bytes(0xFE), key); // an ill-formed header that is not checked
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, byte[] value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("origin", origin(key));
        return new ProducerRecord<>(topic, null, timestamp(key), key.getBytes(UTF_8), value, headers);
    }

    private static void produce(String topic, Map<String, AvroInput> inputs) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (Map.Entry<String, AvroInput> e : inputs.entrySet()) {
                producer.send(record(topic, e.getKey(), e.getValue().value())).get();
            }
        }
    }

    /** Kafka Streams' {@code failed-stream-threads} (client level), from the health server's /metrics. */
    private static double failedStreamThreads(SanitiserApplication app) {
        try {
            HttpResponse<String> metrics = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.healthPort() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            Matcher m = Pattern.compile("(?m)^kafka_stream_failed_stream_threads(?:_total)?(?:\\{[^}]*})? (\\S+)$")
                    .matcher(metrics.body());
            return m.find() ? Double.parseDouble(m.group(1)) : -1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The four headers each verdict fixes; an absent header is null. */
    private static Map<String, String> deadLetterHeaders(ConsumerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : List.of("__utf8.rule", "__utf8.offset", "__utf8.field", "__utf8.errors")) {
            headers.put(name, header(record, name));
        }
        return headers;
    }

    /** Concatenates strings (as UTF-8) and byte arrays. */
    private static byte[] doc(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof byte[] b ? b : part.toString().getBytes(UTF_8));
        }
        return out.toByteArray();
    }

    private static byte[] bytes(int... values) {
        return SanitiserTopologyTest.bytes(values);
    }
}
