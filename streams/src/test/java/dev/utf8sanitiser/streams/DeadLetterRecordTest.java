package dev.utf8sanitiser.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * The trimming order of a dead-letter record too large for its topic: detail first, then payload and
 * every header but the trace context, then the trace context; never the annotation.
 */
class DeadLetterRecordTest {
    private static final DeadLetterAnnotation ANNOTATION = new DeadLetterAnnotation(8);
    private static final DeadLetterAnnotation.Source SOURCE = new DeadLetterAnnotation.Source("in", 0, 42);

    private static byte[] filled(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        return b;
    }

    private static DeadLetterRecord fitting(byte[] value, List<Header> headers, int limit) {
        var verdict =
                new Decision.DeadLetter<>(new Finding(Part.VALUE, DeadLetterRule.INVALID_BYTE, 0, 1, 1, value), 1);
        return DeadLetterRecord.fitting(
                null, value, headers, verdict, ANNOTATION, Policy.STRICT, SOURCE, 7L, "in.dlq", limit);
    }

    private static final List<Header> HEADERS = List.of(
            PlainHeader.of("X-B3-TraceId", "80f198ee56343ba864fe8b2a57d3eff7"),
            new PlainHeader("big", filled(3_000)),
            PlainHeader.of("TraceParent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            PlainHeader.of("b3", "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1"),
            PlainHeader.of("traceparentx", "not a trace header"));

    @Test
    void aRecordThatFitsKeepsEveryHeader() {
        DeadLetterRecord record = fitting(filled(10), HEADERS, 100_000);
        assertThat(DeadLetterHeaders.original(record.headers())).containsExactlyElementsOf(HEADERS);
        assertThat(record.rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
    }

    @Test
    void thePayloadAndOtherHeadersGoBeforeTheTraceContext() {
        DeadLetterRecord record = fitting(filled(10), HEADERS, 2_500);
        assertThat(record.value()).isNull();
        assertThat(record.rule()).isEqualTo(DeadLetterRule.RECORD_TOO_LARGE);
        assertThat(DeadLetterHeaders.original(record.headers()))
                .containsExactly(HEADERS.get(0), HEADERS.get(2), HEADERS.get(3));
        DeadLetterHeaders read = DeadLetterHeaders.read(record.headers()).orElseThrow();
        assertThat(read.placeholder()).isTrue();
        assertThat(read.cause()).contains("INVALID_BYTE");
        assertThat(RecordSize.upperBound(null, null, record.headers())).isLessThanOrEqualTo(2_500);
    }

    @Test
    void theTraceContextGoesBeforeTheAnnotation() {
        List<Header> hugeTrace = List.of(new PlainHeader("tracestate", filled(3_000)));
        DeadLetterRecord record = fitting(filled(10), hugeTrace, 2_500);
        assertThat(DeadLetterHeaders.original(record.headers())).isEmpty();
        assertThat(DeadLetterHeaders.read(record.headers()).orElseThrow().placeholder())
                .isTrue();
    }

    @Test
    void aTopicTooSmallForABarePlaceholderStillStops() {
        assertThatThrownBy(() -> fitting(filled(10), HEADERS, 300))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("in.dlq takes at most 300 bytes");
    }
}
