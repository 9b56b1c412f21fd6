package dev.utf8sanitiser.serdes.streams;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MeasurableStat;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.WindowedSum;

/**
 * One outcome's count, for one input topic (and rule), behind the {@code -total} and {@code -rate}
 * metrics of its sensor. Counting a record is a field's increment on the stream thread, not a
 * {@link Sensor#record} a record: that takes two nested locks and writes a volatile field, and cost
 * the sanitiser's stream thread about 0.1 µs a record at 100 B in the end-to-end benchmark, half of
 * what it spent over the branching pass-through's (docs/benchmarks.md).
 *
 * <ul>
 *   <li>{@code -total} is the field itself, read when the metric is read: always current.
 *   <li>{@code -rate} is Kafka's own {@code Rate} over a {@code WindowedSum}, fed the records
 *       counted at one cached time in one call when the time moves on (Kafka Streams caches the
 *       wall-clock time once a pass of its loop) or when {@link #flush()} is called. Recording
 *       {@code n} at a time is what recording 1 at that time {@code n} times does to the sums, so
 *       the rate is Kafka's, at most one pass of the loop (or one flush) late.
 * </ul>
 *
 * <p>Only the stream thread that runs the task counts and flushes; the metrics reporters read.
 */
final class OutcomeCounter {
    private static final VarHandle TOTAL;

    static {
        try {
            TOTAL = MethodHandles.lookup().findVarHandle(OutcomeCounter.class, "total", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Sensor sensor;
    /** Written by the stream thread only, with release; read with acquire by a reporter. */
    @SuppressWarnings("unused") // through TOTAL
    private long total;

    private long pending;
    private long pendingAtMs;

    private OutcomeCounter(Sensor sensor) {
        this.sensor = sensor;
    }

    /** A counter behind {@code sensor}, which gets the two metrics {@code rate} and {@code total}. */
    static OutcomeCounter on(Sensor sensor, MetricName rate, MetricName total) {
        OutcomeCounter counter = new OutcomeCounter(sensor);
        // A sum, not a count of record() calls: the counter records many records in one call.
        sensor.add(rate, new Rate(TimeUnit.SECONDS, new WindowedSum()));
        sensor.add(total, counter.totalStat());
        return counter;
    }

    /** One record, at the task's cached wall-clock time {@code nowMs}. */
    void count(long nowMs) {
        TOTAL.setRelease(this, (long) TOTAL.get(this) + 1);
        if (nowMs != pendingAtMs) {
            flush();
            pendingAtMs = nowMs;
        }
        pending++;
    }

    /** Records the records counted and not yet in the rate, at the time they were counted. */
    void flush() {
        if (pending > 0) {
            sensor.record(pending, pendingAtMs, false);
            pending = 0;
        }
    }

    /** The {@code -total} metric's stat: the count, read live; it ignores what the sensor records. */
    private MeasurableStat totalStat() {
        return new MeasurableStat() {
            @Override
            public void record(MetricConfig config, double value, long timeMs) {}

            @Override
            public double measure(MetricConfig config, long now) {
                return (long) TOTAL.getAcquire(OutcomeCounter.this);
            }
        };
    }
}
