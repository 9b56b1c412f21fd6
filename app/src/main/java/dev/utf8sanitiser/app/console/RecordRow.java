package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.header.Header;

/**
 * What a list keeps of one record: where and when it is, why it is there, its trace context, and
 * only with {@code sanitiser.console.show.payload} the start of its key. Small, so that a page of
 * {@link Pager#MAX_SIZE} rows holds little however large the records.
 */
record RecordRow(
        int partition,
        long offset,
        long timestamp,
        String rule,
        String source,
        String field,
        Optional<String> key,
        Optional<String> traceparent) {
    /** How many characters of a key a list shows. */
    static final int KEY_CHARS = 64;

    static RecordRow of(DeadLetter record, boolean showPayload) {
        // The same rule and source as the overview's lists: another tool's producer and error too.
        TopicView.Summary summary = TopicView.Summary.of(record);
        Optional<String> key = showPayload && record.key() != null
                ? Optional.of(cut(new String(record.key(), StandardCharsets.UTF_8)))
                : Optional.empty();
        return new RecordRow(
                record.partition(),
                record.offset(),
                record.timestamp(),
                summary.rule(),
                summary.source(),
                summary.field(),
                key,
                trace(record, "traceparent").map(RecordRow::cut));
    }

    /** The last value of a trace header ({@code traceparent}, {@code tracestate}) among the record's own. */
    static Optional<String> trace(DeadLetter record, String name) {
        Optional<String> found = Optional.empty();
        for (Header h : DeadLetterHeaders.original(record.headers())) {
            if (h.key().equals(name) && h.value() != null) {
                found = Optional.of(new String(h.value(), StandardCharsets.UTF_8));
            }
        }
        return found;
    }

    /** {@code P@OFFSET}: a record's place within its topic, as the ticked boxes name it. */
    String place() {
        return partition + "@" + offset;
    }

    private static String cut(String s) {
        return s.length() <= KEY_CHARS ? s : s.substring(0, KEY_CHARS) + "…";
    }
}
