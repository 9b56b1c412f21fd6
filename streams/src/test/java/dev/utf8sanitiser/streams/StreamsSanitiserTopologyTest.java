package dev.utf8sanitiser.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Replacement;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * Library mode's two ways in, the DSL and the Processor API, decide as the core does: the
 * validator's first error names each dead letter, which keeps its bytes and headers; the
 * replacement is the core's. (On a real broker: the examples module's IT.)
 */
class StreamsSanitiserTopologyTest {
    private static final HexFormat HEX = HexFormat.ofDelimiter("");
    private static final List<byte[]> VALUES = List.of(
            "plain".getBytes(StandardCharsets.UTF_8),
            "caf\u00e9 \u2603 \ud83d\ude00".getBytes(StandardCharsets.UTF_8),
            HEX.parseHex("636166c3a9"), // café
            HEX.parseHex("c0af"), // non-shortest '/'
            HEX.parseHex("61eda080"), // a surrogate
            HEX.parseHex("61e282"), // cut short
            HEX.parseHex("ff"));

    @Test
    void theDslRoutesEveryRecordOnceAsTheValidatorSays() {
        Map<String, Object> config = config("strict");
        try (StreamsSanitiser sanitiser = StreamsSanitiser.create(config)) {
            StreamsBuilder builder = new StreamsBuilder();
            KStream<byte[], byte[]> raw = builder.stream("in", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()));
            SanitisedStreams parts = sanitiser.sanitise(raw);
            parts.output().to("out", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
            parts.deadLetters().to("dlq", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
            assertStrictRouting(builder.build(), config);
        }
    }

    @Test
    void theProcessorApiRoutesToTheNamedChildren() {
        Map<String, Object> config = config("strict");
        try (StreamsSanitiser sanitiser = StreamsSanitiser.create(config)) {
            Topology topology = new Topology();
            topology.addSource("source", new ByteArrayDeserializer(), new ByteArrayDeserializer(), "in");
            topology.addProcessor("sanitise", sanitiser.processor("clean-sink", "dlq-sink"), "source");
            topology.addSink("clean-sink", "out", new ByteArraySerializer(), new ByteArraySerializer(), "sanitise");
            topology.addSink("dlq-sink", "dlq", new ByteArraySerializer(), new ByteArraySerializer(), "sanitise");
            assertStrictRouting(topology, config);
        }
    }

    @Test
    void replaceSendsTheCoresReplacementWithTheAction() {
        Map<String, Object> config = config("replace");
        try (StreamsSanitiser sanitiser = StreamsSanitiser.create(config);
                TopologyTestDriver driver = driver(dsl(sanitiser), config)) {
            TestInputTopic<byte[], byte[]> in = input(driver);
            TestOutputTopic<byte[], byte[]> out = output(driver, "out");
            for (byte[] value : VALUES) {
                in.pipeInput(new TestRecord<>("k".getBytes(StandardCharsets.UTF_8), value, new RecordHeaders()));
            }
            List<TestRecord<byte[], byte[]>> sent = out.readRecordsToList();
            assertThat(sent).hasSize(VALUES.size());
            assertThat(output(driver, "dlq").isEmpty()).isTrue();
            for (int i = 0; i < VALUES.size(); i++) {
                byte[] value = VALUES.get(i);
                assertThat(sent.get(i).value()).isEqualTo(Utf8Replacement.replace(value));
                boolean illFormed = !Utf8Validator.isWellFormed(value);
                assertThat(header(sent.get(i).headers(), HeaderNames.ACTION)).isEqualTo(illFormed ? "replaced" : null);
                assertThat(header(sent.get(i).headers(), HeaderNames.ERRORS))
                        .isEqualTo(
                                illFormed
                                        ? Integer.toString(
                                                Utf8Validator.errors(value).size())
                                        : null);
            }
        }
    }

    @Test
    void aDeadLetterLargerThanTheProducerTakesBecomesAPlaceholderThatNamesIt() {
        Map<String, Object> config = config("strict");
        config.put(StreamsConfig.producerPrefix("max.request.size"), 1_000);
        byte[] large = new byte[1_900];
        Arrays.fill(large, (byte) 'a');
        large[100] = (byte) 0xC0;
        try (StreamsSanitiser sanitiser = StreamsSanitiser.create(config);
                TopologyTestDriver driver = driver(dsl(sanitiser), config)) {
            TestInputTopic<byte[], byte[]> in = input(driver);
            in.pipeInput("k".getBytes(StandardCharsets.UTF_8), "ok".getBytes(StandardCharsets.UTF_8));
            in.pipeInput("k".getBytes(StandardCharsets.UTF_8), large);
            TestRecord<byte[], byte[]> dead = output(driver, "dlq").readRecord();
            assertThat(dead.key()).isNull();
            assertThat(dead.value()).isNull();
            assertThat(header(dead.headers(), HeaderNames.RULE)).isEqualTo("RECORD_TOO_LARGE");
            assertThat(header(dead.headers(), HeaderNames.CAUSE)).isEqualTo("NON_SHORTEST_FORM");
            assertThat(header(dead.headers(), HeaderNames.OFFSET)).isEqualTo("100");
            assertThat(header(dead.headers(), HeaderNames.SOURCE_OFFSET)).isEqualTo("1");
            assertThat(RecordSize.upperBound(dead.key(), dead.value(), dead.headers()))
                    .isLessThanOrEqualTo(1_000);
            assertThat(output(driver, "out").readValuesToList()).containsExactly("ok".getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void assertStrictRouting(Topology topology, Map<String, Object> config) {
        try (TopologyTestDriver driver = driver(topology, config)) {
            TestInputTopic<byte[], byte[]> in = input(driver);
            for (int i = 0; i < VALUES.size(); i++) {
                Headers headers = new RecordHeaders();
                headers.add("trace", ("t" + i).getBytes(StandardCharsets.UTF_8));
                in.pipeInput(new TestRecord<>(("k" + i).getBytes(StandardCharsets.UTF_8), VALUES.get(i), headers));
            }
            List<TestRecord<byte[], byte[]>> clean = output(driver, "out").readRecordsToList();
            List<TestRecord<byte[], byte[]>> dead = output(driver, "dlq").readRecordsToList();
            List<byte[]> wellFormed = new ArrayList<>();
            List<byte[]> illFormed = new ArrayList<>();
            VALUES.forEach(v -> (Utf8Validator.isWellFormed(v) ? wellFormed : illFormed).add(v));
            assertThat(clean).extracting(TestRecord::value).containsExactlyElementsOf(wellFormed);
            assertThat(dead).extracting(TestRecord::value).containsExactlyElementsOf(illFormed);
            for (TestRecord<byte[], byte[]> record : dead) {
                int index = indexOf(record.value()); // byte-exact and unchanged
                Utf8Error first = Utf8Validator.firstError(record.value()).orElseThrow();
                Headers headers = record.headers();
                assertThat(header(headers, "trace")).isEqualTo("t" + index);
                assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("k" + index);
                assertThat(header(headers, HeaderNames.RULE))
                        .isEqualTo(first.rule().name());
                assertThat(header(headers, HeaderNames.OFFSET)).isEqualTo(Long.toString(first.offset()));
                assertThat(header(headers, HeaderNames.LENGTH)).isEqualTo(Integer.toString(first.length()));
                assertThat(header(headers, HeaderNames.SOURCE_TOPIC)).isEqualTo("in");
                assertThat(header(headers, HeaderNames.SOURCE_OFFSET)).isEqualTo(Integer.toString(index));
                assertThat(header(headers, HeaderNames.STREAMS_TOPIC)).isEqualTo("in");
                assertThat(header(headers, HeaderNames.STREAMS_MESSAGE))
                        .startsWith(first.rule().name());
            }
            // The sensors count as the app's do: one dead letter per rule, recorded when the
            // punctuator runs (the driver's wall clock stood still for all the records).
            driver.advanceWallClockTime(SanitiserMetrics.FLUSH_INTERVAL);
            long deadLettered = driver.metrics().entrySet().stream()
                    .filter(e -> e.getKey().group().equals(SanitiserMetrics.GROUP)
                            && e.getKey().name().equals("dead-lettered-total"))
                    .mapToLong(e -> ((Number) e.getValue().metricValue()).longValue())
                    .sum();
            assertThat(deadLettered).isEqualTo(illFormed.size());
        }
    }

    private static int indexOf(byte[] value) {
        for (int i = 0; i < VALUES.size(); i++) {
            if (Arrays.equals(VALUES.get(i), value)) {
                return i;
            }
        }
        throw new AssertionError("not an input value: " + HEX.formatHex(value));
    }

    private static Topology dsl(StreamsSanitiser sanitiser) {
        StreamsBuilder builder = new StreamsBuilder();
        SanitisedStreams parts =
                sanitiser.sanitise(builder.stream("in", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())));
        parts.output().to("out", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        parts.deadLetters().to("dlq", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        return builder.build();
    }

    @Test
    void theProcessorRunsOnKafkasMockContextWithoutATimeSet() {
        Map<String, Object> config = config("strict");
        try (StreamsSanitiser sanitiser = StreamsSanitiser.create(config)) {
            Properties properties = new Properties();
            properties.putAll(config);
            MockProcessorContext<byte[], byte[]> context = new MockProcessorContext<>(properties);
            context.setRecordMetadata("in", 0, 7);
            Processor<byte[], byte[], byte[], byte[]> processor =
                    sanitiser.processor("out", "dlq").get();
            processor.init(context);

            processor.process(new Record<>(null, VALUES.get(1), 0L));
            processor.process(new Record<>(null, HEX.parseHex("c0af"), 0L));

            assertThat(context.forwarded())
                    .extracting(forward -> forward.childName().orElseThrow())
                    .containsExactly("out", "dlq");
            // The metrics get the records when the processor's punctuator runs, which the mock
            // context leaves to the test.
            assertThat(context.scheduledPunctuators()).hasSize(1);
            MockProcessorContext.CapturedPunctuator punctuator =
                    context.scheduledPunctuators().get(0);
            assertThat(punctuator.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
            assertThat(punctuator.getInterval()).isEqualTo(SanitiserMetrics.FLUSH_INTERVAL);
            punctuator.getPunctuator().punctuate(0L);
            assertThat(metricTotal(context, "passed-total")).isEqualTo(1.0);
            assertThat(metricTotal(context, "dead-lettered-total")).isEqualTo(1.0);
            processor.close();
            // As Kafka's own processor nodes do when a task closes: its metrics go with it.
            assertThat(context.metrics().metrics().keySet())
                    .noneMatch(name -> name.group().equals(SanitiserMetrics.GROUP));
        }
    }

    private static double metricTotal(MockProcessorContext<?, ?> context, String name) {
        return context.metrics().metrics().values().stream()
                .filter(metric -> metric.metricName().name().equals(name))
                .mapToDouble(metric -> ((Number) metric.metricValue()).doubleValue())
                .sum();
    }

    private static Map<String, Object> config(String policy) {
        Map<String, Object> config = new HashMap<>();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "library-mode-test");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        config.put("sanitiser.policy", policy);
        return config;
    }

    private static TopologyTestDriver driver(Topology topology, Map<String, Object> config) {
        Properties properties = new Properties();
        properties.putAll(config);
        return new TopologyTestDriver(topology, properties);
    }

    private static TestInputTopic<byte[], byte[]> input(TopologyTestDriver driver) {
        return driver.createInputTopic(
                "in", Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
    }

    private static TestOutputTopic<byte[], byte[]> output(TopologyTestDriver driver, String topic) {
        return driver.createOutputTopic(
                topic, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer());
    }

    private static String header(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
