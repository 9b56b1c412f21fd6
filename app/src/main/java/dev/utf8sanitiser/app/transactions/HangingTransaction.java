package dev.utf8sanitiser.app.transactions;

import java.time.Duration;
import org.apache.kafka.common.TopicPartition;

/**
 * An open transaction that holds a partition's last stable offset behind its high watermark for
 * longer than a transaction may last ({@link HangingThreshold}); {@code age} is how long it has
 * been open at least: {@code read_committed} readers of the partition see nothing
 * past {@code startOffset} until it is aborted (docs/reliability.md, "A hanging transaction").
 */
public record HangingTransaction(
        TopicPartition partition,
        long producerId,
        int producerEpoch,
        int coordinatorEpoch,
        long startOffset,
        Duration age,
        long lastStableOffset,
        long highWatermark) {

    /** One line for the log and for {@code /health}. */
    public String describe() {
        return "partition " + partition + " producer id " + producerId + " (epoch " + producerEpoch + ")"
                + " transaction open since offset " + startOffset + " for at least " + age.toSeconds() + " s;"
                + " last stable offset " + lastStableOffset + " behind high watermark " + highWatermark;
    }
}
