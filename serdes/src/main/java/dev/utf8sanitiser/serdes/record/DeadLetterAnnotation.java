package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The headers docs/dlq.md adds to a dead-letter record, after the original headers, which stay as they
 * were. All values are UTF-8 strings; numbers are decimal.
 */
public final class DeadLetterAnnotation {
    /** The exception named in {@code __streams.errors.exception}: there is none, only a verdict. */
    public static final String EXCEPTION_NAME = "dev.utf8sanitiser.IllFormedUtf8";

    /**
     * The most bytes the bracket of {@code __utf8.context} (and of the message) shows: enough for a
     * CESU-8 pair (6 bytes) or a few encoded surrogates, while a run of a million ill-formed bytes
     * still makes a short header.
     */
    public static final int MAX_HIGHLIGHTED = 16;

    private final int contextBytes;

    public DeadLetterAnnotation(int contextBytes) {
        this.contextBytes = contextBytes;
    }

    /**
     * The original headers plus the annotation.
     *
     * @param source where the record was read: topic, partition, offset (null when unknown, e.g.
     *     a record made by a punctuator)
     */
    public Headers annotate(
            Headers original, Decision.DeadLetter verdict, Policy policy, Source source, long timestamp) {
        Headers headers = new RecordHeaders(original.toArray());
        Finding first = verdict.first();
        put(headers, HeaderNames.RULE, first.rule());
        put(headers, HeaderNames.OFFSET, Long.toString(first.offset()));
        put(headers, HeaderNames.LENGTH, Integer.toString(first.length()));
        put(headers, HeaderNames.ERRORS, Integer.toString(verdict.errors()));
        put(headers, HeaderNames.PART, first.part().name());
        if (first.field().isPresent()) {
            put(headers, HeaderNames.FIELD, first.field().get());
        }
        put(headers, HeaderNames.CONTEXT, context(first));
        put(headers, HeaderNames.POLICY, policy.name().toLowerCase(Locale.ROOT));
        put(headers, HeaderNames.SOURCE_TOPIC, source.topic());
        put(headers, HeaderNames.SOURCE_PARTITION, Integer.toString(source.partition()));
        put(headers, HeaderNames.SOURCE_OFFSET, Long.toString(source.offset()));
        put(headers, HeaderNames.SOURCE_TIMESTAMP, Long.toString(timestamp));
        put(headers, HeaderNames.STREAMS_EXCEPTION, EXCEPTION_NAME);
        put(headers, HeaderNames.STREAMS_MESSAGE, message(first));
        put(headers, HeaderNames.STREAMS_TOPIC, source.topic());
        put(headers, HeaderNames.STREAMS_PARTITION, Integer.toString(source.partition()));
        put(headers, HeaderNames.STREAMS_OFFSET, Long.toString(source.offset()));
        return headers;
    }

    /** Where a record came from. */
    public record Source(String topic, int partition, long offset) {}

    /**
     * {@code SURROGATE at value byte 17 (ED A0 80)}, or with a field {@code SURROGATE at value field
     * customer.name byte 22 (ED A0 80)}: one line. A finding that highlights nothing (the binary ended
     * early) has no bytes in brackets.
     */
    public static String message(Finding first) {
        int from = (int) first.offset();
        String where = first.field().map(f -> " field " + f).orElse("");
        String bytes = first.highlighted() == 0 ? "" : " (" + hex(first.bytes(), from, highlightEnd(first)) + ")";
        return first.rule() + " at " + first.part() + where + " byte " + first.offset() + bytes;
    }

    /**
     * Hex of up to {@code contextBytes} bytes either side of the error, the ill-formed bytes in
     * brackets: {@code 61 62 [ED A0 80] 63}. The bracket holds the run of adjacent ill-formed
     * subparts that starts at the error: {@code ED A0 80} is three subparts (the lead, then two
     * stray continuations), and an operator wants to see the three bytes together. It holds at most
     * {@link #MAX_HIGHLIGHTED} bytes; what follows is context.
     */
    public String context(Finding finding) {
        byte[] bytes = finding.bytes();
        int from = (int) finding.offset();
        int to = highlightEnd(finding);
        StringBuilder s = new StringBuilder();
        int start = Math.max(0, from - contextBytes);
        int end = Math.min(bytes.length, to + contextBytes);
        appendHex(s, bytes, start, from);
        s.append(s.length() > 0 ? " [" : "[");
        appendHex(s, bytes, from, to);
        s.append(']');
        if (to < end) {
            s.append(' ');
            appendHex(s, bytes, to, end);
        }
        return s.toString();
    }

    /** Where the bracket ends: the finding's highlighted bytes, at most {@link #MAX_HIGHLIGHTED}. */
    private static int highlightEnd(Finding finding) {
        return (int) finding.offset() + Math.min(finding.highlighted(), MAX_HIGHLIGHTED);
    }

    /**
     * The end of the run of adjacent ill-formed subparts starting at {@code from}, not past {@code
     * end} (the end of the text: the part, or one string inside it), in whole subparts and at most
     * {@link #MAX_HIGHLIGHTED} bytes long (the first subpart always counts, 1 to 3 bytes).
     */
    static int illFormedRunEnd(byte[] bytes, int from, int end) {
        int at = from;
        while (at < end) {
            // A window of 4 bytes holds any maximal subpart (at most 3) and the byte that ends it.
            var error = Utf8Validator.firstError(bytes, at, Math.min(4, end - at));
            if (error.isEmpty() || error.get().offset() != 0) {
                break;
            }
            int next = at + error.get().length();
            if (next - from > MAX_HIGHLIGHTED && at > from) {
                break;
            }
            at = next;
        }
        return Math.max(at, from + 1);
    }

    private static String hex(byte[] bytes, int from, int to) {
        StringBuilder s = new StringBuilder();
        appendHex(s, bytes, from, to);
        return s.toString();
    }

    private static final char[] HEX_DIGITS = "0123456789ABCDEF".toCharArray();

    private static void appendHex(StringBuilder s, byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (i > from) {
                s.append(' ');
            }
            s.append(HEX_DIGITS[(bytes[i] >> 4) & 0xF]).append(HEX_DIGITS[bytes[i] & 0xF]);
        }
    }

    private static void put(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
