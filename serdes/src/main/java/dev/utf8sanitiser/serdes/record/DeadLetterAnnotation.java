package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.header.Header;

/**
 * The headers docs/dlq.md adds to a dead-letter record, after the original headers, which stay as they
 * were. All values are UTF-8 strings; numbers are decimal.
 */
public final class DeadLetterAnnotation {
    /**
     * The exception named in {@code __streams.errors.exception}: the one the sanitising serdes
     * throw for the same verdict ({@code IllFormedTextException}), so that a dead letter written by
     * Kafka Streams' own handler from that exception and one written by the sanitiser name the same
     * class, as Kafka names the class of what was thrown. Spelt out here, below the serdes that
     * define it; a test holds the two together.
     */
    public static final String EXCEPTION_NAME = "dev.utf8sanitiser.serdes.IllFormedTextException";

    /**
     * The most bytes the bracket of {@code __utf8.context} (and of the message) shows: enough for a
     * CESU-8 pair (6 bytes) or a few encoded surrogates, while a run of a million ill-formed bytes
     * still makes a short header.
     */
    public static final int MAX_HIGHLIGHTED = 16;

    /**
     * The most bytes of {@code __utf8.field} (and of the field in the message): a path longer than
     * this is cut at a character and ends in {@code ...}. Paths are short; a hostile document's are
     * not, and the header must stay small.
     */
    public static final int MAX_FIELD_BYTES = 512;

    /** The value of {@code __utf8.omitted} on a placeholder: nothing of the record is in it. */
    public static final String OMITTED_ALL = "key,value,headers";

    /**
     * The value of {@code __utf8.omitted} on a placeholder that keeps the record's trace-context
     * headers ({@link TraceHeaders}), before the annotation: all else of the record is left out.
     */
    public static final String OMITTED_ALL_BUT_TRACE = "key,value,other-headers";

    /** How much a dead-letter record says. */
    public enum Detail {
        /** Every header of docs/dlq.md. */
        FULL,
        /**
         * No {@code __utf8.field} and no {@code __utf8.context}, and a message without them: for a
         * record that fits the dead-letter topic only with less said about it.
         */
        BRIEF
    }

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
    public List<Header> annotate(
            Iterable<Header> original, Decision.DeadLetter<?> verdict, Policy policy, Source source, long timestamp) {
        return annotate(original, verdict, Detail.FULL, policy, source, timestamp);
    }

    /** The original headers plus the annotation, with as much detail as asked. */
    public List<Header> annotate(
            Iterable<Header> original,
            Decision.DeadLetter<?> verdict,
            Detail detail,
            Policy policy,
            Source source,
            long timestamp) {
        List<Header> headers = new ArrayList<>();
        original.forEach(headers::add);
        Finding first = verdict.first();
        boolean place = describesPlace(verdict);
        // first: DeadLetterHeaders.original finds the start here
        put(headers, HeaderNames.RULE, verdict.rule().spelling());
        put(headers, HeaderNames.OFFSET, Long.toString(first.offset()));
        put(headers, HeaderNames.LENGTH, Integer.toString(first.length()));
        put(headers, HeaderNames.ERRORS, Integer.toString(verdict.errors()));
        put(headers, HeaderNames.PART, first.part().name());
        if (detail == Detail.FULL && place && first.field().isPresent()) {
            put(headers, HeaderNames.FIELD, capped(first.field().get()));
        }
        if (detail == Detail.FULL && place) {
            put(headers, HeaderNames.CONTEXT, context(first));
        }
        put(headers, HeaderNames.POLICY, policy.name().toLowerCase(Locale.ROOT));
        verdict.oversize().ifPresent(oversize -> {
            put(headers, HeaderNames.SIZE, Long.toString(oversize.size()));
            put(headers, HeaderNames.LIMIT, Integer.toString(oversize.limit()));
        });
        source(headers, source, timestamp, message(verdict, detail));
        return headers;
    }

    /**
     * The headers of the record written instead of a dead-letter record that would itself be too
     * large for the dead-letter topic: {@code RECORD_TOO_LARGE}, with the rule the record would have
     * carried ({@code __utf8.cause}), where it came from, and its size. The record has no key, no
     * value and none of the original headers ({@code __utf8.omitted}); the source coordinates find
     * the original while the input topic keeps it.
     *
     * @param size the size of the dead-letter record that did not fit
     * @param limit the most bytes the dead-letter topic takes
     */
    public List<Header> placeholder(
            Decision.DeadLetter<?> verdict, long size, int limit, Policy policy, Source source, long timestamp) {
        return placeholder(List.of(), verdict, size, limit, policy, source, timestamp);
    }

