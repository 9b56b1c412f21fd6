package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.registry.UnknownSchemaException;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.streams.SanitiserMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SanitiserTopologyTest {
    private static final byte[] SURROGATE_VALUE = bytes(0x61, 0x62, 0xED, 0xA0, 0x80, 0x63);
    private static final Instant TIME = Instant.ofEpochMilli(1_700_000_000_000L);

    private TopologyTestDriver driver;

    private void start(Map<String, String> settings) {
        SanitiserConfig config = config(settings);
        driver = new TopologyTestDriver(SanitiserTopology.build(config), streamsProperties());
    }

    private void startAvro(Map<String, String> settings, SchemaRegistry registry) {
        Map<String, String> avro = new HashMap<>(settings);
        avro.put("sanitiser.payload.format", "avro");
        avro.put("schema.registry.url", "http://unused:8081");
        SanitiserConfig config = config(avro);
        driver = new TopologyTestDriver(
                SanitiserTopology.build(config, ValueFormats.of(config, () -> registry)), streamsProperties());
    }

    private static SanitiserConfig config(Map<String, String> settings) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", "orders,payments");
        props.putAll(settings);
        return new SanitiserConfig(props);
    }

    private static Properties streamsProperties() {
        Properties streams = new Properties();
        streams.put("application.id", "sanitiser-test");
        streams.put("bootstrap.servers", "unused:9092");
        return streams;
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private TestInputTopic<byte[], byte[]> input(String topic) {
        return driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private TestOutputTopic<byte[], byte[]> output(String topic) {
        return driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Test
    void wellFormedRecordsPassUnchangedToTheOutputTopic() {
        start(Map.of());
        Headers headers = new RecordHeaders().add("trace", bytes(0x01, 0xFF));
        byte[] value = "Grüße 😀".getBytes(StandardCharsets.UTF_8);
        input("orders").pipeInput(new TestRecord<>(bytes(0x6B), value, headers, TIME));

        TestRecord<byte[], byte[]> out = output("orders.clean").readRecord();
        assertThat(out.value()).isEqualTo(value);
        assertThat(out.key()).isEqualTo(bytes(0x6B));
        assertThat(out.timestamp()).isEqualTo(TIME.toEpochMilli());
        assertThat(out.headers().toArray())
                .containsExactly(
                        new RecordHeaders().add("trace", bytes(0x01, 0xFF)).toArray());
        assertThat(output("orders.dlq").isEmpty()).isTrue();
    }

    @Test
    void strictSendsIllFormedRecordsByteExactToTheDeadLetterTopicWithEveryHeader() {
        start(Map.of());
        Headers original = new RecordHeaders().add("trace", bytes(0xC0, 0xAF)); // not checked
        input("payments").pipeInput(new TestRecord<>(bytes(0x6B, 0xFF), SURROGATE_VALUE, original, TIME));

        assertThat(output("payments.clean").isEmpty()).isTrue();
        TestRecord<byte[], byte[]> dead = output("payments.dlq").readRecord();
        assertThat(dead.value()).isEqualTo(SURROGATE_VALUE);
        assertThat(dead.key()).isEqualTo(bytes(0x6B, 0xFF)); // keys are not checked by default
        assertThat(dead.timestamp()).isEqualTo(TIME.toEpochMilli());
        Header[] all = dead.headers().toArray();
        assertThat(all[0].key()).isEqualTo("trace");
        assertThat(all[0].value()).isEqualTo(bytes(0xC0, 0xAF));
        Map<String, String> annotation = strings(dead.headers());
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("trace", new String(bytes(0xC0, 0xAF), StandardCharsets.UTF_8));
        expected.put("__utf8.rule", "SURROGATE");
        expected.put("__utf8.offset", "2");
        expected.put("__utf8.length", "1");
        expected.put("__utf8.errors", "3");
        expected.put("__utf8.part", "value");
        expected.put("__utf8.context", "61 62 [ED A0 80] 63");
        expected.put("__utf8.policy", "strict");
        expected.put("__utf8.source.topic", "payments");
        expected.put("__utf8.source.partition", "0");
        expected.put("__utf8.source.offset", "0");
        expected.put("__utf8.source.timestamp", Long.toString(TIME.toEpochMilli()));
        expected.put("__streams.errors.exception", "dev.utf8sanitiser.serdes.IllFormedTextException");
        expected.put("__streams.errors.message", "SURROGATE at value byte 2 (ED A0 80)");
        expected.put("__streams.errors.topic", "payments");
        expected.put("__streams.errors.partition", "0");
        expected.put("__streams.errors.offset", "0");
        assertThat(annotation).containsExactlyEntriesOf(expected);
    }

    @Test
    void sourceOffsetIsThatOfTheRecordInItsPartition() {
        start(Map.of());
        TestInputTopic<byte[], byte[]> orders = input("orders");
        orders.pipeInput(bytes(0x41));
        orders.pipeInput(bytes(0x42));
        orders.pipeInput(bytes(0xFF));
        Map<String, String> headers = strings(output("orders.dlq").readRecord().headers());
        assertThat(headers).containsEntry("__utf8.source.offset", "2").containsEntry("__streams.errors.offset", "2");
        assertThat(output("orders.clean").readValuesToList()).hasSize(2);
    }

    @Test
    void replaceSendsFixedRecordsOnWithActionAndErrorCount() {
        start(Map.of("sanitiser.policy", "replace"));
        input("orders")
                .pipeInput(new TestRecord<>(null, SURROGATE_VALUE, new RecordHeaders().add("h", bytes(0x31)), TIME));
        TestRecord<byte[], byte[]> out = output("orders.clean").readRecord();
        assertThat(new String(out.value(), StandardCharsets.UTF_8)).isEqualTo("ab\uFFFD\uFFFD\uFFFDc");
        assertThat(strings(out.headers()))
                .containsExactly(
                        Map.entry("h", "1"), Map.entry("__utf8.action", "replaced"), Map.entry("__utf8.errors", "3"));
        assertThat(output("orders.dlq").isEmpty()).isTrue();
    }

    @Test
    void repairTurnsCesu8IntoUtf8AndSaysRepaired() {
        start(Map.of("sanitiser.policy", "repair"));
        input("orders").pipeInput(bytes(0x61, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80));
        TestRecord<byte[], byte[]> out = output("orders.clean").readRecord();
        assertThat(new String(out.value(), StandardCharsets.UTF_8)).isEqualTo("a😀");
        assertThat(strings(out.headers()))
                .containsEntry("__utf8.action", "repaired")
                .containsEntry("__utf8.errors", "1");
    }

    @Test
    void tombstonesPassUntouchedEvenWithABadKey() {
        start(Map.of("sanitiser.check.key", "true"));
        input("orders").pipeInput(bytes(0xFF), (byte[]) null);
        TestRecord<byte[], byte[]> out = output("orders.clean").readRecord();
        assertThat(out.value()).isNull();
        assertThat(out.key()).isEqualTo(bytes(0xFF));
    }

    @Test
    void emptyValuesAreWellFormed() {
        start(Map.of());
        input("orders").pipeInput(new byte[0]);
        assertThat(output("orders.clean").readValue()).isEmpty();
    }

    @Test
    void keysAndNamedHeadersAreCheckedWhenConfigured() {
        start(Map.of("sanitiser.check.key", "true", "sanitiser.check.headers", "source,user"));
        input("orders").pipeInput(new TestRecord<>(bytes(0x6B, 0xC1, 0x81), bytes(0x76), null, TIME));
        Map<String, String> keyHeaders =
                strings(output("orders.dlq").readRecord().headers());
        assertThat(keyHeaders)
                .containsEntry("__utf8.part", "key")
                .containsEntry("__utf8.rule", "NON_SHORTEST_FORM")
                .containsEntry("__utf8.offset", "1")
                .containsEntry("__utf8.errors", "2");

        Headers headers =
                new RecordHeaders().add("other", bytes(0xFF)).add("user", bytes(0x61, 0xF4, 0x90, 0x80, 0x80));
        input("orders").pipeInput(new TestRecord<>(bytes(0x6B), bytes(0x76), headers, TIME));
        Map<String, String> headerHeaders =
                strings(output("orders.dlq").readRecord().headers());
        assertThat(headerHeaders)
                .containsEntry("__utf8.part", "header:user")
                .containsEntry("__utf8.rule", "OUT_OF_RANGE")
                .containsEntry("__utf8.context", "61 [F4 90 80 80]");
    }

    @Test
    void theValueIsDescribedFirstAndErrorsCountEveryPart() {
        start(Map.of("sanitiser.check.key", "true"));
        input("orders").pipeInput(bytes(0x80), bytes(0x41, 0xFF, 0xFE));
        Map<String, String> headers = strings(output("orders.dlq").readRecord().headers());
        assertThat(headers).containsEntry("__utf8.part", "value").containsEntry("__utf8.offset", "1");
        assertThat(headers).containsEntry("__utf8.errors", "3");
    }

    @Test
    void topicTemplatesFollowTheInputTopic() {
        start(Map.of("sanitiser.output.topic", "clean.${topic}", "sanitiser.dlq.topic", "all-bad"));
        input("orders").pipeInput(bytes(0x41));
        input("payments").pipeInput(bytes(0x42));
        input("orders").pipeInput(bytes(0xFF));
        input("payments").pipeInput(bytes(0xFE));
        assertThat(output("clean.orders").readValuesToList()).containsExactly(bytes(0x41));
        assertThat(output("clean.payments").readValuesToList()).containsExactly(bytes(0x42));
        assertThat(output("all-bad").readValuesToList()).containsExactly(bytes(0xFF), bytes(0xFE));
    }

    @Test
    void contextShowsUpToEightBytesEitherSide() {
        start(Map.of());
        byte[] value = "0123456789".getBytes(StandardCharsets.US_ASCII);
        byte[] withError = new byte[21];
        System.arraycopy(value, 0, withError, 0, 10);
        withError[10] = (byte) 0xE2;
        withError[11] = (byte) 0x82;
        System.arraycopy(value, 0, withError, 12, 9);
        input("orders").pipeInput(withError);
        assertThat(strings(output("orders.dlq").readRecord().headers()))
                .containsEntry("__utf8.context", "32 33 34 35 36 37 38 39 [E2 82] 30 31 32 33 34 35 36 37")
                .containsEntry("__utf8.rule", "TRUNCATED")
                .containsEntry("__utf8.length", "2");
    }

    @Test
    void aContentRuleWithRejectSendsTheRecordToTheDeadLetterTopicUnderItsName() {
        start(Map.of("sanitiser.content.rules", "NUL:reject,C1_CONTROL:strip"));
        byte[] value = "ab\u0000c".getBytes(StandardCharsets.UTF_8);
        input("orders").pipeInput(value);
        TestRecord<byte[], byte[]> dead = output("orders.dlq").readRecord();
        assertThat(dead.value()).isEqualTo(value);
        assertThat(strings(dead.headers()))
                .containsEntry("__utf8.rule", "NUL")
                .containsEntry("__utf8.offset", "2")
                .containsEntry("__utf8.length", "1")
                .containsEntry("__utf8.context", "61 62 [00] 63")
                .containsEntry("__streams.errors.message", "NUL at value byte 2 (00)");
    }

    @Test
    void strippedAndNormalisedRecordsGoOnWithTheirAction() {
        start(Map.of("sanitiser.content.rules", "C1_CONTROL:strip", "sanitiser.normalisation", "NFC"));
        input("orders").pipeInput("a\u0085b".getBytes(StandardCharsets.UTF_8));
        input("orders").pipeInput("e\u0301".getBytes(StandardCharsets.UTF_8)); // NFD é
        input("orders").pipeInput("plain".getBytes(StandardCharsets.UTF_8));
        List<TestRecord<byte[], byte[]>> out = output("orders.clean").readRecordsToList();
        assertThat(new String(out.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("ab");
        assertThat(strings(out.get(0).headers())).containsEntry("__utf8.action", "stripped");
        assertThat(new String(out.get(1).value(), StandardCharsets.UTF_8)).isEqualTo("\u00E9");
        assertThat(strings(out.get(1).headers())).containsEntry("__utf8.action", "normalised");
        assertThat(out.get(2).headers().toArray()).isEmpty();
    }

    @Test
    void strictRejectsIllFormedInputBeforeAnyContentRule() {
        start(Map.of("sanitiser.content.rules", "NUL:reject"));
        input("orders").pipeInput(bytes(0x00, 0xFF));
        assertThat(strings(output("orders.dlq").readRecord().headers())).containsEntry("__utf8.rule", "INVALID_BYTE");
    }

    @Test
    void replacedTextIsStillCheckedForContent() {
        start(Map.of("sanitiser.policy", "replace", "sanitiser.content.rules", "C0_CONTROL:strip"));
        input("orders").pipeInput(bytes(0x61, 0x01, 0xFF, 0x62));
        TestRecord<byte[], byte[]> out = output("orders.clean").readRecord();
        assertThat(new String(out.value(), StandardCharsets.UTF_8)).isEqualTo("a\uFFFDb");
        assertThat(strings(out.headers()))
                .containsEntry("__utf8.action", "replaced")
                .containsEntry("__utf8.errors", "2");
    }

    @Test
    void streamsErrorHeaderNamesAreKafkasOwn() {
        assertThat(List.of(
                        HeaderNames.STREAMS_EXCEPTION,
                        HeaderNames.STREAMS_MESSAGE,
                        HeaderNames.STREAMS_TOPIC,
                        HeaderNames.STREAMS_PARTITION,
                        HeaderNames.STREAMS_OFFSET))
                .containsExactly(
                        ExceptionHandlerUtils.HEADER_ERRORS_EXCEPTION_NAME,
                        ExceptionHandlerUtils.HEADER_ERRORS_EXCEPTION_MESSAGE_NAME,
                        ExceptionHandlerUtils.HEADER_ERRORS_TOPIC_NAME,
                        ExceptionHandlerUtils.HEADER_ERRORS_PARTITION_NAME,
                        ExceptionHandlerUtils.HEADER_ERRORS_OFFSET_NAME);
    }

    @Test
    void deadLetteredRecordsAreCountedPerRule() {
        start(Map.of());
        input("orders").pipeInput(bytes(0xFF));
        input("orders").pipeInput(bytes(0x41));
        // Both at the driver's one wall-clock time: the metrics get them when the punctuator runs.
        driver.advanceWallClockTime(SanitiserMetrics.FLUSH_INTERVAL);
        double deadLettered = driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("dead-lettered-total")
                        && "INVALID_BYTE".equals(e.getKey().tags().get("rule")))
                .mapToDouble(e -> (Double) e.getValue().metricValue())
                .sum();
        double passed = driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("passed-total"))
                .mapToDouble(e -> (Double) e.getValue().metricValue())
                .sum();
        assertThat(deadLettered).isEqualTo(1.0);
        assertThat(passed).isEqualTo(1.0);
    }

    @Test
    void jsonRecordsAreDeadLetteredWithTheFieldOfTheirFirstError() {
        start(Map.of("sanitiser.payload.format", "json"));
        byte[] bad =
                concat("{\"customer\":{\"name\":\"Jos".getBytes(StandardCharsets.UTF_8), bytes(0xE9, 0x22, 0x7D, 0x7D));
        input("orders").pipeInput(bad);
        input("orders").pipeInput("{\"a\":".getBytes(StandardCharsets.UTF_8));
        input("orders").pipeInput("{\"a\":\"Jos\u00e9\"}".getBytes(StandardCharsets.UTF_8));

        List<TestRecord<byte[], byte[]>> dead = output("orders.dlq").readRecordsToList();
        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).value()).isEqualTo(bad);
        Map<String, String> headers = strings(dead.get(0).headers());
        assertThat(headers)
                .containsEntry(HeaderNames.RULE, "TRUNCATED")
                .containsEntry(HeaderNames.FIELD, "customer.name")
                .containsEntry(HeaderNames.OFFSET, "24")
                .containsEntry(HeaderNames.STREAMS_MESSAGE, "TRUNCATED at value field customer.name byte 24 (E9)");
        assertThat(strings(dead.get(1).headers()))
                .containsEntry(HeaderNames.RULE, "INVALID_JSON")
                .containsEntry(HeaderNames.FIELD, "a") // the document ends where a's value should be
                .containsEntry(HeaderNames.OFFSET, "5")
                .containsEntry(HeaderNames.CONTEXT, "7B 22 61 22 3A []");
        assertThat(output("orders.clean").readValuesToList()).hasSize(1);
    }

    @Test
    void avroRecordsAreCheckedFieldByFieldWithOffsetsFromThePrefix() throws Exception {
        Schema schema = SchemaBuilder.record("Customer")
                .fields()
                .requiredString("id")
                .name("tags")
                .type(SchemaBuilder.array().items().stringType())
                .noDefault()
                .endRecord();
        startAvro(Map.of("sanitiser.policy", "replace"), registryWith(42, schema));
        // id "c1", tags ["ok", 61 C0 80]
        byte[] value =
                concat(WireFormat.prefix(42), bytes(0x04, 'c', '1', 0x04, 0x04, 'o', 'k', 0x06, 'a', 0xC0, 0x80, 0x00));
        input("orders").pipeInput(value);
        input("orders").pipeInput(bytes(0x7B, 0x7D));
        input("orders").pipeInput(concat(WireFormat.prefix(7), bytes(0x00)));

        TestRecord<byte[], byte[]> clean = output("orders.clean").readRecord();
        GenericRecord read = (GenericRecord) new GenericDatumReader<>(schema)
                .read(null, DecoderFactory.get().binaryDecoder(clean.value(), 5, clean.value().length - 5, null));
        assertThat(read.get("tags").toString()).isEqualTo("[ok, a\uFFFD\uFFFD]");
        assertThat(strings(clean.headers()))
                .containsEntry(HeaderNames.ACTION, "replaced")
                .containsEntry(HeaderNames.ERRORS, "2");

        List<TestRecord<byte[], byte[]>> dead = output("orders.dlq").readRecordsToList();
        assertThat(dead)
                .extracting(r -> strings(r.headers()).get(HeaderNames.RULE))
                .containsExactly("NOT_AVRO", "UNKNOWN_SCHEMA");
        assertThat(strings(dead.get(1).headers()))
                .containsEntry(HeaderNames.OFFSET, "1")
                .containsEntry(HeaderNames.LENGTH, "4");
    }

    @Test
    void avroStrictNamesTheFieldPath() {
        Schema schema = SchemaBuilder.record("Customer")
                .fields()
                .requiredString("id")
                .name("tags")
                .type(SchemaBuilder.array().items().stringType())
                .noDefault()
                .endRecord();
        startAvro(Map.of(), registryWith(42, schema));
        byte[] value =
                concat(WireFormat.prefix(42), bytes(0x04, 'c', '1', 0x04, 0x04, 'o', 'k', 0x06, 'a', 0xC0, 0x80, 0x00));
        input("orders").pipeInput(value);

        TestRecord<byte[], byte[]> dead = output("orders.dlq").readRecord();
        assertThat(dead.value()).isEqualTo(value);
        assertThat(strings(dead.headers()))
                .containsEntry(HeaderNames.RULE, "NON_SHORTEST_FORM")
                .containsEntry(HeaderNames.FIELD, "tags[1]")
                .containsEntry(HeaderNames.OFFSET, "14")
                .containsEntry(HeaderNames.CONTEXT, "63 31 04 04 6F 6B 06 61 [C0 80] 00");
    }

    private static SchemaRegistry registryWith(int id, Schema schema) {
        return new SchemaRegistry() {
            @Override
            public Schema schema(int wanted) {
                if (wanted != id) {
                    throw new UnknownSchemaException(wanted, "Schema " + wanted + " not found");
                }
                return schema;
            }

            @Override
            public int register(String subject, Schema s) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void close() {}
        };
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static Map<String, String> strings(Headers headers) {
        Map<String, String> map = new LinkedHashMap<>();
        for (Header h : headers) {
            map.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
        }
        return map;
    }

    static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
