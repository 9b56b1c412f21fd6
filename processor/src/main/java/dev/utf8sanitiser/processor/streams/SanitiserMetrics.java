package dev.utf8sanitiser.processor.streams;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * Counts per outcome and per rule as Kafka Streams sensors, so they appear in JMX (group {@code
 * stream-utf8-sanitiser-metrics}) next to Kafka's own, as {@code <outcome>-rate} and {@code
 * <outcome>-total} with tags {@code outcome} and, for ill-formed records, {@code rule}.
 */
final class SanitiserMetrics {
    static final String SCOPE = "utf8-sanitiser";

    /** The outcomes of docs/operations.md; names are metric names, so they never change. */
    enum Outcome {
        PASSED,
        REPLACED,
        REPAIRED,
        STRIPPED,
        NORMALISED,
        DEAD_LETTERED;

        /** The outcome of a record sent on changed, from its {@code __utf8.action}. */
        static Outcome forAction(String action) {
            return valueOf(action.toUpperCase(Locale.ROOT));
        }

        String metricName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final StreamsMetrics metrics;
    private final String entity;
    // Looked up on every record: an array by outcome, and by rule only for dead letters.
    private final Sensor[] byOutcome = new Sensor[Outcome.values().length];
    private final Map<String, Sensor> deadLetteredByRule = new HashMap<>();

    SanitiserMetrics(StreamsMetrics metrics, String taskId) {
        this.metrics = metrics;
        this.entity = "task-" + taskId;
    }

    void record(Outcome outcome) {
        Sensor sensor = byOutcome[outcome.ordinal()];
        if (sensor == null) {
            sensor = metrics.addRateTotalSensor(SCOPE, entity, outcome.metricName(), Sensor.RecordingLevel.INFO);
            byOutcome[outcome.ordinal()] = sensor;
        }
        sensor.record();
    }

    /** A dead-lettered record, by the name of its rule (UTF-8 or content). */
    void record(Outcome outcome, String rule) {
        deadLetteredByRule
                .computeIfAbsent(
                        rule,
                        r -> metrics.addRateTotalSensor(
                                SCOPE, entity, outcome.metricName(), Sensor.RecordingLevel.INFO, "rule", r))
                .record();
    }
}
