package dev.utf8sanitiser.app.topology;

import static dev.utf8sanitiser.app.topology.SanitiserTopologyTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import dev.utf8sanitiser.streams.RecordSize;
import dev.utf8sanitiser.streams.SizeLimits;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * No record is forwarded that its topic would refuse for its size (docs/dlq.md, "Records too
 * large"): a refused send fails the transaction, and the restarted application reads the same
 * record again, for ever.
 */
class RecordLimitsTopologyTest {
    private static final Instant TIME = Instant.ofEpochMilli(1_700_000_000_000L);

    private TopologyTestDriver driver;

    private void start(Map<String, String> settings, Map<String, Integer> topicLimits) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", "orders");
        props.putAll(settings);
        SanitiserConfig config = new SanitiserConfig(props);
        SizeLimits limits = new SizeLimits(SizeLimits.maxRequestSize(config.streamsProperties()), topicLimits);
        Properties streams = new Properties();
        streams.put("application.id", "limits-test");
        streams.put("bootstrap.servers", "unused:9092");
        driver = new TopologyTestDriver(SanitiserTopology.build(config, ValueFormat.TEXT, limits), streams);
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void send(byte[] key, byte[] value, Headers headers) {
        driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>(key, value, headers, TIME));
    }

    private TestOutputTopic<byte[], byte[]> output(String topic) {
        return driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static byte[] filled(int n, int b) {
        byte[] bytes = new byte[n];
        Arrays.fill(bytes, (byte) b);
        return bytes;
    }

    private static Headers origin() {
        return new RecordHeaders().add("origin", bytes(0x01, 0x02));
    }

    private static Map<String, String> strings(Headers headers) {
        Map<String, String> map = new LinkedHashMap<>();
        for (Header h : headers) {
            map.put(h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
        }
        return map;
    }

    private static String hexRun(String hex, int times) {
        return String.join(" ", Collections.nCopies(times, hex));
    }

    @Test
    void aReplacedRecordLargerThanTheProducerTakesGoesByteExactToTheDeadLetterTopic() {
        start(Map.of("sanitiser.policy", "replace", "producer.max.request.size", "100000"), Map.of());
        byte[] value = filled(50_000, 0x80); // replaced: 150,000 bytes

        send(bytes(0x6B), value, origin());

        assertThat(output("orders.clean").isEmpty()).isTrue();
        TestRecord<byte[], byte[]> dead = output("orders.dlq").readRecord();
        assertThat(dead.value()).isEqualTo(value);
        assertThat(dead.key()).isEqualTo(bytes(0x6B));
        assertThat(dead.timestamp()).isEqualTo(TIME.toEpochMilli());
        Map<String, String> h = strings(dead.headers());
        assertThat(dead.headers().toArray()[0].key()).isEqualTo("origin");
        assertThat(h)
                .containsEntry("__utf8.rule", "REPLACEMENT_TOO_LARGE")
                .containsEntry("__utf8.offset", "0")
                .containsEntry("__utf8.length", "1")
                .containsEntry("__utf8.errors", "50000")
                .containsEntry("__utf8.part", "value")
                .containsEntry("__utf8.context", "[" + hexRun("80", 16) + "] " + hexRun("80", 8))
                .containsEntry("__utf8.policy", "replace")
                .containsEntry("__utf8.limit", "100000")
                .containsEntry("__utf8.source.topic", "orders")
                .doesNotContainKey("__utf8.omitted");
        long size = Long.parseLong(h.get("__utf8.size"));
        // The replaced record: 150,000 bytes of value, the key, three headers, and the format's bytes.
        assertThat(size).isBetween(150_000L + 1 + 6 + 2 + 14 + 8 + 13 + 5, 150_000L + 300);
        assertThat(h.get("__streams.errors.message"))
                .isEqualTo("REPLACEMENT_TOO_LARGE: " + size + " bytes, over the output limit of 100000;"
                        + " first error UNEXPECTED_CONTINUATION at value byte 0 (" + hexRun("80", 16) + ")");
    }

    @Test
    void aReplacedRecordThatFitsGoesDownstream() {
        start(Map.of("sanitiser.policy", "replace", "producer.max.request.size", "100000"), Map.of());

        send(bytes(0x6B), filled(30_000, 0x80), origin()); // replaced: 90,000 bytes

        assertThat(output("orders.dlq").isEmpty()).isTrue();
        TestRecord<byte[], byte[]> out = output("orders.clean").readRecord();
        assertThat(out.value()).hasSize(90_000);
        assertThat(strings(out.headers())).containsEntry("__utf8.errors", "30000");
    }

    @Test
    void aWellFormedRecordLargerThanTheOutputTopicTakesGoesByteExactToTheDeadLetterTopic() {
        start(Map.of(), Map.of("orders.clean", 10_000));
        byte[] value = filled(20_000, 'x');

        send(null, value, origin());

        assertThat(output("orders.clean").isEmpty()).isTrue();
        TestRecord<byte[], byte[]> dead = output("orders.dlq").readRecord();
        assertThat(dead.value()).isEqualTo(value);
        Map<String, String> h = strings(dead.headers());
        assertThat(h)
                .containsEntry("__utf8.rule", "RECORD_TOO_LARGE")
                .containsEntry("__utf8.errors", "0")
                .containsEntry("__utf8.offset", "0")
                .containsEntry("__utf8.length", "0")
                .containsEntry("__utf8.limit", "10000")
                .doesNotContainKey("__utf8.context")
                .doesNotContainKey("__utf8.field");
        assertThat(h.get("__streams.errors.message"))
                .isEqualTo("RECORD_TOO_LARGE: " + h.get("__utf8.size") + " bytes, over the output limit of 10000");
    }

    @Test
    void aDeadLetterRecordThatFitsOnlyWithoutItsContextIsSentWithoutIt() {
        byte[] value = filled(20_000, 'x');
        value[100] = (byte) 0xC0;
        start(Map.of(), Map.of());
        send(bytes(0x6B), value, origin());
        TestRecord<byte[], byte[]> full = output("orders.dlq").readRecord();
        long fullSize = RecordSize.upperBound(full.key(), full.value(), full.headers());
        close();

        start(Map.of(), Map.of("orders.dlq", (int) fullSize - 1));
        send(bytes(0x6B), value, origin());

        TestRecord<byte[], byte[]> brief = output("orders.dlq").readRecord();
        assertThat(brief.value()).isEqualTo(value);
        assertThat(brief.key()).isEqualTo(bytes(0x6B));
        assertThat(RecordSize.upperBound(brief.key(), brief.value(), brief.headers()))
                .isLessThan(fullSize);
        Map<String, String> h = strings(brief.headers());
        assertThat(strings(full.headers())).containsKey("__utf8.context");
        assertThat(h)
                .containsEntry("origin", new String(bytes(0x01, 0x02), StandardCharsets.UTF_8))
                .containsEntry("__utf8.rule", "NON_SHORTEST_FORM")
                .containsEntry("__utf8.offset", "100")
                .containsEntry("__utf8.errors", "1")
                .doesNotContainKey("__utf8.context")
                .doesNotContainKey("__utf8.size");
        assertThat(h.get("__streams.errors.message")).isEqualTo("NON_SHORTEST_FORM at value byte 100");
    }

    @Test
    void aDeadLetterRecordTooLargeEvenWithoutContextIsReplacedByAPlaceholder() {
        start(Map.of(), Map.of("orders.dlq", 4096));
        byte[] value = filled(10_000, 'x');
        value[7] = (byte) 0xED;
        value[8] = (byte) 0xA0;
        value[9] = (byte) 0x80;

        send(bytes(0x6B), value, origin());

        assertThat(output("orders.clean").isEmpty()).isTrue();
        TestRecord<byte[], byte[]> placeholder = output("orders.dlq").readRecord();
        assertThat(placeholder.key()).isNull();
        assertThat(placeholder.value()).isNull();
        assertThat(placeholder.timestamp()).isEqualTo(TIME.toEpochMilli());
        Map<String, String> h = strings(placeholder.headers());
        long size = Long.parseLong(h.get("__utf8.size"));
        assertThat(size).isGreaterThan(10_000);
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("__utf8.rule", "RECORD_TOO_LARGE");
        expected.put("__utf8.offset", "7");
        expected.put("__utf8.length", "1");
        expected.put("__utf8.errors", "3");
        expected.put("__utf8.part", "value");
        expected.put("__utf8.policy", "strict");
        expected.put("__utf8.size", Long.toString(size));
        expected.put("__utf8.limit", "4096");
        expected.put("__utf8.cause", "SURROGATE");
        expected.put("__utf8.omitted", "key,value,headers");
        expected.put("__utf8.source.topic", "orders");
        expected.put("__utf8.source.partition", "0");
        expected.put("__utf8.source.offset", "0");
        expected.put("__utf8.source.timestamp", Long.toString(TIME.toEpochMilli()));
        expected.put("__streams.errors.exception", "dev.utf8sanitiser.serdes.IllFormedTextException");
        expected.put(
                "__streams.errors.message",
                "RECORD_TOO_LARGE: " + size + " bytes, over the dead-letter limit of 4096;"
                        + " dead-lettered for SURROGATE at value byte 7");
        expected.put("__streams.errors.topic", "orders");
        expected.put("__streams.errors.partition", "0");
        expected.put("__streams.errors.offset", "0");
        assertThat(h).containsExactlyEntriesOf(expected);
    }

    @Test
    void aDeadLetterTopicTooSmallForAPlaceholderStopsTheApplicationRatherThanDropTheRecord() {
        start(Map.of(), Map.of("orders.dlq", 200));

        assertThatThrownBy(() -> send(null, bytes(0x61, 0xFF), new RecordHeaders()))
                .rootCause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("orders.dlq takes at most 200 bytes");
        assertThat(output("orders.clean").isEmpty()).isTrue();
    }
}
