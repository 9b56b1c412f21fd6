package dev.utf8sanitiser.app.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/** A replayed record carries the trace-context headers its producer set, byte-exact, under any policy. */
class ReplayTraceHeadersTest {
    private static final byte[] VALUE = {'c', 'a', 'f', (byte) 0xE9};
    private static final Header TRACEPARENT =
            PlainHeader.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    private static final Header TRACESTATE = new PlainHeader("tracestate", new byte[] {'v', '=', (byte) 0xFF});
    private static final Header UBER = PlainHeader.of("uber-trace-id", "4bf92f3577b34da6:00f067aa0ba902b7:0:1");

    /** A dead letter as the sanitiser writes it, with the producer's trace headers among its own. */
    private static DeadLetter deadLetter() {
        List<Header> own = List.of(TRACEPARENT, PlainHeader.of("app", "x"), TRACESTATE, UBER);
        var verdict =
                new Decision.DeadLetter<>(new Finding(Part.VALUE, DeadLetterRule.INVALID_BYTE, 3, 1, 1, VALUE), 1);
        List<Header> annotated = new DeadLetterAnnotation(8)
                .annotate(own, verdict, Policy.STRICT, new DeadLetterAnnotation.Source("orders", 0, 5), 1000L);
        return DeadLetterRecords.at(9, VALUE, annotated);
    }

    private static List<Header> trace(Replay.Send send) {
        return StreamSupport.stream(send.out().headers().spliterator(), false)
                .filter(h ->
                        List.of("traceparent", "tracestate", "uber-trace-id").contains(h.key()))
                .toList();
    }

    @Test
    void replayedAsItIsTheTraceHeadersAreKept() {
        Replay.Send send = (Replay.Send) new Replay("orders", Optional.empty(), Map.of()).of(deadLetter());
        assertThat(send.out().value()).isEqualTo(VALUE);
        assertThat(trace(send)).containsExactly(TRACEPARENT, TRACESTATE, UBER);
        assertThat(send.out().headers().lastHeader("__utf8.rule")).isNull();
    }

    @Test
    void replayedUnderAPolicyThatFixesTheValueTheTraceHeadersAreKept() {
        RecordSanitiser replace = new RecordSanitiser(Policy.REPLACE, false, List.of());
        Replay.Send send = (Replay.Send) new Replay("orders", Optional.of(replace), Map.of()).of(deadLetter());
        assertThat(send.out().value()).isEqualTo("caf\uFFFD".getBytes(StandardCharsets.UTF_8));
        assertThat(trace(send))
                .extracting(Header::value)
                .containsExactly(TRACEPARENT.value(), TRACESTATE.value(), UBER.value());
    }
}
