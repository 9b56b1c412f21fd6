package dev.utf8sanitiser.streams;

import dev.utf8sanitiser.core.Outcome;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.streams.StreamsMetrics;

/**
 * Counts per outcome and per rule as Kafka Streams sensors, so they appear in JMX (group {@code
 * stream-utf8-sanitiser-metrics}) next to Kafka's own, as {@code <outcome>-rate} and {@code
 * <outcome>-total} with tags {@code thread-id}, {@code utf8-sanitiser-id} (the task), {@code
 * topic} (the input topic) and, for dead letters, {@code rule}.
 *
 * <p>Every record is also counted once in {@code records-total}, tagged with its {@code outcome}
 * (a dead letter's without its rule): one counter whose series share their label names, which is
 * what Prometheus needs to add or divide outcomes ({@code rate()} of several metric names at once
 * drops the names and fails on the series left with equal labels). Micrometer's Kafka binder
 * drops the series of a name that have fewer tags than others of that name, so no {@code
 * records-total} series has a {@code rule}: a dead letter counts in its rule's sensor and, through
 * it as a parent, in its topic's.
 *
 * <p>The sensors are made here rather than by {@link StreamsMetrics#addRateTotalSensor}: that one
 * names its sensor by thread, entity and operation only, not by tags, so the sensor of a second
 * rule was the first rule's, and each dead letter counted once under every rule seen so far (one
 * {@code NON_SHORTEST_FORM}, one {@code SURROGATE} and two {@code TRUNCATED_AT_END} showed as 4, 3
 * and 2). The metric names, group and tags are the ones that method gives.
 *
 * <p>A record is counted by an {@link OutcomeCounter}, not recorded into its sensor one by one: the
 * records of one pass of the stream thread's loop go into the total and the rate when a later pass
 * brings a record, or from {@link #flush()}, which the processor calls every {@link
 * #FLUSH_INTERVAL}.
 */
public final class SanitiserMetrics implements AutoCloseable {
    public static final String SCOPE = "utf8-sanitiser";
    public static final String GROUP = "stream-" + SCOPE + "-metrics";

    /**
     * How often the processor hands the metrics the records they do not have yet: the most a total
     * or a rate lags when the stream goes idle (Kafka's rates sample 30-second windows).
     */
    public static final Duration FLUSH_INTERVAL = Duration.ofSeconds(1);

    private final StreamsMetrics metrics;
    private final String thread;
    private final String entity;
    private final List<OutcomeCounter> counters = new ArrayList<>();
    // Looked up on every record: by input topic, then an array by outcome; by rule only for dead letters.
    private final Map<String, OutcomeCounter[]> byTopic = new HashMap<>();
    private final Map<String, Map<DeadLetterRule, OutcomeCounter>> deadLetteredByTopicAndRule = new HashMap<>();
    // The parent of a topic's per-rule sensors: behind records-total{outcome="dead-lettered"}.
    private final Map<String, Sensor> deadLetteredByTopic = new HashMap<>();
    // The last input topic's counters: nearly every record has the topic of the one before, and in
    // a Kafka Streams thread the map lookup took about 20 ns a record (a JFR profile, 100 B values).
    private String lastTopic;
    private OutcomeCounter[] lastTopicOutcomes;

    /**
     * Made on the stream thread that runs the task ({@code init}). Every outcome of each listed input
     * topic starts at zero; a topic met through a pattern, with its first record.
     */
    SanitiserMetrics(StreamsMetrics metrics, String taskId, List<String> inputTopics) {
        this.metrics = metrics;
        this.thread = Thread.currentThread().getName();
        this.entity = "task-" + taskId;
        inputTopics.forEach(this::outcomes);
    }

    /**
     * A record sent on to the output topic, at {@code nowMs}: the task's cached wall-clock time
     * ({@code ProcessorContext.currentSystemTimeMs()}), as Kafka's own task sensors are given it.
     */
    void record(String inputTopic, Outcome outcome, long nowMs) {
        if (outcome == Outcome.REJECTED) {
            throw new IllegalArgumentException("a dead letter is counted by its rule");
        }
        outcomes(inputTopic)[outcome.ordinal()].count(nowMs);
    }

