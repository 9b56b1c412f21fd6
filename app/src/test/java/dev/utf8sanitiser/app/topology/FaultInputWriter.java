package dev.utf8sanitiser.app.topology;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes the input of a fault test at a steady rate, on its own thread, and makes sure every record
 * reaches the topic whatever the broker does meanwhile.
 *
 * <p>Not idempotent on purpose: after a broker SIGKILL an idempotent producer once retried
 * {@code OUT_OF_ORDER_SEQUENCE_NUMBER} on one partition until its records expired, records it had
 * never written (the broker had lost that producer's state). Here a send that fails is sent again
 * by a new producer, and a retry may write a record twice; the test reads the input topic back
 * ({@link FaultAccounting#countInput}) and tells such input duplicates from output duplicates.
 */
public final class FaultInputWriter {
    /** How long a record may wait for the broker, by default, before a new producer sends it again. */
    static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> producerConfig;
    private final String topic;
    private final int records;
    private final long nanosPerRecord;
    private final Duration deliveryTimeout;
    private final IntFunction<byte[]> key;
    private final IntFunction<byte[]> value;
    private final Thread thread;
    private final BitSet acknowledged = new BitSet(); // guarded by this
    private final Queue<Integer> failed = new ArrayDeque<>(); // guarded by this
    private int generation; // guarded by this: the number of the current producer
    private boolean replaceNeeded; // guarded by this
    private int producersReplaced; // guarded by this
    private int sendsRepeated; // guarded by this
    private volatile boolean stopped;
    private volatile Exception failure;

    public FaultInputWriter(
            Map<String, Object> producerConfig,
            String topic,
            int records,
            Duration duration,
            IntFunction<byte[]> key,
            IntFunction<byte[]> value) {
        this(producerConfig, topic, records, duration, key, value, DELIVERY_TIMEOUT);
    }

    FaultInputWriter(
            Map<String, Object> producerConfig,
            String topic,
            int records,
            Duration duration,
            IntFunction<byte[]> key,
            IntFunction<byte[]> value,
            Duration deliveryTimeout) {
        this.deliveryTimeout = deliveryTimeout;
        this.producerConfig = producerConfig;
        this.topic = topic;
        this.records = records;
        this.nanosPerRecord = duration.toNanos() / records;
        this.key = key;
        this.value = value;
        this.thread = new Thread(this::write, "fault-writer-" + topic);
        thread.start();
    }

    private void write() {
        Producer<byte[], byte[]> producer = newProducer();
        try {
            long start = System.nanoTime();
            for (int i = 0; i < records && !stopped; i++) {
                long wait = start + i * nanosPerRecord - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                producer = resendFailed(producer);
                producer = send(producer, i);
            }
            // Until every record is acknowledged: flush, then send again what failed.
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (!stopped && !allAcknowledged()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            (records - acknowledgedCount()) + " records not acknowledged after 5 minutes of retries");
                }
                producer.flush();
                producer = resendFailed(producer);
                Thread.sleep(100);
            }
        } catch (Exception e) {
            failure = e;
        } finally {
            producer.close(Duration.ofSeconds(5));
        }
    }

    private Producer<byte[], byte[]> send(Producer<byte[], byte[]> producer, int i) {
        int sentBy = currentGeneration();
        try {
            producer.send(new ProducerRecord<>(topic, key.apply(i), value.apply(i)), (metadata, e) -> {
                if (e == null) {
                    acknowledge(i);
                } else {
                    fail(i, sentBy);
                }
            });
            return producer;
        } catch (RuntimeException e) { // send() timed out waiting for metadata
            fail(i, sentBy);
            return replace(producer);
        }
    }

    private Producer<byte[], byte[]> resendFailed(Producer<byte[], byte[]> producer) {
        if (takeReplaceNeeded()) {
            // A producer whose sends failed may be stuck in a state it cannot leave; start afresh.
            producer = replace(producer);
        }
        Integer i;
        while ((i = nextFailed()) != null) {
            synchronized (this) {
                sendsRepeated++;
            }
            producer = send(producer, i);
        }
        return producer;
    }

    private Producer<byte[], byte[]> replace(Producer<byte[], byte[]> producer) {
        synchronized (this) {
            // Sends the old producer fails from now on, as it closes, are sent again without
            // replacing the new one.
            generation++;
            replaceNeeded = false;
            producersReplaced++;
        }
        producer.close(Duration.ZERO);
        return newProducer();
    }

    private synchronized int currentGeneration() {
        return generation;
    }

    private synchronized boolean takeReplaceNeeded() {
        boolean needed = replaceNeeded;
        replaceNeeded = false;
        return needed;
    }

    private Producer<byte[], byte[]> newProducer() {
        Map<String, Object> config = new HashMap<>(producerConfig);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        int timeout = (int) deliveryTimeout.toMillis();
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeout);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeout / 3);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(config);
    }

    private synchronized void acknowledge(int i) {
        acknowledged.set(i);
    }

    private synchronized void fail(int i, int sentBy) {
        if (!acknowledged.get(i)) {
            failed.add(i);
            replaceNeeded |= sentBy == generation;
        }
    }

    private synchronized Integer nextFailed() {
        Integer i;
        while ((i = failed.poll()) != null) {
            if (!acknowledged.get(i)) {
                return i;
            }
        }
        return null;
    }

    private synchronized boolean allAcknowledged() {
        return acknowledged.cardinality() == records;
    }

    private synchronized int acknowledgedCount() {
        return acknowledged.cardinality();
    }

    /** Waits until every record is acknowledged (or the writer gave up: see {@link #failure()}). */
    public void await() throws InterruptedException {
        thread.join();
    }

    /** Why the writer gave up, or null. */
    public Exception failure() {
        return failure;
    }

    /** Producers closed after a failed send and replaced by a new one. */
    public synchronized int producersReplaced() {
        return producersReplaced;
    }

    /** Records sent again after their send failed. */
    public synchronized int sendsRepeated() {
        return sendsRepeated;
    }

    public void stop() throws InterruptedException {
        stopped = true;
        thread.join();
    }
}
