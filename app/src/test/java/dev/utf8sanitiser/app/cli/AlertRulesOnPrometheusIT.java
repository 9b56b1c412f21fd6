package dev.utf8sanitiser.app.cli;

import static dev.utf8sanitiser.app.cli.PrometheusServer.state;
import static dev.utf8sanitiser.app.cli.PrometheusServer.summary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.SanitiserConfigFile;
import dev.utf8sanitiser.config.SanitiserConfigLoader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped alert rules and dashboard queries on a real Prometheus server (the {@code prometheus}
 * binary on the path, Debian's package here; skipped without it, and .ci/run installs it and checks
 * that this ran) scraping a real sanitiser on a real broker: every rule evaluates without error,
 * every dashboard query evaluates to series, the alerts whose condition the records make true go
 * pending or fire, and the others stay quiet. {@code promtool test rules} checks the rules on
 * series written by hand; this checks them on the labels {@code /metrics} really has.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
// Runs with no other test class beside it (the "timing" tag, app/pom.xml): it waits on scrape and evaluation intervals.
@Tag("timing")
@ExtendWith(SharedKafka.class)
class AlertRulesOnPrometheusIT {
    private static final String IN = SharedKafka.unique("alerts-in");

    @TempDir
    Path dir;

    @Test
    void everyRuleAndPanelEvaluatesAndTheAlertsFireOnlyWhenTheyShould(EmbeddedKafka kafka) throws Exception {
        Optional<Path> prometheus = PrometheusServer.binary();
        assumeTrue(prometheus.isPresent(), "no prometheus binary on the path (Debian: apt-get install prometheus)");
        kafka.createTopics(1, IN);
        Path config = SanitiserConfigFile.write(dir, kafka, IN, "sanitiser.http.port=0");
        try (SanitiserApplication app = SanitiserApplication.start(
                        SanitiserConfigLoader.fromSystemEnvironment().load(config), true);
                PrometheusServer server =
                        PrometheusServer.start(prometheus.get(), dir, app.healthPort(), PrometheusServer.ALERTS)) {
            // The counters are scraped at zero first, so that the records below are an increase.
            server.await("the sanitiser's counters scraped", () -> !server.query(
                            "kafka_stream_utf8_sanitiser_records_total{topic=\"" + IN + "\"}")
                    .isEmpty());
            produce(kafka, List.of(bytes(0x61, 0xC0, 0xAF), bytes(0x61, 0xED, 0xA0, 0x80), bytes(0x6F, 0x6B)));
            System.gc(); // so that the GC pause timer the dashboard reads is there

            // Two of three records dead-lettered: the share alert's condition holds (it waits 10
            // minutes before it fires), and each rule is new to this topic. A scrape may fall
            // between the records, so the alerts are read once the last scrape has all three.
            server.await("all three records scraped", () -> server.query(
                            "sum(kafka_stream_utf8_sanitiser_records_total{topic=\"" + IN + "\"})")
                    .containsValue(3.0));
            Map<String, JsonNode> alerts = server.await("the dead-letter alerts active", () -> {
                Map<String, JsonNode> rules = server.rules();
                return state(rules, "Utf8SanitiserDeadLetterRateHigh").equals("pending")
                                && summary(rules, "Utf8SanitiserDeadLetterRateHigh")
                                        .equals(IN + ": 66.67% of records dead-lettered")
                                && state(rules, "Utf8SanitiserNewRule").equals("firing")
                                && rules.get("Utf8SanitiserNewRule")
                                                .get("alerts")
                                                .size()
                                        == 2
                        ? rules
                        : null;
            });
            assertThat(alerts).hasSize(9);
            // The breaker's gauge with the labels the alert reads: the listed topic's, closed.
            server.await("the circuit breaker gauge scraped", () -> !server.query(
                            "utf8_sanitiser_circuit_breaker_open{topic=\"" + IN + "\"} == 0")
                    .isEmpty());
            alerts.forEach((name, rule) -> {
                assertThat(rule.get("health").asText())
                        .as(name + ": " + rule.path("lastError"))
                        .isEqualTo("ok");
                assertThat(rule.path("lastError").asText()).as(name).isEmpty();
            });
            JsonNode share =
                    alerts.get("Utf8SanitiserDeadLetterRateHigh").get("alerts").get(0);
            assertThat(share.get("labels").get("topic").asText()).isEqualTo(IN);
            assertThat(share.get("annotations").get("summary").asText())
                    .isEqualTo(IN + ": 66.67% of records dead-lettered");
            List<String> newRules = new ArrayList<>();
            alerts.get("Utf8SanitiserNewRule")
                    .get("alerts")
                    .forEach(a -> newRules.add(a.get("labels").get("rule").asText()));
            assertThat(newRules).containsExactlyInAnyOrder("NON_SHORTEST_FORM", "SURROGATE");
            for (String quiet : List.of(
                    "Utf8SanitiserNoRecordsProcessed",
                    "Utf8SanitiserNotReady",
                    "Utf8SanitiserHangingTransaction",
                    "Utf8SanitiserStreamThreadFailed",
                    "Utf8SanitiserCircuitBreakerOpen",
                    "Utf8SanitiserPartitionLeaderless",
                    "Utf8SanitiserPartitionUnderMinIsr")) {
                assertThat(state(alerts, quiet)).as(quiet).isEqualTo("inactive");
            }

            // Every query of the dashboard evaluates, to at least one series.
            JsonNode dashboard = PrometheusServer.JSON.readTree(PrometheusServer.REPO
                    .resolve("deploy/grafana/utf8-sanitiser.json")
                    .toFile());
            List<String> queries = dashboard.findValuesAsText("expr");
            assertThat(queries).hasSizeGreaterThanOrEqualTo(10);
            for (String query : queries) {
                server.await("the dashboard query " + query, () -> !server.query(query)
                        .isEmpty());
            }
            assertThat(server.query(
                            "sum by (outcome) (kafka_stream_utf8_sanitiser_records_total{topic=\"" + IN + "\"})"))
                    .as("the outcome counter by outcome")
                    .containsEntry("{outcome=\"passed\"}", 1.0)
                    .containsEntry("{outcome=\"dead-lettered\"}", 2.0)
                    .containsEntry("{outcome=\"replaced\"}", 0.0);
        }
    }

    private static void produce(EmbeddedKafka kafka, List<byte[]> values) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>(IN, value)).get();
            }
        }
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }
}
