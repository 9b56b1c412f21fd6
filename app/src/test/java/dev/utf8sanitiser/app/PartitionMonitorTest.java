package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;

class PartitionMonitorTest {
    private static final List<Node> NODES = List.of(new Node(1, "h", 1), new Node(2, "h", 2), new Node(3, "h", 3));

    /** A partition led by {@code leader} (0: none) with the first {@code isr} nodes in sync. */
    private static TopicPartitionInfo partition(int number, int leader, int isr) {
        return new TopicPartitionInfo(number, leader == 0 ? null : NODES.get(leader - 1), NODES, NODES.subList(0, isr));
    }

    private static PartitionMonitor.Snapshot snapshot(int minIsr, TopicPartitionInfo... partitions) {
        TopicDescription out = new TopicDescription("out", false, List.of(partitions));
        return new PartitionMonitor.Snapshot(Map.of("out", out), Map.of("out", minIsr));
    }

    @Test
    void leaderlessAndUnderMinIsrPartitionsAreUnwritableUnderReplicatedOnesAreNot() {
        PartitionReport report = PartitionReport.of(
                snapshot(2, partition(0, 1, 3), partition(1, 0, 0), partition(2, 2, 1), partition(3, 1, 2))
                        .topics(),
                Map.of("out", 2));
        assertThat(report.leaderless()).containsExactly("out-1");
        assertThat(report.underMinIsr()).containsExactly("out-2 (1 in sync of 2 required)");
        assertThat(report.underReplicated()).containsExactly("out-3 (2 of 3 in sync)");
        assertThat(report.unwritable())
                .hasValue("output partitions cannot take writes, 1 without a leader: out-1; 1 with fewer in-sync"
                        + " replicas than min.insync.replicas: out-2 (1 in sync of 2 required)");
        assertThat(report.describe()).doesNotContain("\n").contains("out-3 (2 of 3 in sync)");

        PartitionReport degraded =
                PartitionReport.of(snapshot(2, partition(0, 1, 2)).topics(), Map.of("out", 2));
        assertThat(degraded.unwritable()).isEmpty();
        assertThat(degraded.isClear()).isFalse();
    }

    @Test
    void aLongListNamesFiveAndCountsTheRest() {
        TopicPartitionInfo[] none =
                IntStream.range(0, 8).mapToObj(i -> partition(i, 0, 0)).toArray(TopicPartitionInfo[]::new);
        PartitionReport report = PartitionReport.of(snapshot(2, none).topics(), Map.of("out", 2));
        assertThat(report.unwritable().orElseThrow()).endsWith("out-4 and 3 more");
    }

    @Test
    void oneLineWhenItStartsOneWhenItChangesOneWhenItEnds() {
        Deque<Object> answers = new ArrayDeque<>(List.of(
                snapshot(2, partition(0, 1, 3)),
                snapshot(2, partition(0, 0, 0)),
                snapshot(2, partition(0, 0, 0)),
                new IllegalStateException("no answer"),
                snapshot(2, partition(0, 2, 1)),
                snapshot(2, partition(0, 2, 3))));
        AtomicLong now = new AtomicLong();
        PartitionMonitor monitor = new PartitionMonitor(
                () -> {
                    Object next = answers.pop();
                    if (next instanceof Exception e) {
                        throw e;
                    }
                    return (PartitionMonitor.Snapshot) next;
                },
                now::get);
        try (LogLines log = LogLines.of(PartitionMonitor.class, Level.INFO)) {
            List<Boolean> writable = IntStream.range(0, 6)
                    .mapToObj(i -> {
                        now.addAndGet(3_000_000_000L);
                        monitor.check();
                        return monitor.unwritable().isEmpty();
                    })
                    .collect(Collectors.toList());
            assertThat(writable).containsExactly(true, false, false, false, false, true);
            assertThat(log.lines())
                    .containsExactly(
                            "WARN output partitions cannot take writes, 1 without a leader: out-0. Records for"
                                    + " them wait (Kafka Streams retries) and /health/ready answers 503 until they"
                                    + " recover",
                            "WARN output partitions cannot take writes, 1 with fewer in-sync replicas than"
                                    + " min.insync.replicas: out-0 (1 in sync of 2 required). Records for them wait"
                                    + " (Kafka Streams retries) and /health/ready answers 503 until they recover",
                            "INFO every output and dead-letter partition has a leader and all its replicas in sync"
                                    + " again, after 12 s");
        }
    }
}
