package dev.utf8sanitiser.serdes.record;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.kafka.common.header.Header;

/**
 * The trace-context headers a producer may set: W3C Trace Context ({@code traceparent}, {@code
 * tracestate}), Zipkin B3 (single {@code b3} and the {@code X-B3-*} set) and Jaeger ({@code
 * uber-trace-id}). A dead-letter record keeps every original header; when it is too large and a
 * placeholder replaces it, these are the ones the placeholder still keeps, byte-exact and in their
 * order, so that the dead letter stays in the trace that produced it (docs/dlq.md).
 */
public final class TraceHeaders {
    /** The names, lower case: matched without regard to ASCII case, as HTTP propagators do. */
    public static final Set<String> NAMES = Set.of(
            "traceparent",
            "tracestate",
            "b3",
            "x-b3-traceid",
            "x-b3-spanid",
            "x-b3-parentspanid",
            "x-b3-sampled",
            "x-b3-flags",
            "uber-trace-id");

    private TraceHeaders() {}

    /** Whether {@code name} is a trace-context header. */
    public static boolean isTrace(String name) {
        return name.length() <= 17 && NAMES.contains(name.toLowerCase(Locale.ROOT));
    }

    /** The trace-context headers among {@code headers}, as they are and in their order. */
    public static List<Header> of(Iterable<Header> headers) {
        List<Header> trace = new ArrayList<>();
        for (Header header : headers) {
            if (isTrace(header.key())) {
                trace.add(header);
            }
        }
        return trace;
    }
}
