package dev.utf8sanitiser.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.serdes.IllFormedTextException;
import dev.utf8sanitiser.serdes.SanitisingSerde;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * The handler turns a sanitising deserializer's refusal into Kafka Streams' own dead-letter record,
 * byte-exact and annotated, and lets every other failure stop the application. (On a real broker,
 * under exactly-once: the examples module's IT.)
 */
class IllFormedTextExceptionHandlerTest {
    private static final HexFormat HEX = HexFormat.ofDelimiter("");

    @Test
    void aRefusedValueBecomesAnAnnotatedDeadLetterAndTheNextRecordIsRead() {
        Map<String, Object> config = config();
        try (TopologyTestDriver driver = driver(config)) {
            TestInputTopic<byte[], byte[]> in = driver.createInputTopic(
                    "in", Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
            byte[] bad = HEX.parseHex("6361661b5bc0af");
            Headers headers = new RecordHeaders();
            headers.add("trace", "t1".getBytes(StandardCharsets.UTF_8));
            in.pipeInput("good".getBytes(StandardCharsets.UTF_8), "caf\u00e9".getBytes(StandardCharsets.UTF_8));
            in.pipeInput(new TestRecord<>("bad".getBytes(StandardCharsets.UTF_8), bad, headers, 1234L));
            in.pipeInput("next".getBytes(StandardCharsets.UTF_8), "ok".getBytes(StandardCharsets.UTF_8));

            assertThat(driver.createOutputTopic(
                                    "out",
                                    Serdes.String().deserializer(),
                                    Serdes.String().deserializer())
                            .readValuesToList())
                    .containsExactly("CAFÉ", "OK");
            List<TestRecord<byte[], byte[]>> dead = driver.createOutputTopic(
                            "dlq",
                            Serdes.ByteArray().deserializer(),
                            Serdes.ByteArray().deserializer())
                    .readRecordsToList();
            assertThat(dead).hasSize(1);
            TestRecord<byte[], byte[]> record = dead.get(0);
            assertThat(record.key()).isEqualTo("bad".getBytes(StandardCharsets.UTF_8));
            assertThat(record.value()).isEqualTo(bad);
            assertThat(record.timestamp()).isEqualTo(1234L);
            Utf8Error first = Utf8Validator.firstError(bad).orElseThrow();
            Headers annotated = record.headers();
            assertThat(header(annotated, "trace")).isEqualTo("t1");
            assertThat(header(annotated, HeaderNames.RULE))
                    .isEqualTo(first.rule().name());
            assertThat(header(annotated, HeaderNames.OFFSET)).isEqualTo(Long.toString(first.offset()));
            assertThat(header(annotated, HeaderNames.PART)).isEqualTo("value");
            assertThat(header(annotated, HeaderNames.POLICY)).isEqualTo("strict");
            assertThat(header(annotated, HeaderNames.CONTEXT)).isEqualTo("63 61 66 1B 5B [C0 AF]");
            assertThat(header(annotated, HeaderNames.SOURCE_OFFSET)).isEqualTo("1");
            assertThat(header(annotated, HeaderNames.STREAMS_EXCEPTION))
                    .isEqualTo(IllFormedTextException.class.getName());
            assertThat(header(annotated, HeaderNames.STREAMS_EXCEPTION)).isEqualTo(DeadLetterAnnotation.EXCEPTION_NAME);
            assertThat(header(annotated, HeaderNames.STREAMS_TOPIC)).isEqualTo("in");
            assertThat(header(annotated, HeaderNames.STREAMS_PARTITION)).isEqualTo("0");
            assertThat(header(annotated, HeaderNames.STREAMS_OFFSET)).isEqualTo("1");
        }
    }

    /**
     * A refused record too large for the dead-letter topic leaves a placeholder that keeps the
     * producer's trace-context headers byte-exact, and none of the others.
     */
    @Test
    void aPlaceholderKeepsTheTraceContextHeaders() {
        Map<String, Object> config = config();
        config.put("producer.max.request.size", "3000");
        try (TopologyTestDriver driver = driver(config)) {
            TestInputTopic<byte[], byte[]> in = driver.createInputTopic(
                    "in", Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
            byte[] bad = new byte[5_000];
            java.util.Arrays.fill(bad, (byte) 'x');
            bad[10] = (byte) 0xFF;
            byte[] traceparent =
                    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes(StandardCharsets.US_ASCII);
            byte[] tracestate = {'a', '=', (byte) 0xC3, (byte) 0xA9};
            Headers headers = new RecordHeaders()
                    .add("tracestate", tracestate)
                    .add("other", new byte[] {1, 2, 3})
                    .add("traceparent", traceparent);
            in.pipeInput(new TestRecord<>("bad".getBytes(StandardCharsets.UTF_8), bad, headers, 1234L));

            List<TestRecord<byte[], byte[]>> dead = driver.createOutputTopic(
                            "dlq",
                            Serdes.ByteArray().deserializer(),
                            Serdes.ByteArray().deserializer())
                    .readRecordsToList();
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).value()).isNull();
            var annotation = DeadLetterHeaders.read(dead.get(0).headers()).orElseThrow();
            assertThat(annotation.placeholder()).isTrue();
            assertThat(annotation.cause()).contains("INVALID_BYTE");
            List<Header> own = DeadLetterHeaders.original(dead.get(0).headers());
            assertThat(own).extracting(Header::key).containsExactly("tracestate", "traceparent");
            assertThat(own).extracting(Header::value).containsExactly(tracestate, traceparent);
        }
    }

    @Test
    void anotherFailureStopsTheApplicationAndNothingIsDeadLettered() {
        Map<String, Object> config = config();
        StreamsBuilder builder = new StreamsBuilder();
        Serde<Integer> integers = Serdes.Integer(); // four bytes or a SerializationException
        builder.stream("in", Consumed.with(Serdes.ByteArray(), integers))
                .to("out", Produced.with(Serdes.ByteArray(), integers));
        Properties properties = new Properties();
        properties.putAll(config);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties)) {
            TestInputTopic<byte[], byte[]> in = driver.createInputTopic(
                    "in", Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
            assertThatThrownBy(() -> in.pipeInput(new byte[] {1}, new byte[] {1, 2, 3}))
                    .isInstanceOf(StreamsException.class);
            assertThat(driver.createOutputTopic(
                                    "dlq",
                                    Serdes.ByteArray().deserializer(),
                                    Serdes.ByteArray().deserializer())
                            .isEmpty())
                    .isTrue();
        }
    }

    @Test
    void withoutADeadLetterTopicItRefusesToStart() {
        IllFormedTextExceptionHandler handler = new IllFormedTextExceptionHandler();
        assertThatThrownBy(() -> handler.configure(Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
    }

    private static TopologyTestDriver driver(Map<String, Object> config) {
        SanitisingSerde<String> values = new SanitisingSerde<>(Serdes.String());
        values.configure(config, false);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.ByteArray(), values))
                .mapValues(value -> value.toUpperCase(Locale.ROOT))
                .to("out", Produced.with(Serdes.ByteArray(), Serdes.String()));
        Properties properties = new Properties();
        properties.putAll(config);
        return new TopologyTestDriver(builder.build(), properties);
    }

    private static Map<String, Object> config() {
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "handler-test");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        config.put(
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                IllFormedTextExceptionHandler.class.getName());
        config.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "dlq");
        return config;
    }

    private static String header(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
