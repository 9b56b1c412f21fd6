package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.Foreign;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the console knows of one dead-letter topic at one moment: a copy, safe to draw from while
 * the index reads on.
 *
 * @param exists false while the topic has not been created (no record was dead-lettered yet)
 * @param perMinute records a minute over the last day, by minute since the epoch (UTC), by the
 *     dead-letter record's timestamp
 * @param newest the newest records, newest first
 * @param behind records (and transaction markers) not read yet of those there were at the last
 *     look at each partition's end
 */
public record TopicView(
        String topic,
        boolean exists,
        long records,
        Map<String, Long> byRule,
        Map<String, Long> bySource,
        Map<String, Long> byField,
        Optional<Instant> firstSeen,
        Optional<Instant> lastSeen,
        Map<Long, Long> perMinute,
        List<Summary> newest,
        long behind) {

    /** One record in a list: where it is, when, and why it is there. */
    public record Summary(
            String topic, int partition, long offset, long timestamp, String rule, String source, String field) {
        static Summary of(DeadLetter record) {
            Optional<DeadLetterHeaders> a = record.annotation();
            // Another tool's dead letter: its producer and error in the rule column, its source.
            Optional<Foreign> foreign = record.foreign();
            return new Summary(
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    record.timestamp(),
                    a.map(DeadLetterHeaders::rule)
                            .or(() -> foreign.map(f -> f.producer().label + ": "
                                    + (f instanceof Foreign.Annotated fa ? fa.error() : "(refused)")))
                            .orElse("(not annotated)"),
                    a.map(h -> h.source().topic() + "-" + h.source().partition() + "@"
                                    + h.source().offset())
                            .or(() -> record.foreignAnnotation()
                                    .map(f -> f.source().toString()))
                            .orElse(""),
                    a.flatMap(DeadLetterHeaders::field).orElse(""));
        }
    }

    /**
     * The counts of the last {@code buckets} periods of {@code width} each, oldest first, the last
     * ending with the minute of {@code now}.
     */
    public long[] rate(Instant now, Duration width, int buckets) {
        long minutesPerBucket = Math.max(1, width.toMinutes());
        long lastMinute = now.toEpochMilli() / 60_000;
        long firstMinute = lastMinute - minutesPerBucket * buckets + 1;
        long[] counts = new long[buckets];
        perMinute.forEach((minute, count) -> {
            if (minute >= firstMinute && minute <= lastMinute) {
                counts[(int) ((minute - firstMinute) / minutesPerBucket)] += count;
            }
        });
        return counts;
    }
}
