package dev.utf8sanitiser.streams;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.WindowedSum;

/**
 * One outcome's count, for one input topic (and rule), behind the {@code -total} and {@code -rate}
 * metrics of its sensor. The records counted at one time go into the sensor in one call, not one
 * {@link Sensor#record} a record: that takes two nested locks and writes a volatile field, and cost
 * the sanitiser's stream thread about 0.1 µs a record at 100 B in the end-to-end benchmark, half of
 * what it spent over the branching pass-through's (docs/benchmarks.md).
 *
 * <p>The time is the task's cached wall-clock time, which Kafka Streams reads once a pass of its
 * loop: the records of one pass are recorded when a record comes at another time, or when {@link
 * #flush()} is called (the processor's punctuator, every second). The stats are Kafka's own sums
 * ({@code CumulativeSum}, and {@code Rate} over a {@code WindowedSum}): recording {@code n} at a
 * time does to them what recording 1 at that time {@code n} times does, so both metrics read as a
 * sensor recorded once a record would, a pass of the loop or a flush late. They are Kafka's classes,
 * not a live count of ours, because Micrometer's Kafka binder exports a metric as a counter only
 * when its stat is {@code CumulativeSum} or {@code CumulativeCount}: anything else becomes a gauge
 * and loses {@code _total} in Prometheus.
 *
 * <p>Only the stream thread that runs the task counts and flushes.
 */
final class OutcomeCounter {
    private final Sensor sensor;
    private long pending;
    private long pendingAtMs;

    private OutcomeCounter(Sensor sensor) {
        this.sensor = sensor;
    }

    /** A counter behind {@code sensor}, which gets the two metrics {@code rate} and {@code total}. */
    static OutcomeCounter on(Sensor sensor, MetricName rate, MetricName total) {
        sensor.add(rate, new Rate(TimeUnit.SECONDS, new WindowedSum()));
        sensor.add(total, new CumulativeSum());
        return new OutcomeCounter(sensor);
    }

    /** The sensor it counts into, to be removed with its metrics when the task closes. */
    Sensor sensor() {
        return sensor;
    }

    /** One record, at the task's cached wall-clock time {@code nowMs}. */
    void count(long nowMs) {
        if (nowMs != pendingAtMs) {
            flush();
            pendingAtMs = nowMs;
        }
        pending++;
    }

    /** Records the records counted and not yet recorded, at the time they were counted. */
    void flush() {
        if (pending > 0) {
            sensor.record(pending, pendingAtMs, false);
            pending = 0;
        }
    }
}
