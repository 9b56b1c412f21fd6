package dev.utf8sanitiser.app.topology;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.streams.SanitiserMetrics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The values of the sanitiser's metrics, not only their names: each dead letter counts once, under
 * its own rule, whatever other rules were seen before (they used to share one sensor, so a dead
 * letter counted under every rule seen so far), and every outcome is there at zero from the start.
 */
class SanitiserMetricsTopologyTest {
    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start(Map<String, String> settings) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", "orders,payments");
        props.putAll(settings);
        Properties streams = new Properties();
        streams.put("application.id", "metrics-test");
        streams.put("bootstrap.servers", "unused:9092");
        driver = new TopologyTestDriver(SanitiserTopology.build(new SanitiserConfig(props)), streams);
    }

    @Test
    void eachDeadLetterCountsOnceUnderItsOwnRule() {
        start(Map.of());
        TestInputTopic<byte[], byte[]> in =
                driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer());
        List<byte[]> values = List.of(
                bytes(0x61, 0xC0, 0xAF), // an overlong '/'
                bytes(0x61, 0xED, 0xA0, 0x80), // a CESU-8 surrogate
                bytes(0x61, 0xE2, 0x82), // cut at the end
                bytes(0x62, 0xF0, 0x9F, 0x98), // cut at the end
                "well-formed".getBytes(UTF_8));
        values.forEach(in::pipeInput);
        recordPending();

        // The oracle: the rules the dead-letter records carry, counted.
        TestOutputTopic<byte[], byte[]> dlq =
                driver.createOutputTopic("orders.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Map<String, Double> byRuleInTheDlq = new TreeMap<>();
        for (TestRecord<byte[], byte[]> record : dlq.readRecordsToList()) {
            String rule = new String(record.headers().lastHeader("__utf8.rule").value(), UTF_8);
            byRuleInTheDlq.merge(rule, 1.0, Double::sum);
        }
        assertThat(byRuleInTheDlq)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("NON_SHORTEST_FORM", 1.0, "SURROGATE", 1.0, "TRUNCATED_AT_END", 2.0));

        assertThat(totalsByRule("dead-lettered-total")).isEqualTo(byRuleInTheDlq);
        assertThat(total("passed-total")).isEqualTo(1.0);
        // The rate is per rule too: one sensor each.
        assertThat(totalsByRule("dead-lettered-rate")).containsOnlyKeys(byRuleInTheDlq.keySet());
    }

    @Test
    void everyOutcomeIsExportedAtZeroBeforeTheFirstRecord() {
        start(Map.of());
        for (String outcome : List.of("passed", "replaced", "repaired", "stripped", "normalised")) {
            assertThat(driver.metrics().keySet())
                    .as(outcome + " exported")
                    .anyMatch(m ->
                            m.name().equals(outcome + "-total") && m.group().equals(SanitiserMetrics.GROUP));
            assertThat(total(outcome + "-total")).as(outcome).isEqualTo(0.0);
        }
    }

    @Test
    void replacedRecordsAreCountedUnderReplaced() {
        start(Map.of("sanitiser.policy", "replace"));
        TestInputTopic<byte[], byte[]> in =
                driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer());
        in.pipeInput(bytes(0x61, 0xC0, 0xAF));
        in.pipeInput(bytes(0x61, 0xED, 0xA0, 0x80));
        in.pipeInput(bytes(0x61));
        recordPending();
        assertThat(total("replaced-total")).isEqualTo(2.0);
        assertThat(total("passed-total")).isEqualTo(1.0);
        assertThat(totalsByRule("dead-lettered-total")).isEmpty();
    }

    @Test
    void eachInputTopicHasItsOwnCounters() {
        start(Map.of());
        TestInputTopic<byte[], byte[]> orders =
                driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer());
        TestInputTopic<byte[], byte[]> payments =
                driver.createInputTopic("payments", new ByteArraySerializer(), new ByteArraySerializer());
        // Interleaved, so that no record's topic is the one before's (the counters of the last
        // topic are kept at hand).
        orders.pipeInput(bytes(0x61));
        payments.pipeInput(bytes(0x63));
        orders.pipeInput(bytes(0x62));
        payments.pipeInput(bytes(0x61, 0xC0, 0xAF));
        recordPending();
        assertThat(totalsBy("passed-total", "topic")).isEqualTo(Map.of("orders", 2.0, "payments", 1.0));
        assertThat(totalsBy("dead-lettered-total", "topic")).isEqualTo(Map.of("payments", 1.0));
        assertThat(totalsBy("replaced-total", "topic")).isEqualTo(Map.of("orders", 0.0, "payments", 0.0));
    }

    @Test
    void aTopicMetThroughAPatternIsCountedFromItsFirstRecord() {
        start(Map.of("sanitiser.input.topics", "", "sanitiser.input.pattern", "ord[a-z]+"));
        assertThat(totalsBy("passed-total", "topic")).isEmpty();
        driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(bytes(0x61, 0xE2, 0x82));
        recordPending();
        assertThat(totalsBy("dead-lettered-total", "topic")).isEqualTo(Map.of("orders", 1.0));
        assertThat(totalsBy("passed-total", "topic")).isEqualTo(Map.of("orders", 0.0));
    }

    @Test
    void theMetricsOfAStreamThatGoesIdleGetItsLastRecordsFromThePunctuator() {
        start(Map.of());
        TestInputTopic<byte[], byte[]> in =
                driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer());
        in.pipeInput(bytes(0x61));
        in.pipeInput(bytes(0x62));
        in.pipeInput(bytes(0x61, 0xC0, 0xAF));

        // Each counter's last record waits for a record at a later time, or for the punctuator.
        assertThat(total("passed-total")).isLessThan(2.0);
        assertThat(totalsByRule("dead-lettered-total")).isEqualTo(Map.of("NON_SHORTEST_FORM", 0.0));

        driver.advanceWallClockTime(SanitiserMetrics.FLUSH_INTERVAL);

        assertThat(total("passed-total")).isEqualTo(2.0);
        assertThat(total("dead-lettered-total")).isEqualTo(1.0);
        assertThat(total("passed-rate")).isPositive();
        assertThat(total("passed-rate")).isEqualTo(2 * total("dead-lettered-rate"));
    }

    @Test
    void recordsTotalCountsEveryRecordOnceByOutcomeAndTopic() {
        start(Map.of("sanitiser.policy", "replace", "sanitiser.content.rules", "NUL:reject"));
        TestInputTopic<byte[], byte[]> orders =
                driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer());
        TestInputTopic<byte[], byte[]> payments =
                driver.createInputTopic("payments", new ByteArraySerializer(), new ByteArraySerializer());
        // Every outcome at zero from the start, a dead letter's too, with the same tags as the others.
        assertThat(recordsTotals()).hasSize(12).containsValue(0.0).doesNotContainValue(1.0);
        for (MetricName metric : driver.metrics().keySet()) {
            if (metric.name().equals("records-total")) {
                assertThat(metric.tags()).containsOnlyKeys("thread-id", "utf8-sanitiser-id", "topic", "outcome");
            }
        }
        orders.pipeInput(bytes(0x61));
        orders.pipeInput(bytes(0x61, 0xC0, 0xAF)); // replaced
        orders.pipeInput(bytes(0x61, 0x00)); // NUL: dead-lettered
        payments.pipeInput(bytes(0x61, 0x00, 0x62)); // NUL
        payments.pipeInput(bytes(0x00)); // NUL
        recordPending();

        Map<String, Double> totals = recordsTotals();
        assertThat(totals)
                .containsEntry("orders/passed", 1.0)
                .containsEntry("orders/replaced", 1.0)
                .containsEntry("orders/dead-lettered", 1.0)
                .containsEntry("payments/dead-lettered", 2.0)
                .containsEntry("payments/passed", 0.0);
        // The oracle: the per-outcome and per-rule counters, summed.
        assertThat(totals.get("payments/dead-lettered"))
                .isEqualTo(totalsBy("dead-lettered-total", "topic").get("payments"));
        assertThat(totals.values().stream().mapToDouble(Double::doubleValue).sum())
                .isEqualTo(5.0)
                .isEqualTo(total("passed-total") + total("replaced-total") + total("dead-lettered-total"));
    }

    /** {@code records-total} by topic and outcome, as {@code topic/outcome}. */
    private Map<String, Double> recordsTotals() {
        Map<String, Double> totals = new TreeMap<>();
        for (Map.Entry<MetricName, ? extends Metric> entry : driver.metrics().entrySet()) {
            MetricName metric = entry.getKey();
            if (metric.name().equals("records-total") && metric.group().equals(SanitiserMetrics.GROUP)) {
                totals.merge(
                        metric.tags().get("topic") + "/" + metric.tags().get("outcome"),
                        (Double) entry.getValue().metricValue(),
                        Double::sum);
            }
        }
        return totals;
    }

    /**
     * Runs the processor's punctuator, which hands the metrics the records counted at the task's
     * last cached time: until a record comes at a later time, they wait for it.
     */
    private void recordPending() {
        driver.advanceWallClockTime(SanitiserMetrics.FLUSH_INTERVAL);
    }

    private Map<String, Double> totalsByRule(String name) {
        return totalsBy(name, "rule");
    }

    private Map<String, Double> totalsBy(String name, String tag) {
        Map<String, Double> byRule = new TreeMap<>();
        for (Map.Entry<MetricName, ? extends Metric> entry : driver.metrics().entrySet()) {
            MetricName metric = entry.getKey();
            if (metric.name().equals(name) && metric.group().equals(SanitiserMetrics.GROUP)) {
                byRule.merge(metric.tags().get(tag), (Double) entry.getValue().metricValue(), Double::sum);
            }
        }
        return byRule;
    }

    private double total(String name) {
        return driver.metrics().entrySet().stream()
                .filter(e ->
                        e.getKey().name().equals(name) && e.getKey().group().equals(SanitiserMetrics.GROUP))
                .mapToDouble(e -> (Double) e.getValue().metricValue())
                .sum();
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }
}