    /** A dead-lettered record, tagged with its rule's spelling, at {@code nowMs}. */
    void deadLettered(String inputTopic, DeadLetterRule rule, long nowMs) {
        outcomes(inputTopic); // the topic's other counters, at zero if new
        deadLetteredByTopicAndRule
                .computeIfAbsent(inputTopic, t -> new EnumMap<>(DeadLetterRule.class))
                .computeIfAbsent(
                        rule,
                        r -> counter(
                                inputTopic,
                                Outcome.REJECTED,
                                Map.of("rule", r.spelling()),
                                deadLetteredByTopic.get(inputTopic)))
                .count(nowMs);
    }

    /** Hands the metrics every record counted and not yet recorded; on the stream thread. */
    public void flush() {
        counters.forEach(OutcomeCounter::flush);
    }

    private OutcomeCounter[] outcomes(String inputTopic) {
        if (inputTopic.equals(lastTopic)) {
            return lastTopicOutcomes;
        }
        lastTopicOutcomes = outcomesByMap(inputTopic);
        lastTopic = inputTopic;
        return lastTopicOutcomes;
    }

    private OutcomeCounter[] outcomesByMap(String inputTopic) {
        OutcomeCounter[] outcomes = byTopic.get(inputTopic);
        if (outcomes == null) {
            outcomes = new OutcomeCounter[Outcome.values().length];
            for (Outcome outcome : Outcome.values()) {
                if (outcome != Outcome.REJECTED) { // counted by rule
                    OutcomeCounter counter = counter(inputTopic, outcome, Map.of());
                    addRecordsTotal(counter.sensor(), inputTopic, outcome);
                    outcomes[outcome.ordinal()] = counter;
                }
            }
            Sensor deadLettered =
                    metrics.addSensor(sensorName(Outcome.REJECTED, inputTopic, Map.of()), Sensor.RecordingLevel.INFO);
            addRecordsTotal(deadLettered, inputTopic, Outcome.REJECTED);
            deadLetteredByTopic.put(inputTopic, deadLettered);
            byTopic.put(inputTopic, outcomes);
        }
        return outcomes;
    }

    private OutcomeCounter counter(
            String inputTopic, Outcome outcome, Map<String, String> extraTags, Sensor... parents) {
        String operation = metricName(outcome);
        Map<String, String> tags = tags(inputTopic);
        tags.putAll(extraTags);
        Sensor sensor =
                metrics.addSensor(sensorName(outcome, inputTopic, extraTags), Sensor.RecordingLevel.INFO, parents);
        OutcomeCounter counter = OutcomeCounter.on(
                sensor,
                new MetricName(
                        operation + "-rate", GROUP, "The average number of " + operation + " records per second", tags),
                new MetricName(operation + "-total", GROUP, "The total number of " + operation + " records", tags));
        counters.add(counter);
        return counter;
    }

    /** {@code records-total} with the outcome as a tag, on {@code sensor}. */
    private void addRecordsTotal(Sensor sensor, String inputTopic, Outcome outcome) {
        Map<String, String> tags = tags(inputTopic);
        tags.put("outcome", metricName(outcome));
        sensor.add(
                new MetricName("records-total", GROUP, "The total number of records, by outcome", tags),
                new CumulativeSum());
    }

    private Map<String, String> tags(String inputTopic) {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("thread-id", thread);
        tags.put(SCOPE + "-id", entity);
        tags.put("topic", inputTopic);
        return tags;
    }

    /** A sensor's name, unique per thread, task, outcome, topic and extra tags, as Kafka names them. */
    private String sensorName(Outcome outcome, String inputTopic, Map<String, String> extraTags) {
        StringBuilder name = new StringBuilder("external.")
                .append(thread)
                .append(".entity.")
                .append(entity)
                .append(".s.")
                .append(metricName(outcome))
                .append(".topic.")
                .append(inputTopic);
        extraTags.forEach(
                (key, value) -> name.append('.').append(key).append('.').append(value));
        return name.toString();
    }

    /**
     * {@code passed}, {@code replaced}, ...: the outcome's label; a rejected record is a dead letter
     * here, {@code dead-lettered}. Metric names, so they never change.
     */
    static String metricName(Outcome outcome) {
        return outcome == Outcome.REJECTED ? "dead-lettered" : outcome.label();
    }

    /** Removes the sensors and their metrics, as Kafka's own processor nodes do when a task closes. */
    @Override
    public void close() {
        counters.forEach(counter -> metrics.removeSensor(counter.sensor()));
        deadLetteredByTopic.values().forEach(metrics::removeSensor);
        counters.clear();
        deadLetteredByTopic.clear();
        byTopic.clear();
        deadLetteredByTopicAndRule.clear();
        lastTopic = null;
        lastTopicOutcomes = null;
    }
}
