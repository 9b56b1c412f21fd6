package dev.utf8sanitiser.app.transactions;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Finds hanging transactions on a set of topics with the Admin API, the way {@code
 * kafka-transactions.sh find-hanging} does for one broker: a partition whose last stable offset
 * ({@code listOffsets} latest under {@code read_committed}) is behind its high watermark (the same
 * under {@code read_uncommitted}) has open transactions; {@code describeProducers} names them, with
 * the offset each began at and the timestamp of its producer's last batch. {@link #find} calls one
 * hanging whose last timestamp is older than {@code olderThan} ({@link HangingThreshold}).
 */
public final class HangingTransactionFinder {
    private final Admin admin;
    private final Duration olderThan;
    private final Clock clock;

    public HangingTransactionFinder(Admin admin, Duration olderThan, Clock clock) {
        this.admin = admin;
        this.olderThan = olderThan;
        this.clock = clock;
    }

    public Duration olderThan() {
        return olderThan;
    }

    /**
     * The hanging transactions on {@code topics}, which must exist, judged in one look by the
     * producers' last record timestamps: for the command line. Kafka Streams writes with its input
     * records' timestamps, so a backlog or a replay can look old here; {@link
     * HangingTransactionMonitor} judges by how long it has watched a transaction stay open instead.
     */
    public List<HangingTransaction> find(Collection<String> topics) throws ExecutionException, InterruptedException {
        long now = clock.millis();
        List<HangingTransaction> hanging = new ArrayList<>();
        for (OpenTransaction open : open(topics)) {
            Duration age = Duration.ofMillis(Math.max(0, now - open.lastTimestamp()));
            if (age.compareTo(olderThan) > 0) {
                hanging.add(new HangingTransaction(
                        open.partition(),
                        open.producerId(),
                        open.producerEpoch(),
                        open.coordinatorEpoch(),
                        open.startOffset(),
                        age,
                        open.lastStableOffset(),
                        open.highWatermark()));
            }
        }
        return hanging;
    }

    /** Every transaction open now on {@code topics} (which must exist) that holds a last stable offset. */
    public List<OpenTransaction> open(Collection<String> topics) throws ExecutionException, InterruptedException {
        if (topics.isEmpty()) {
            return List.of();
        }
        List<TopicPartition> partitions = new ArrayList<>();
        for (TopicDescription topic :
                admin.describeTopics(topics).allTopicNames().get().values()) {
            for (TopicPartitionInfo info : topic.partitions()) {
                partitions.add(new TopicPartition(topic.name(), info.partition()));
            }
        }
        Map<TopicPartition, Long> stable = latest(partitions, IsolationLevel.READ_COMMITTED);
        Map<TopicPartition, Long> high = latest(partitions, IsolationLevel.READ_UNCOMMITTED);
        List<TopicPartition> behind = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            if (stable.get(partition) < high.get(partition)) {
                behind.add(partition);
            }
        }
        if (behind.isEmpty()) {
            return List.of();
        }
        List<OpenTransaction> open = new ArrayList<>();
        Map<TopicPartition, PartitionProducerState> producers =
                admin.describeProducers(behind).all().get();
        for (TopicPartition partition : behind) {
            for (ProducerState producer : producers.get(partition).activeProducers()) {
                if (producer.currentTransactionStartOffset().isPresent()) {
                    open.add(new OpenTransaction(
                            partition,
                            producer.producerId(),
                            producer.producerEpoch(),
                            producer.coordinatorEpoch().orElse(-1),
                            producer.currentTransactionStartOffset().getAsLong(),
                            producer.lastTimestamp(),
                            stable.get(partition),
                            high.get(partition)));
                }
            }
        }
        return open;
    }

    private Map<TopicPartition, Long> latest(List<TopicPartition> partitions, IsolationLevel isolation)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, OffsetSpec.latest()));
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (Map.Entry<TopicPartition, ListOffsetsResultInfo> entry : admin.listOffsets(
                        request, new ListOffsetsOptions(isolation))
                .all()
                .get()
                .entrySet()) {
            offsets.put(entry.getKey(), entry.getValue().offset());
        }
        return offsets;
    }
}
