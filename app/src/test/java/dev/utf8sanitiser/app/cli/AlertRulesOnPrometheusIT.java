package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.SanitiserConfigFile;
import dev.utf8sanitiser.config.SanitiserConfigLoader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Path REPO = Path.of(System.getProperty("repo.dir", "."));

    @TempDir
    Path dir;

    @Test
    void everyRuleAndPanelEvaluatesAndTheAlertsFireOnlyWhenTheyShould(EmbeddedKafka kafka) throws Exception {
        Optional<Path> prometheus = onPath("prometheus");
        assumeTrue(prometheus.isPresent(), "no prometheus binary on the path (Debian: apt-get install prometheus)");
        kafka.createTopics(1, IN);
        Path config = SanitiserConfigFile.write(dir, kafka, IN, "sanitiser.http.port=0");
        try (SanitiserApplication app = SanitiserApplication.start(
                        SanitiserConfigLoader.fromSystemEnvironment().load(config), true);
                Server server = Server.start(prometheus.get(), dir, app.healthPort())) {
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
            JsonNode dashboard = JSON.readTree(
                    REPO.resolve("deploy/grafana/utf8-sanitiser.json").toFile());
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

    private static String summary(Map<String, JsonNode> rules, String alert) {
        return rules.get(alert)
                .path("alerts")
                .path(0)
                .path("annotations")
                .path("summary")
                .asText();
    }

    private static String state(Map<String, JsonNode> rules, String alert) {
        JsonNode rule = rules.get(alert);
        return rule == null ? "missing" : rule.get("state").asText();
    }

    private static void produce(EmbeddedKafka kafka, List<byte[]> values) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>(IN, value)).get();
            }
        }
    }

    private static Optional<Path> onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(directory -> Path.of(directory, program))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    /** A Prometheus server in a child process, scraping and evaluating every second. */
    private record Server(Process process, String url) implements AutoCloseable {
        static Server start(Path binary, Path dir, int sanitiserPort) throws Exception {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(
                    config,
                    String.join(
                            "\n",
                            "global:",
                            "  scrape_interval: 1s",
                            "  evaluation_interval: 1s",
                            "rule_files:",
                            "  - "
                                    + REPO.resolve("deploy/prometheus/alerts.yml")
                                            .toAbsolutePath(),
                            "scrape_configs:",
                            "  - job_name: sanitiser",
                            "    static_configs:",
                            "      - targets: ['127.0.0.1:" + sanitiserPort + "']",
                            ""));
            Process process = new ProcessBuilder(
                            binary.toString(),
                            "--config.file=" + config,
                            "--storage.tsdb.path=" + dir.resolve("tsdb"),
                            "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("prometheus.log").toFile())
                    .start();
            Server server = new Server(process, "http://127.0.0.1:" + port);
            server.await("Prometheus ready", () -> {
                HttpResponse<String> ready = server.get("/-/ready");
                return ready != null && ready.statusCode() == 200;
            });
            return server;
        }

        /** The value of each series of an instant query, by its labels. */
        Map<String, Double> query(String promql) throws Exception {
            JsonNode answer =
                    JSON.readTree(get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                            .body());
            assertThat(answer.get("status").asText())
                    .as(promql + ": " + answer.path("error").asText())
                    .isEqualTo("success");
            Map<String, Double> values = new TreeMap<>();
            for (JsonNode series : answer.get("data").get("result")) {
                StringJoiner labels = new StringJoiner(",", "{", "}");
                series.get("metric")
                        .fields()
                        .forEachRemaining(l ->
                                labels.add(l.getKey() + "=\"" + l.getValue().asText() + "\""));
                values.put(labels.toString(), series.get("value").get(1).asDouble());
            }
            return values;
        }

        /** The alerting rules, by name. */
        Map<String, JsonNode> rules() throws Exception {
            Map<String, JsonNode> rules = new TreeMap<>();
            for (JsonNode group :
                    JSON.readTree(get("/api/v1/rules").body()).get("data").get("groups")) {
                for (JsonNode rule : group.get("rules")) {
                    rules.put(rule.get("name").asText(), rule);
                }
            }
            return rules;
        }

        HttpResponse<String> get(String path) throws Exception {
            try {
                return HTTP.send(
                        HttpRequest.newBuilder(URI.create(url + path)).build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException notYet) { // not listening yet
                return null;
            }
        }

        <T> T await(String what, Check<T> check) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (System.nanoTime() < deadline) {
                assertThat(process.isAlive()).as("Prometheus is running").isTrue();
                T value = check.value();
                if (value != null && !Boolean.FALSE.equals(value)) {
                    return value;
                }
                Thread.sleep(250);
            }
            throw new AssertionError(what + ": not within 90 s; the rules: " + rules());
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** A condition that gives its value when it holds, {@code null} or {@code false} until then. */
    @FunctionalInterface
    private interface Check<T> {
        T value() throws Exception;
    }
}
