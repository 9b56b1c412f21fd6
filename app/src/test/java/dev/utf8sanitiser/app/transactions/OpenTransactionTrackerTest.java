package dev.utf8sanitiser.app.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OpenTransactionTrackerTest {
    private static final long SECOND = 1_000_000_000L;
    private static final TopicPartition OUT = new TopicPartition("out", 0);

    /** Open since {@code start}, its last record stamped an hour ago (an old input record's time). */
    private static OpenTransaction open(long producerId, long start) {
        return new OpenTransaction(
                OUT, producerId, 0, 0, start, System.currentTimeMillis() - 3_600_000, start, start + 1);
    }

    @Test
    void oldRecordTimestampsDoNotMakeAFreshTransactionHang() {
        OpenTransactionTracker tracker = new OpenTransactionTracker(Duration.ofSeconds(38));
        assertThat(tracker.observe(List.of(open(7, 100)), 0)).isEmpty();
        assertThat(tracker.observe(List.of(open(7, 100)), 38 * SECOND)).isEmpty();
    }

    @Test
    void aTransactionSeenOpenForLongerThanTheThresholdHangsUntilItEnds() {
        OpenTransactionTracker tracker = new OpenTransactionTracker(Duration.ofSeconds(38));
        tracker.observe(List.of(open(7, 100)), 5 * SECOND);
        List<HangingTransaction> hanging = tracker.observe(List.of(open(7, 100), open(8, 120)), 44 * SECOND);
        assertThat(hanging).hasSize(1);
        assertThat(hanging.get(0).producerId()).isEqualTo(7);
        assertThat(hanging.get(0).startOffset()).isEqualTo(100);
        assertThat(hanging.get(0).age()).isEqualTo(Duration.ofSeconds(39));
        assertThat(hanging.get(0).describe()).contains("open since offset 100 for at least 39 s");
        assertThat(tracker.observe(List.of(open(8, 120)), 45 * SECOND)).isEmpty();
    }

    @Test
    void theNextTransactionOfAProducerStartsItsOwnClock() {
        OpenTransactionTracker tracker = new OpenTransactionTracker(Duration.ofSeconds(38));
        tracker.observe(List.of(open(7, 100)), 0);
        // Committed and the next one begun between two checks: a new start offset.
        assertThat(tracker.observe(List.of(open(7, 180)), 30 * SECOND)).isEmpty();
        assertThat(tracker.observe(List.of(open(7, 180)), 60 * SECOND)).isEmpty();
        assertThat(tracker.observe(List.of(open(7, 180)), 69 * SECOND)).hasSize(1);
    }

    @Test
    void theThresholdCoversTheTransactionTimeoutTheAbortScanAndTwoFailovers() {
        HangingThreshold defaults = HangingThreshold.withDefaults(Duration.ofSeconds(10));
        assertThat(defaults.threshold()).isEqualTo(Duration.ofSeconds(38));
        assertThat(defaults.describe())
                .isEqualTo("38 s (transaction timeout 10 s + coordinator's abort scan 10 s"
                        + " + 2 x broker session timeout 9 s)");
        assertThat(new HangingThreshold(Duration.ofMillis(2_500), Duration.ofSeconds(5), Duration.ofSeconds(18))
                        .threshold())
                .isEqualTo(Duration.ofMillis(43_500));
    }
}
