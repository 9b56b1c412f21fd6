package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.topology.FaultAccounting;
import dev.utf8sanitiser.app.topology.FaultInputWriter;
import dev.utf8sanitiser.testkit.KafkaCluster;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * The accounting of the fault suite ({@code FaultSuite}) on a {@link KafkaCluster}: writes records
 * 0 to n - 1 ({@link Traffic}'s keys and values, one in fifty ill-formed) at a steady rate with the
 * suite's writer, reads the clean and dead-letter topics under read_committed from the beginning
 * on its own thread, keeps the longest gap between two output records, and at the end accounts for
 * every key against the input read back: lost, duplicated, misrouted, altered.
 */
final class ClusterLedger implements AutoCloseable {
    private final KafkaCluster cluster;
    private final String in;
    private final int records;
    private final long startNanos = System.nanoTime();
    private final FaultInputWriter writer;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Thread reader;
    private final Map<Integer, Integer> seen = new HashMap<>(); // guarded by this
    private int misrouted; // guarded by this
    private int altered; // guarded by this
    private int total; // guarded by this
    private long lastArrival; // guarded by this
    private long longestStall; // guarded by this

    /** The verdict of a run. */
    record Verdict(
            int records,
            Map<Integer, Integer> input,
            FaultAccounting accounting,
            long longestStallMillis,
            long seconds) {
        String line() {
            return String.format(
                    "%d records, lost %d, duplicated %d, misrouted %d, altered %d; longest stall %d ms;"
                            + " %d input records written twice by the writer; %d s",
                    records,
                    accounting.lost,
                    accounting.duplicated,
                    accounting.misrouted,
                    accounting.altered,
                    longestStallMillis,
                    accounting.inputDuplicates,
                    seconds);
        }

        /** Every key of the input exactly once in the output, in the right topic, byte-exact. */
        void assertExactlyOnce() {
            assertThat(input).as("every record in the input").hasSize(records);
            assertThat(accounting.lost)
                    .as("lost (the lowest keys: " + accounting.lostKeys + ")")
                    .isZero();
            assertThat(accounting.duplicated).as("duplicated").isZero();
            assertThat(accounting.misrouted).as("misrouted").isZero();
            assertThat(accounting.altered)
                    .as("not byte-exact, or a dead letter without its headers")
                    .isZero();
        }
    }

    /**
     * Starts writing {@code records} records to {@code in} over {@code writing}, and reading {@code
     * in.clean} (partitions 0 to {@code outputPartitions - 1}) and {@code in.dlq} (partition 0).
     */
    ClusterLedger(
            KafkaCluster cluster,
            String in,
            int outputPartitions,
            int records,
            Duration writing,
            Map<String, Object> producerConfig) {
        this.cluster = cluster;
        this.in = in;
        this.records = records;
        List<TopicPartition> output = ClusterRun.partitions(in + ".clean", outputPartitions);
        output.add(new TopicPartition(in + ".dlq", 0));
        this.reader = new Thread(() -> ClusterRun.read(cluster, output, stopped, this::account), "ledger-" + in);
        reader.start();
        this.writer = new FaultInputWriter(producerConfig, in, records, writing, Traffic::key, Traffic::value);
    }

    ClusterLedger(KafkaCluster cluster, String in, int outputPartitions, int records, Duration writing) {
        this(cluster, in, outputPartitions, records, writing, cluster.producerConfig());
    }

    private synchronized void account(ConsumerRecord<byte[], byte[]> record) {
        long now = System.nanoTime();
        if (total > 0) {
            longestStall = Math.max(longestStall, now - lastArrival);
        }
        lastArrival = now;
        total++;
        int i = Integer.parseInt(new String(record.key(), UTF_8));
        seen.merge(i, 1, Integer::sum);
        boolean dead = record.topic().equals(in + ".dlq");
        if (dead != Traffic.illFormed(i)) {
            misrouted++;
        } else if (!Arrays.equals(record.value(), Traffic.value(i)) || dead && !annotated(record)) {
            altered++;
        }
    }

    private static boolean annotated(ConsumerRecord<byte[], byte[]> record) {
        for (Header header : record.headers()) {
            if (header.key().equals("__utf8.rule")) {
                return true;
            }
        }
        return false;
    }

    synchronized int total() {
        return total;
    }

    /** Waits until the output holds {@code count} records; true when it does within {@code timeout}. */
    boolean awaitOutput(int count, Duration timeout) {
        return KafkaCluster.await(() -> total() >= count, timeout);
    }

    private synchronized boolean covers(Map<Integer, Integer> input) {
        return input.entrySet().stream().allMatch(entry -> seen.getOrDefault(entry.getKey(), 0) >= entry.getValue());
    }

    /**
     * Waits for the writer, reads the input's {@code inputPartitions} partitions back, waits up to
     * {@code timeout} for a copy of each of its records in the output and 3 s more for late
     * duplicates, and accounts.
     */
    Verdict finish(int inputPartitions, Duration timeout) throws InterruptedException {
        writer.await();
        assertThat(writer.failure()).as("every input record written").isNull();
        Map<Integer, Integer> input = FaultAccounting.countInput(cluster.consumerConfig("unused"), in, inputPartitions);
        KafkaCluster.await(() -> covers(input), timeout);
        Thread.sleep(3_000);
        stopped.set(true);
        reader.join();
        synchronized (this) {
            return new Verdict(
                    records,
                    input,
                    FaultAccounting.of(input, seen, misrouted, altered),
                    TimeUnit.NANOSECONDS.toMillis(longestStall),
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos));
        }
    }

    @Override
    public void close() {
        stopped.set(true);
        try {
            writer.stop();
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
