package dev.utf8sanitiser.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.WindowedCount;
import org.junit.jupiter.api.Test;

/**
 * {@link OutcomeCounter} against the oracle it replaces: a Kafka sensor recorded once a record, with
 * the rate and total SanitiserMetrics used to have ({@code WindowedCount}, {@code CumulativeCount}).
 * The total must lag it by exactly the records of the time not yet recorded, and both must equal it
 * after a flush.
 */
class OutcomeCounterTest {
    private static final String GROUP = "test";

    /** Records counted at one cached time, and whether the processor's punctuator flushes after them. */
    record Pass(long advanceMs, int records, boolean flushAfter) {}

    @Property(tries = 200)
    void afterAFlushTotalAndRateAreWhatRecordingEachRecordGives(
            @ForAll @Size(min = 1, max = 60) List<@From("passes") Pass> passes) {
        MetricConfig config = new MetricConfig().samples(2).timeWindow(30, TimeUnit.SECONDS);
        try (Metrics metrics = new Metrics(config)) {
            Sensor oracle = metrics.sensor("oracle");
            oracle.add(name("oracle-rate"), new Rate(TimeUnit.SECONDS, new WindowedCount()));
            oracle.add(name("oracle-total"), new CumulativeCount());
            OutcomeCounter counter =
                    OutcomeCounter.on(metrics.sensor("counter"), name("counter-rate"), name("counter-total"));

            long now = 1_700_000_000_000L;
            int notYetRecorded = 0;
            long lastCountedAt = Long.MIN_VALUE;
            for (Pass pass : passes) {
                now += pass.advanceMs();
                for (int i = 0; i < pass.records(); i++) {
                    oracle.record(1, now, false);
                    counter.count(now);
                    // A record at a new time records those of the time before; its own waits.
                    notYetRecorded = now == lastCountedAt ? notYetRecorded + 1 : 1;
                    lastCountedAt = now;
                    assertThat(value(metrics, "counter-total", now))
                            .isEqualTo(value(metrics, "oracle-total", now) - notYetRecorded);
                }
                if (pass.flushAfter()) {
                    counter.flush();
                    notYetRecorded = 0;
                    long readAt = now + pass.advanceMs() / 2;
                    assertThat(value(metrics, "counter-total", readAt))
                            .isEqualTo(value(metrics, "oracle-total", readAt));
                    assertThat(value(metrics, "counter-rate", readAt)).isEqualTo(value(metrics, "oracle-rate", readAt));
                }
            }
            counter.flush();
            for (long later : new long[] {0, 1, 999, 29_999, 30_000, 45_000, 61_000, 120_000}) {
                assertThat(value(metrics, "counter-rate", now + later))
                        .as("rate %d ms after the last record", later)
                        .isEqualTo(value(metrics, "oracle-rate", now + later));
            }
            assertThat(value(metrics, "counter-total", now)).isEqualTo(value(metrics, "oracle-total", now));
        }
    }

    @Test
    void theMetricsLackOnlyTheRecordsOfTheTimeNotYetRecorded() {
        try (Metrics metrics = new Metrics()) {
            OutcomeCounter counter =
                    OutcomeCounter.on(metrics.sensor("counter"), name("counter-rate"), name("counter-total"));
            long now = 1_700_000_000_000L;
            counter.count(now);
            counter.count(now);
            counter.count(now + 100); // the time moved on: the two before are recorded

            assertThat(value(metrics, "counter-total", now + 100)).isEqualTo(2.0);
            double twoInTheRate = value(metrics, "counter-rate", now + 100);
            counter.flush();
            assertThat(value(metrics, "counter-total", now + 100)).isEqualTo(3.0);
            double threeInTheRate = value(metrics, "counter-rate", now + 100);

            assertThat(twoInTheRate).isPositive();
            // The same window, a sum half as large again (the division rounds once more).
            assertThat(threeInTheRate).isCloseTo(twoInTheRate * 3 / 2, within(1e-15));
        }
    }

    @Provide
    Arbitrary<Pass> passes() {
        // Most passes a few milliseconds apart, some none (the same cached time), some beyond a window.
        Arbitrary<Long> advance = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.longs().between(1, 200)),
                Tuple.of(2, Arbitraries.just(0L)),
                Tuple.of(1, Arbitraries.longs().between(20_000, 70_000)));
        return Combinators.combine(advance, Arbitraries.integers().between(0, 40), Arbitraries.of(true, false))
                .as(Pass::new);
    }

    private static MetricName name(String name) {
        return new MetricName(name, GROUP, "", Map.of());
    }

    private static double value(Metrics metrics, String name, long now) {
        KafkaMetric metric = metrics.metric(name(name));
        return metric.measurable().measure(metric.config(), now);
    }
}
