package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The input of the lifecycle tests: record {@code i} has key {@code i} (decimal) and a unique value,
 * one in fifty ill-formed (a CESU-8 surrogate), so that both the clean and the dead-letter topic are
 * written. Sent all at once, or at a steady rate on a thread of its own, idempotently, waiting as
 * long as it takes for a broker that is away.
 */
final class Traffic implements AutoCloseable {
    private final Thread thread;
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private volatile boolean stopped;
    private volatile KafkaProducer<byte[], byte[]> producer;

    private Traffic(EmbeddedKafka kafka, String topic, int from, int to, long nanosPerRecord) {
        this.thread = new Thread(() -> send(kafka, topic, from, to, nanosPerRecord), "traffic-" + topic);
        thread.start();
    }

    /** Sends records {@code from} (inclusive) to {@code to} (exclusive) and returns when all are written. */
    static void sendNow(EmbeddedKafka kafka, String topic, int from, int to) throws Exception {
        try (Traffic traffic = new Traffic(kafka, topic, from, to, 0)) {
            traffic.await();
        }
    }

    /** Starts sending records {@code from} to {@code to} evenly over {@code seconds}. */
    static Traffic steady(EmbeddedKafka kafka, String topic, int from, int to, int seconds) {
        return new Traffic(kafka, topic, from, to, TimeUnit.SECONDS.toNanos(seconds) / Math.max(1, to - from));
    }

    static boolean illFormed(int i) {
        return i % 50 == 0;
    }

    static byte[] key(int i) {
        return Integer.toString(i).getBytes(UTF_8);
    }

    static byte[] value(int i) {
        byte[] text = ("record " + i + " Grüße").getBytes(UTF_8);
        if (!illFormed(i)) {
            return text;
        }
        byte[] bad = Arrays.copyOf(text, text.length + 3);
        bad[text.length] = (byte) 0xED;
        bad[text.length + 1] = (byte) 0xA0;
        bad[text.length + 2] = (byte) 0x80;
        return bad;
    }

    private void send(EmbeddedKafka kafka, String topic, int from, int to, long nanosPerRecord) {
        Map<String, Object> config = kafka.producerConfig();
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 300_000);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // One request in flight: a first batch refused with NOT_LEADER_OR_FOLLOWER just after the
        // topic was created is then retried alone. With five, the later batches kept failing with
        // OUT_OF_ORDER_SEQUENCE_NUMBER until they expired (seen twice in RebalanceIT).
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            this.producer = producer;
            long start = System.nanoTime();
            for (int i = from; i < to && !stopped; i++) {
                long wait = start + (i - from) * nanosPerRecord - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                producer.send(new ProducerRecord<>(topic, key(i), value(i)), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
        } catch (Exception e) {
            if (!stopped) {
                failure.compareAndSet(null, e);
            }
        }
    }

    /** Waits until every record is written; throws what failed. */
    void await() throws Exception {
        thread.join();
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /** Stops sending; with the broker away, what is not yet written is abandoned. */
    @Override
    public void close() {
        stopped = true;
        KafkaProducer<byte[], byte[]> current = producer;
        if (current != null && thread.isAlive()) {
            current.close(Duration.ZERO);
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