    /**
     * The same, keeping {@code trace}, the record's trace-context headers ({@link TraceHeaders#of}),
     * byte-exact before the annotation, as a dead-letter record keeps its own headers; {@code
     * __utf8.omitted} then says that only the other headers are left out.
     */
    public List<Header> placeholder(
            List<Header> trace,
            Decision.DeadLetter<?> verdict,
            long size,
            int limit,
            Policy policy,
            Source source,
            long timestamp) {
        Oversize oversize = new Oversize(DeadLetterRule.RECORD_TOO_LARGE, Oversize.DEAD_LETTER, size, limit);
        List<Header> headers = new ArrayList<>(trace);
        Finding first = verdict.first();
        put(headers, HeaderNames.RULE, oversize.rule().spelling());
        put(headers, HeaderNames.OFFSET, Long.toString(first.offset()));
        put(headers, HeaderNames.LENGTH, Integer.toString(first.length()));
        put(headers, HeaderNames.ERRORS, Integer.toString(verdict.errors()));
        put(headers, HeaderNames.PART, first.part().name());
        put(headers, HeaderNames.POLICY, policy.name().toLowerCase(Locale.ROOT));
        put(headers, HeaderNames.SIZE, Long.toString(size));
        put(headers, HeaderNames.LIMIT, Integer.toString(limit));
        put(headers, HeaderNames.CAUSE, verdict.rule().spelling());
        put(headers, HeaderNames.OMITTED, trace.isEmpty() ? OMITTED_ALL : OMITTED_ALL_BUT_TRACE);
        source(
                headers,
                source,
                timestamp,
                oversize.describe() + "; dead-lettered for " + message(verdict, Detail.BRIEF));
        return headers;
    }

    private static void source(List<Header> headers, Source source, long timestamp, String message) {
        put(headers, HeaderNames.SOURCE_TOPIC, source.topic());
        put(headers, HeaderNames.SOURCE_PARTITION, Integer.toString(source.partition()));
        put(headers, HeaderNames.SOURCE_OFFSET, Long.toString(source.offset()));
        put(headers, HeaderNames.SOURCE_TIMESTAMP, Long.toString(timestamp));
        put(headers, HeaderNames.STREAMS_EXCEPTION, EXCEPTION_NAME);
        put(headers, HeaderNames.STREAMS_MESSAGE, message);
        put(headers, HeaderNames.STREAMS_TOPIC, source.topic());
        put(headers, HeaderNames.STREAMS_PARTITION, Integer.toString(source.partition()));
        put(headers, HeaderNames.STREAMS_OFFSET, Long.toString(source.offset()));
    }

    /**
     * Whether the verdict's finding is a place in the record: always, except for a record too large
     * to send on that has no ill-formed place at all.
     */
    private static boolean describesPlace(Decision.DeadLetter<?> verdict) {
        return verdict.oversize().isEmpty() || verdict.first().rule() != verdict.rule();
    }

    /**
     * The one-line {@code __streams.errors.message}: {@link #message(Finding)}, after the size and
     * the limit for a record dead-lettered for its size; without field and bytes when brief.
     */
    static String message(Decision.DeadLetter<?> verdict, Detail detail) {
        Finding first = verdict.first();
        String place = detail == Detail.FULL
                ? message(first)
                : first.rule().spelling() + " at " + first.part() + " byte " + first.offset();
        if (verdict.oversize().isEmpty()) {
            return place;
        }
        String size = verdict.oversize().get().describe();
        return describesPlace(verdict) ? size + "; first error " + place : size;
    }

    /** {@code field}, cut to at most {@link #MAX_FIELD_BYTES} of UTF-8 at a character boundary. */
    static String capped(String field) {
        if (field.length() * 3 <= MAX_FIELD_BYTES || field.getBytes(StandardCharsets.UTF_8).length <= MAX_FIELD_BYTES) {
            return field;
        }
        int bytes = 0;
        int end = 0;
        while (end < field.length()) {
            int cp = field.codePointAt(end);
            int length = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + length > MAX_FIELD_BYTES - 3) {
                break;
            }
            bytes += length;
            end += Character.charCount(cp);
        }
        return field.substring(0, end) + "...";
    }

    /** Where a record came from. */
    public record Source(String topic, int partition, long offset) {}

    /**
     * {@code SURROGATE at value byte 17 (ED A0 80)}, or with a field {@code SURROGATE at value field
     * customer.name byte 22 (ED A0 80)}: one line. A finding that highlights nothing (the binary ended
     * early) has no bytes in brackets; a finding's detail follows a semicolon ({@code ...; keys would
     * collide at tags{} once fixed}).
     */
    public static String message(Finding first) {
        int from = (int) first.offset();
        String where = first.field().map(f -> " field " + capped(f)).orElse("");
        String bytes = first.highlighted() == 0 ? "" : " (" + hex(first.bytes(), from, highlightEnd(first)) + ")";
        String detail = first.detail().map(d -> "; " + d).orElse("");
        return first.rule().spelling() + " at " + first.part() + where + " byte " + first.offset() + bytes + detail;
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
    public static int illFormedRunEnd(byte[] bytes, int from, int end) {
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

    private static void put(List<Header> headers, String name, String value) {
        headers.add(PlainHeader.of(name, value));
    }
}
