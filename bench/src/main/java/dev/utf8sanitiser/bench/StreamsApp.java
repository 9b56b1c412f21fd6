package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.bench.EndToEndResults.Cpu;
import dev.utf8sanitiser.config.SanitiserConfig;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

/** A Kafka Streams application of one {@link Topo}, with its start and {@code RUNNING} times, for {@link EndToEndBenchmark}. */
final class StreamsApp implements AutoCloseable {
    private final KafkaStreams streams;
    private final CountDownLatch running = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile long runningAt;
    private volatile Cpu runningCpu;
    private long startedAt;

    StreamsApp(Topo topo, SanitiserConfig config, Supplier<Cpu> cpu) {
        Properties properties = new Properties();
        properties.putAll(config.streamsProperties());
        properties.putAll(topo.ownStreamsProperties(config));
        streams = new KafkaStreams(topo.build(config), properties);
        streams.setUncaughtExceptionHandler(exception -> {
            failure.compareAndSet(null, exception);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING && runningAt == 0) {
                runningCpu = cpu.get();
                runningAt = System.nanoTime();
                running.countDown();
            } else if (now == KafkaStreams.State.ERROR) {
                failure.compareAndSet(null, new IllegalStateException("Kafka Streams went to ERROR"));
            }
        });
    }

    void start() {
        startedAt = System.nanoTime();
        streams.start();
    }

    long startedAt() {
        return startedAt;
    }

    /** When Kafka Streams first reported {@code RUNNING}. */
    long runningAt() {
        if (runningAt == 0) {
            throw new IllegalStateException("finished before Kafka Streams reported RUNNING");
        }
        return runningAt;
    }

    /** The CPU times when Kafka Streams first reported {@code RUNNING}. */
    Cpu runningCpu() {
        runningAt();
        return runningCpu;
    }

    void awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!running.await(100, TimeUnit.MILLISECONDS)) {
            checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka Streams not RUNNING after " + timeout);
            }
        }
    }

    /**
     * About how many record batches the application's producer has sent: the bytes it sent to
     * all topics over its average batch size. Each batch is a request entry the broker checks
     * and appends on its own, so a second topic that takes a few records at a time shows here.
     */
    long producerBatches() {
        double bytes = 0;
        double averageBatch = Double.NaN;
        for (Metric metric : streams.metrics().values()) {
            MetricName name = metric.metricName();
            if (name.group().equals("producer-topic-metrics") && name.name().equals("byte-total")) {
                bytes += ((Number) metric.metricValue()).doubleValue();
            } else if (name.group().equals("producer-metrics") && name.name().equals("batch-size-avg")) {
                averageBatch = ((Number) metric.metricValue()).doubleValue();
            }
        }
        return averageBatch > 0 ? Math.round(bytes / averageBatch) : 0;
    }

    void checkAlive() {
        if (failure.get() != null) {
            throw new IllegalStateException("Kafka Streams failed", failure.get());
        }
    }

    @Override
    public void close() {
        streams.close(CloseOptions.timeout(Duration.ofSeconds(60)));
        streams.cleanUp();
    }
}
