package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import dev.utf8sanitiser.streams.SizeLimits;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A producer's trace-context headers stay on its dead letters, byte-exact, whichever part is ill-formed
 * and whichever policy is in force; and on the placeholder of a dead letter too large for its topic,
 * which drops the payload and the other headers first (docs/dlq.md).
 */
class TraceHeadersTopologyTest {
    private static final Instant TIME = Instant.ofEpochMilli(1_700_000_000_000L);
    // Not only ASCII text: a header value is bytes, and a trace header is kept as they are.
    private static final byte[] TRACEPARENT =
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRACESTATE = {'v', 'e', 'n', '=', (byte) 0xC3, (byte) 0xA9, 0x00, (byte) 0xFF};
    private static final byte[] B3 =
            "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UBER = "4bf92f3577b34da6:00f067aa0ba902b7:0:1".getBytes(StandardCharsets.US_ASCII);

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start(String policy, String part, int deadLetterLimit) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", "orders");
        props.put("sanitiser.policy", policy);
        // Under replace and repair, a dead letter needs a rule that rejects.
        props.put("sanitiser.content.rules", "NUL:reject");
        if (part.equals("key")) {
            props.put("sanitiser.check.key", "true");
        }
        if (part.equals("header")) {
            props.put("sanitiser.check.headers", "note");
        }
        SanitiserConfig config = new SanitiserConfig(props);
        SizeLimits limits = new SizeLimits(
                SizeLimits.maxRequestSize(config.streamsProperties()), Map.of("orders.dlq", deadLetterLimit));
        Properties streams = new Properties();
        streams.put("application.id", "trace-test");
        streams.put("bootstrap.servers", "unused:9092");
        driver = new TopologyTestDriver(SanitiserTopology.build(config, ValueFormat.TEXT, limits), streams);
    }

    static Stream<Arguments> pathsAndPolicies() {
        List<Arguments> all = new ArrayList<>();
        for (String policy : List.of("strict", "replace", "repair")) {
            for (String part : List.of("value", "key", "header")) {
                all.add(Arguments.of(policy, part));
            }
        }
        return all.stream();
    }

    /** Ill-formed bytes under strict; a NUL, which the content rule rejects, under the others. */
    private static byte[] bad(String policy) {
        return policy.equals("strict") ? new byte[] {'a', (byte) 0xC0, (byte) 0xAF} : new byte[] {'a', 0, 'b'};
    }

    private static Headers headers(byte[] note, int otherBytes) {
        byte[] other = new byte[otherBytes];
        Arrays.fill(other, (byte) 'o');
        return new RecordHeaders()
                .add("origin", other)
                .add("traceparent", TRACEPARENT)
                .add("note", note)
                .add("tracestate", TRACESTATE)
                .add("b3", B3)
                .add("uber-trace-id", UBER);
    }

    private TestRecord<byte[], byte[]> deadLetter(String policy, String part, int payloadBytes) {
        byte[] filler = new byte[payloadBytes];
        Arrays.fill(filler, (byte) 'x');
        byte[] key = part.equals("key") ? bad(policy) : "k".getBytes(StandardCharsets.UTF_8);
        byte[] value = part.equals("value") ? concat(filler, bad(policy)) : filler;
        byte[] note = part.equals("header") ? bad(policy) : "fine".getBytes(StandardCharsets.UTF_8);
        driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>(key, value, headers(note, 200), TIME));
        assertThat(driver.createOutputTopic("orders.clean", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                        .isEmpty())
                .isTrue();
        var dlq = driver.createOutputTopic("orders.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());
        TestRecord<byte[], byte[]> dead = dlq.readRecord();
        assertThat(dlq.isEmpty()).isTrue();
        return dead;
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("pathsAndPolicies")
    void aDeadLetterKeepsEveryOriginalHeaderTraceContextIncluded(String policy, String part) {
        start(policy, part, 1_048_588);

        TestRecord<byte[], byte[]> dead = deadLetter(policy, part, 100);

        assertThat(DeadLetterHeaders.read(dead.headers()))
                .get()
                .extracting(DeadLetterHeaders::part)
                .isEqualTo(part.equals("header") ? "header:note" : part);
        List<Header> own = DeadLetterHeaders.original(dead.headers());
        byte[] note = part.equals("header") ? bad(policy) : "fine".getBytes(StandardCharsets.UTF_8);
        assertThat(own)
                .containsExactlyElementsOf(Arrays.asList(headers(note, 200).toArray()));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("pathsAndPolicies")
    void aPlaceholderKeepsTheTraceContextAndDropsTheRest(String policy, String part) {
        start(policy, part, 2_000);

        TestRecord<byte[], byte[]> dead = deadLetter(policy, part, 5_000);

        assertThat(dead.key()).isNull();
        assertThat(dead.value()).isNull();
        DeadLetterHeaders annotation = DeadLetterHeaders.read(dead.headers()).orElseThrow();
        assertThat(annotation.placeholder()).isTrue();
        assertThat(annotation.rule()).isEqualTo("RECORD_TOO_LARGE");
        assertThat(annotation.part()).isEqualTo(part.equals("header") ? "header:note" : part);
        assertThat(header(dead.headers(), "__utf8.omitted")).isEqualTo("key,value,other-headers");
        List<Header> own = DeadLetterHeaders.original(dead.headers());
        assertThat(own).extracting(Header::key).containsExactly("traceparent", "tracestate", "b3", "uber-trace-id");
        assertThat(own).extracting(Header::value).containsExactly(TRACEPARENT, TRACESTATE, B3, UBER);
    }

    /** Trace headers that do not fit even a placeholder go last, before the annotation would. */
    @Test
    void tooLargeATraceContextLeavesAPlaceholderWithoutIt() {
        start("strict", "value", 2_000);
        byte[] value = {'a', (byte) 0xFF};
        byte[] hugeState = new byte[3_000];
        Arrays.fill(hugeState, (byte) 't');
        Headers headers = new RecordHeaders().add("traceparent", TRACEPARENT).add("tracestate", hugeState);
        driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>(null, value, headers, TIME));

        TestRecord<byte[], byte[]> dead = driver.createOutputTopic(
                        "orders.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                .readRecord();
        DeadLetterHeaders annotation = DeadLetterHeaders.read(dead.headers()).orElseThrow();
        assertThat(annotation.placeholder()).isTrue();
        assertThat(annotation.cause()).contains("INVALID_BYTE");
        assertThat(header(dead.headers(), "__utf8.omitted")).isEqualTo("key,value,headers");
        assertThat(DeadLetterHeaders.original(dead.headers())).isEmpty();
    }

    private static String header(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
