package dev.utf8sanitiser.app.transactions;

import org.apache.kafka.common.TopicPartition;

/**
 * A transaction open on a partition now, as the partition's leader describes its producers: it
 * holds the last stable offset at {@code startOffset} until it ends. {@code lastTimestamp} is the
 * largest record timestamp of the producer's last batch: the writer's clock, or for Kafka Streams
 * the input record's own timestamp, so it says little about when the producer last wrote.
 */
public record OpenTransaction(
        TopicPartition partition,
        long producerId,
        int producerEpoch,
        int coordinatorEpoch,
        long startOffset,
        long lastTimestamp,
        long lastStableOffset,
        long highWatermark) {

    /** The same transaction in another check: same partition, producer and start offset. */
    String key() {
        return partition + "/" + producerId + "/" + startOffset;
    }
}
