package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;

/**
 * Reads the clean and dead-letter topics of {@link Traffic} with {@code read_committed} from the
 * beginning, on a thread of its own, through broker outages: which keys arrived, how often, in the
 * right topic and byte-exact, and when (to the poll, 100 ms).
 */
final class OutputWatch implements AutoCloseable {
    private final String input;
    private final int partitions;
    private final EmbeddedKafka kafka;
    private final Thread thread;
    private final Map<Integer, Integer> seen = new HashMap<>(); // guarded by this
    private final List<Long> arrivals = new ArrayList<>(); // nanoTime of each record; guarded by this
    private final List<Integer> partitionOf = new ArrayList<>(); // of each record; guarded by this
    private int wrong; // misrouted or altered; guarded by this
    private volatile boolean stopped;

    OutputWatch(EmbeddedKafka kafka, String input, int partitions) {
        this.kafka = kafka;
        this.input = input;
        this.partitions = partitions;
        this.thread = new Thread(this::read, "output-watch-" + input);
        thread.start();
    }

    private void read() {
        Map<String, Object> config = kafka.consumerConfig("unused");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<TopicPartition> assigned = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            assigned.add(new TopicPartition(input + ".clean", p));
            assigned.add(new TopicPartition(input + ".dlq", p));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            while (!stopped) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    account(record);
                }
            }
        } catch (InterruptException e) {
            // Closed.
        }
    }

    private synchronized void account(ConsumerRecord<byte[], byte[]> record) {
        arrivals.add(System.nanoTime());
        partitionOf.add(record.partition());
        int i = Integer.parseInt(new String(record.key(), UTF_8));
        seen.merge(i, 1, Integer::sum);
        boolean dead = record.topic().endsWith(".dlq");
        if (dead != Traffic.illFormed(i) || !Arrays.equals(record.value(), Traffic.value(i))) {
            wrong++;
        }
    }

    synchronized int total() {
        return arrivals.size();
    }

    synchronized int distinct() {
        return seen.size();
    }

    synchronized int duplicates() {
        return arrivals.size() - seen.size();
    }

    /** Records in the wrong topic, or not byte-exact. */
    synchronized int wrong() {
        return wrong;
    }

    /** Keys of {@code 0..count-1} that never arrived. */
    synchronized List<Integer> missing(int count) {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (!seen.containsKey(i)) {
                missing.add(i);
            }
        }
        return missing;
    }

    /** Whether key {@code i} has arrived. */
    synchronized boolean has(int i) {
        return seen.containsKey(i);
    }

    /**
     * The longest time, in ms, that some partition went without output between {@code fromNanos} and
     * {@code toNanos}: from {@code fromNanos} to its first record, or between two of its records. A
     * partition's clean and dead-letter records count together (both follow the input partition);
     * a stall of some partitions shows here even while the others flow.
     */
    synchronized long longestStallMillis(long fromNanos, long toNanos) {
        long longest = 0;
        for (int p = 0; p < partitions; p++) {
            long previous = fromNanos;
            for (int k = 0; k < arrivals.size(); k++) {
                long arrival = arrivals.get(k);
                if (partitionOf.get(k) != p || arrival < fromNanos || arrival > toNanos) {
                    continue;
                }
                longest = Math.max(longest, arrival - previous);
                previous = arrival;
            }
        }
        return TimeUnit.NANOSECONDS.toMillis(longest);
    }

    /** Waits until {@code count} distinct keys have arrived; true when they did within {@code timeout}. */
    boolean awaitDistinct(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (distinct() < count) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Waits until key {@code i} has arrived and returns when, in {@link System#nanoTime()}, or -1. */
    long awaitKey(int i, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!has(i)) {
            if (System.nanoTime() > deadline) {
                return -1;
            }
            Thread.sleep(20);
        }
        return System.nanoTime();
    }

    /** Waits for the first record that arrives after {@code afterNanos}; returns its arrival, or -1. */
    long awaitArrivalAfter(long afterNanos, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            synchronized (this) {
                for (int k = arrivals.size() - 1; k >= 0 && arrivals.get(k) > afterNanos; k--) {
                    if (k == 0 || arrivals.get(k - 1) <= afterNanos) {
                        return arrivals.get(k);
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                return -1;
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        stopped = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
