package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.streams.RecordSize;
import dev.utf8sanitiser.streams.SizeLimits;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile records through the real topology: each one ends in the output or the dead-letter topic,
 * within its topic's limit, with an annotation of bounded size; none stops the application and
 * none is dropped.
 */
class HostileRecordsTopologyTest {
    private static final int ONE_MIB = 1 << 20;
    /** The annotation's headers, all together, whatever the record (docs/dlq.md, "What is bounded"). */
    private static final int ANNOTATION_BOUND = 3 * 1024;

    private TopologyTestDriver driver;
    private int limit;

    private void start(Map<String, String> settings) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", "in");
        props.putAll(settings);
        SanitiserConfig config = new SanitiserConfig(props);
        limit = SizeLimits.maxRequestSize(config.streamsProperties());
        Properties streams = new Properties();
        streams.put("application.id", "hostile-test");
        streams.put("bootstrap.servers", "unused:9092");
        driver = new TopologyTestDriver(SanitiserTopology.build(config, ValueFormats.of(config, () -> null)), streams);
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
            driver = null;
        }
    }

    /** Sends the records; returns where each one went, in order: "clean" or "dlq", and the record. */
    private List<Landed> send(List<TestRecord<byte[], byte[]>> records) {
        var input = driver.createInputTopic("in", new ByteArraySerializer(), new ByteArraySerializer());
        var clean = driver.createOutputTopic("in.clean", new ByteArrayDeserializer(), new ByteArrayDeserializer());
        var dlq = driver.createOutputTopic("in.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<Landed> landed = new ArrayList<>();
        for (TestRecord<byte[], byte[]> record : records) {
            input.pipeInput(record);
            List<TestRecord<byte[], byte[]>> out = clean.readRecordsToList();
            List<TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
            assertThat(out.size() + dead.size()).as("records out for one in").isEqualTo(1);
            Landed one = out.isEmpty() ? new Landed("dlq", dead.get(0)) : new Landed("clean", out.get(0));
            assertThat(RecordSize.upperBound(one.record.key(), one.record.value(), one.record.headers()))
                    .as("size of the record written")
                    .isLessThanOrEqualTo(limit);
            assertThat(annotationBytes(one.record.headers())).isLessThan(ANNOTATION_BOUND);
            landed.add(one);
        }
        return landed;
    }

    private record Landed(String topic, TestRecord<byte[], byte[]> record) {
        String header(String name) {
            Header h = record.headers().lastHeader(name);
            return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        }
    }

    private static int annotationBytes(Headers headers) {
        int bytes = 0;
        for (Header h : headers) {
            if (h.key().startsWith("__utf8.") || h.key().startsWith("__streams.")) {
                bytes += h.key().length() + h.value().length;
            }
        }
        return bytes;
    }

    private static TestRecord<byte[], byte[]> record(byte[] key, byte[] value, Headers headers) {
        return new TestRecord<>(key, value, headers, Instant.ofEpochMilli(1_700_000_000_000L));
    }

    private static byte[] filled(int n, int b) {
        byte[] bytes = new byte[n];
        Arrays.fill(bytes, (byte) b);
        return bytes;
    }

    private static byte[] jsonString(byte[] content) {
        byte[] doc = new byte[content.length + 2];
        doc[0] = '"';
        System.arraycopy(content, 0, doc, 1, content.length);
        doc[doc.length - 1] = '"';
        return doc;
    }

    @Test
    void theLargestRecordABrokerTakesAllIllFormedUnderEveryPolicyAndFormat() {
        // A broker set to take 4 MiB records: four million errors in one record.
        int size = 4 * ONE_MIB - 1024;
        byte[] text = filled(size, 0x80);
        byte[] json = jsonString(filled(size - 2, 0x80));
        for (String policy : List.of("strict", "replace", "repair")) {
            for (String format : List.of("text", "json")) {
                start(Map.of(
                        "sanitiser.policy", policy,
                        "sanitiser.payload.format", format,
                        "producer.max.request.size", Integer.toString(4 * ONE_MIB)));
                byte[] value = format.equals("text") ? text : json;

                Landed landed =
                        send(List.of(record(null, value, new RecordHeaders()))).get(0);

                // Replaced, it would be three times as large: under every policy, it is dead-lettered.
                assertThat(landed.topic).as("%s %s", policy, format).isEqualTo("dlq");
                assertThat(landed.header("__utf8.errors"))
                        .isEqualTo(Integer.toString(format.equals("text") ? size : size - 2));
                if (landed.record.value() != null) {
                    assertThat(landed.record.value()).isEqualTo(value);
                } else {
                    assertThat(landed.header("__utf8.omitted")).isEqualTo("key,value,headers");
                }
                close();
            }
        }
    }

    @Test
    void nullAndEmptyKeysAndValues() {
        start(Map.of("sanitiser.check.key", "true"));
        byte[] bad = {(byte) 0xC0, (byte) 0xAF};
        List<Landed> landed = send(List.of(
                record(null, null, new RecordHeaders()),
                record(new byte[0], new byte[0], new RecordHeaders()),
                record(null, new byte[0], new RecordHeaders()),
                record(new byte[0], null, new RecordHeaders()),
                record(bad, null, new RecordHeaders()), // a tombstone passes untouched, whatever its key
                record(null, bad, new RecordHeaders()),
                record(bad, new byte[0], new RecordHeaders())));

        assertThat(landed)
                .extracting(Landed::topic)
                .containsExactly("clean", "clean", "clean", "clean", "clean", "dlq", "dlq");
        assertThat(landed.get(0).record.value()).isNull();
        assertThat(landed.get(4).record.key()).isEqualTo(bad);
        assertThat(landed.get(5).record.key()).isNull();
        assertThat(landed.get(5).header("__utf8.part")).isEqualTo("value");
        assertThat(landed.get(6).record.value()).isEmpty();
        assertThat(landed.get(6).header("__utf8.part")).isEqualTo("key");
    }

    @Test
    void hugeAndManyHeaders() {
        start(Map.of("sanitiser.check.headers", "trace"));
        Headers many = new RecordHeaders();
        for (int i = 0; i < 20_000; i++) {
            many.add("h" + i, new byte[] {(byte) i});
        }
        Headers huge = new RecordHeaders().add("blob", filled(900_000, 0xFF)); // not checked
        Headers hugeChecked = new RecordHeaders().add("trace", filled(500_000, 0x80));
        Headers oversized = new RecordHeaders().add("blob", filled(1_100_000, 'x'));
        List<Landed> landed = send(List.of(
                record(null, "ok".getBytes(StandardCharsets.UTF_8), many),
                record(null, new byte[] {(byte) 0xFF}, many),
                record(null, "ok".getBytes(StandardCharsets.UTF_8), huge),
                record(null, new byte[] {(byte) 0xFF}, huge),
                record(null, "ok".getBytes(StandardCharsets.UTF_8), hugeChecked),
                record(null, "ok".getBytes(StandardCharsets.UTF_8), oversized)));

        assertThat(landed).extracting(Landed::topic).containsExactly("clean", "dlq", "clean", "dlq", "dlq", "dlq");
        assertThat(landed.get(0).record.headers().toArray()).hasSize(20_000);
        assertThat(landed.get(1).record.headers().toArray()).hasSizeGreaterThan(20_000);
        assertThat(landed.get(3).record.headers().lastHeader("blob").value()).hasSize(900_000);
        assertThat(landed.get(4).header("__utf8.part")).isEqualTo("header:trace");
        assertThat(landed.get(4).header("__utf8.errors")).isEqualTo("500000");
        // Over the producer's 1 MiB as it came: a placeholder, since its own headers are too large.
        assertThat(landed.get(5).header("__utf8.rule")).isEqualTo("RECORD_TOO_LARGE");
        assertThat(landed.get(5).header("__utf8.cause")).isEqualTo("RECORD_TOO_LARGE");
        assertThat(landed.get(5).record.value()).isNull();
    }

    @Test
    void aJsonFieldPathOfAHundredThousandBytes() {
        start(Map.of("sanitiser.payload.format", "json"));
        String key = "k".repeat(100_000);
        byte[] value = ("{\"" + key + "\":\"a\u0080b\"}").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(Utf8Validator.isWellFormed(value)).isFalse();

        Landed landed = send(List.of(record(null, value, new RecordHeaders()))).get(0);

        assertThat(landed.topic).isEqualTo("dlq");
        assertThat(landed.record.value()).isEqualTo(value);
        assertThat(landed.header("__utf8.field")).isEqualTo("k".repeat(509) + "...");
    }
}
