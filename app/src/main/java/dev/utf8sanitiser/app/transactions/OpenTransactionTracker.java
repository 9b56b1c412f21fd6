package dev.utf8sanitiser.app.transactions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Remembers when each open transaction was first seen, and calls it hanging once it has been seen
 * open, with the same start offset, for longer than the threshold. Age is measured on this
 * process's monotonic clock, never from record timestamps: Kafka Streams writes its output with the
 * input records' timestamps, so a transaction that began a millisecond ago can carry a timestamp
 * of hours ago (a backlog read at start-up, a replay).
 *
 * <p>Not thread-safe: one monitor thread uses it.
 */
final class OpenTransactionTracker {
    private final Duration threshold;
    private final Map<String, Long> firstSeen = new HashMap<>(); // key -> nanoTime

    OpenTransactionTracker(Duration threshold) {
        this.threshold = threshold;
    }

    /** Records what is open now and returns those open for longer than the threshold. */
    List<HangingTransaction> observe(List<OpenTransaction> open, long nowNanos) {
        Map<String, Long> still = new HashMap<>();
        List<HangingTransaction> hanging = new ArrayList<>();
        for (OpenTransaction transaction : open) {
            long since = firstSeen.getOrDefault(transaction.key(), nowNanos);
            still.put(transaction.key(), since);
            Duration age = Duration.ofNanos(nowNanos - since);
            if (age.compareTo(threshold) > 0) {
                hanging.add(new HangingTransaction(
                        transaction.partition(),
                        transaction.producerId(),
                        transaction.producerEpoch(),
                        transaction.coordinatorEpoch(),
                        transaction.startOffset(),
                        age,
                        transaction.lastStableOffset(),
                        transaction.highWatermark()));
            }
        }
        firstSeen.clear();
        firstSeen.putAll(still);
        return hanging;
    }
}
