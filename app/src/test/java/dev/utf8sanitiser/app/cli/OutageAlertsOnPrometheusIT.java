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
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alerts of faults, on a real Prometheus server scraping a real sanitiser (as {@link
 * AlertRulesOnPrometheusIT}): a stopped broker makes {@code Utf8SanitiserNotReady} fire, and a
 * stream thread that really fails makes {@code Utf8SanitiserStreamThreadFailed} fire; each is
 * quiet before. The rules are a copy of {@code alerts.yml} whose {@code for:} durations are
 * shortened to {@value #FOR}, nothing else changed ({@link #shortened}), so that a test can wait
 * for them. Each waits on what Prometheus scraped and evaluated, never for a fixed time.
 *
 * <p>{@code Utf8SanitiserNoRecordsProcessed} is not here: its 10 minutes are in its expression's
 * range, not in a {@code for:}. The partition alerts do not fire for a single broker that stops:
 * with no broker left the partition check gets no answer and its last report stands; that the
 * cluster is gone is {@code Utf8SanitiserNotReady}'s, with the reason on {@code /health/ready}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OutageAlertsOnPrometheusIT {
    /** The {@code for:} of every rule in the test copy. */
    static final String FOR = "5s";

    private static final Pattern FOR_LINE = Pattern.compile("(\\s+)for: \\S+\\s*");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /**
     * The broker the second test stops, its own: started in the background while the first test
     * runs on the shared one, since a broker's start is most of this class's time.
     */
    private static CompletableFuture<EmbeddedKafka> own;

    @TempDir
    Path dir;

    @BeforeAll
    static void startABrokerToStop() {
        if (PrometheusServer.binary().isPresent()) {
            own = CompletableFuture.supplyAsync(EmbeddedKafka::start);
        }
    }

    @AfterAll
    static void stopIt() {
        if (own != null) {
            own.thenAccept(EmbeddedKafka::close).exceptionally(e -> null).join();
        }
    }

    @Test
    @Order(2)
    void aStoppedBrokerMakesTheNotReadyAlertFire() throws Exception {
        Optional<Path> prometheus = PrometheusServer.binary();
        assumeTrue(prometheus.isPresent(), "no prometheus binary on the path (Debian: apt-get install prometheus)");
        try (EmbeddedKafka kafka = own.join()) {
            String in = "outage-in";
            kafka.createTopics(1, in);
            // Closed with its broker gone: a short shutdown timeout, so that the close does not wait long.
            Path config = SanitiserConfigFile.write(
                    dir, kafka, in, "sanitiser.http.port=0", "sanitiser.shutdown.timeout.ms=3000");
            try (SanitiserApplication app = SanitiserApplication.start(
                            SanitiserConfigLoader.fromSystemEnvironment().load(config), true);
                    PrometheusServer server =
                            PrometheusServer.start(prometheus.get(), dir, app.healthPort(), shortened(dir))) {
                // Ready in every scrape of the last 8 s, longer than the `for`, and no alert of a
                // cluster fault pending or firing in the last 6 s of them (an evaluation reads the
                // scrape before it): an expression that held while ready would have fired by now.
                server.await("ready for 8 s", () -> !server.query("min_over_time(utf8_sanitiser_ready[8s]) == 1"
                                + " and count_over_time(utf8_sanitiser_ready[8s]) >= 6")
                        .isEmpty());
                assertThat(
                                server.query(
                                        "max_over_time(ALERTS{alertname=~\"Utf8SanitiserNotReady|Utf8SanitiserPartition.*\"}[6s])"))
                        .as("alerts of a cluster fault before the broker stops")
                        .isEmpty();
                assertThat(server.query("max_over_time(utf8_sanitiser_partitions_leaderless[8s]) == 0"
                                + " and max_over_time(utf8_sanitiser_partitions_under_min_isr[8s]) == 0"))
                        .as("the partition gauges scraped at 0")
                        .hasSize(1);

                long stop = System.nanoTime();
                kafka.stopBroker(true);
                Map<String, JsonNode> rules = server.await(
                        "Utf8SanitiserNotReady firing",
                        () -> state(server.rules(), "Utf8SanitiserNotReady").equals("firing") ? server.rules() : null);
                System.out.printf(
                        "Utf8SanitiserNotReady fired %.1f s after the broker stopped (for: %s)%n",
                        (System.nanoTime() - stop) / 1e9, FOR);
                String instance = "127.0.0.1:" + app.healthPort();
                JsonNode alert =
                        rules.get("Utf8SanitiserNotReady").get("alerts").get(0);
                assertThat(alert.get("labels").get("instance").asText()).isEqualTo(instance);
                assertThat(alert.get("labels").get("severity").asText()).isEqualTo("critical");
                assertThat(summary(rules, "Utf8SanitiserNotReady"))
                        .isEqualTo("utf8-sanitiser " + instance
                                + " not ready for 5 minutes (not RUNNING, or the Kafka cluster does not answer)");
                // The runbook's cluster reason, on the probe the gauge mirrors.
                HttpResponse<String> ready = HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://" + instance + "/health/ready"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(ready.statusCode()).isEqualTo(503);
                assertThat(ready.body()).contains("cannot reach the Kafka cluster at " + kafka.bootstrapServers());
                for (String quiet : List.of(
                        "Utf8SanitiserPartitionLeaderless",
                        "Utf8SanitiserPartitionUnderMinIsr",
                        "Utf8SanitiserStreamThreadFailed",
                        "Utf8SanitiserCircuitBreakerOpen",
                        "Utf8SanitiserHangingTransaction")) {
                    assertThat(state(rules, quiet)).as(quiet).isEqualTo("inactive");
                }
                healthy(rules);
            }
        }
    }

    /**
     * A stream thread that fails for real: Avro values, a Schema Registry that does not answer
     * (nothing listens on its port), and {@code sanitiser.on.fatal.error=replace_thread}, under
     * which the sanitiser starts without the registry. The first record's schema lookup gives up
     * after its retry budget and throws out of the processor; Kafka Streams counts the failed
     * thread and starts another, which fails again on the same record.
     */
    @Test
    @Order(1)
    @ExtendWith(SharedKafka.class)
    void aFailedStreamThreadMakesTheThreadAlertFire(EmbeddedKafka kafka) throws Exception {
        Optional<Path> prometheus = PrometheusServer.binary();
        assumeTrue(prometheus.isPresent(), "no prometheus binary on the path (Debian: apt-get install prometheus)");
        String in = SharedKafka.unique("thread-in");
        kafka.createTopics(1, in);
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        Path config = SanitiserConfigFile.write(
                dir,
                kafka,
                in,
                "sanitiser.http.port=0",
                "sanitiser.payload.format=avro",
                "schema.registry.url=http://127.0.0.1:" + deadPort,
                "sanitiser.on.fatal.error=replace_thread",
                "sanitiser.registry.retry.timeout.ms=300",
                "max.retries=1",
                "retries.wait.ms=50",
                "sanitiser.shutdown.timeout.ms=3000");
        try (SanitiserApplication app = SanitiserApplication.start(
                        SanitiserConfigLoader.fromSystemEnvironment().load(config), true);
                PrometheusServer server =
                        PrometheusServer.start(prometheus.get(), dir, app.healthPort(), shortened(dir))) {
            server.await("no failed thread in every scrape of the last 5 s", () -> !server.query(
                            "max_over_time(kafka_stream_failed_stream_threads_total[5s]) == 0"
                                    + " and count_over_time(kafka_stream_failed_stream_threads_total[5s]) >= 4")
                    .isEmpty());
            assertThat(server.query("max_over_time(ALERTS{alertname=\"Utf8SanitiserStreamThreadFailed\"}[5s])"))
                    .as("the thread alert before any thread failed")
                    .isEmpty();
            assertThat(state(server.rules(), "Utf8SanitiserStreamThreadFailed")).isEqualTo("inactive");

            long produced = System.nanoTime();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
                // Confluent's framing: magic byte 0, schema id 7, then the Avro body (a string "ok").
                byte[] framed = {0, 0, 0, 0, 7, 4, 'o', 'k'};
                producer.send(new ProducerRecord<>(in, framed)).get();
            }
            Map<String, JsonNode> rules = server.await(
                    "Utf8SanitiserStreamThreadFailed firing",
                    () -> state(server.rules(), "Utf8SanitiserStreamThreadFailed")
                                    .equals("firing")
                            ? server.rules()
                            : null);
            System.out.printf(
                    "Utf8SanitiserStreamThreadFailed fired %.1f s after the record%n",
                    (System.nanoTime() - produced) / 1e9);
            String instance = "127.0.0.1:" + app.healthPort();
            JsonNode alert =
                    rules.get("Utf8SanitiserStreamThreadFailed").get("alerts").get(0);
            assertThat(alert.get("labels").get("instance").asText()).isEqualTo(instance);
            assertThat(alert.get("labels").get("job").asText()).isEqualTo("sanitiser");
            assertThat(alert.get("labels").get("severity").asText()).isEqualTo("warning");
            assertThat(summary(rules, "Utf8SanitiserStreamThreadFailed"))
                    .isEqualTo(
                            "utf8-sanitiser " + instance + ": a stream thread failed (see sanitiser.on.fatal.error)");
            assertThat(server.query("kafka_stream_failed_stream_threads_total").values())
                    .as("failed stream threads, as scraped")
                    .allMatch(count -> count >= 1);
            assertThat(app.isStopped())
                    .as("the thread was replaced; the application runs on")
                    .isFalse();
            for (String quiet : List.of(
                    "Utf8SanitiserCircuitBreakerOpen",
                    "Utf8SanitiserHangingTransaction",
                    "Utf8SanitiserPartitionLeaderless",
                    "Utf8SanitiserPartitionUnderMinIsr",
                    "Utf8SanitiserDeadLetterRateHigh")) {
                assertThat(state(rules, quiet)).as(quiet).isEqualTo("inactive");
            }
            healthy(rules);
        }
    }

    private static void healthy(Map<String, JsonNode> rules) {
        assertThat(rules).hasSize(9);
        rules.forEach((name, rule) -> assertThat(rule.get("health").asText())
                .as(name + ": " + rule.path("lastError"))
                .isEqualTo("ok"));
    }

    /**
     * A copy of {@code alerts.yml} in {@code dir} with every {@code for:} set to {@link #FOR} and
     * every other line as it is, which this checks line by line.
     */
    static Path shortened(Path dir) throws Exception {
        List<String> lines = Files.readAllLines(PrometheusServer.ALERTS);
        List<String> copy = new ArrayList<>();
        copy.add("# A test copy of deploy/prometheus/alerts.yml: every `for:` is " + FOR + ", nothing else changed.");
        int changed = 0;
        for (String line : lines) {
            var match = FOR_LINE.matcher(line);
            if (match.matches()) {
                copy.add(match.group(1) + "for: " + FOR);
                changed++;
            } else {
                copy.add(line);
            }
        }
        assertThat(copy.subList(1, copy.size()))
                .as("the copy differs from alerts.yml in its `for:` lines only")
                .hasSameSizeAs(lines);
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).equals(copy.get(i + 1))) {
                assertThat(lines.get(i)).matches(FOR_LINE);
            }
        }
        assertThat(changed).as("`for:` lines in alerts.yml").isGreaterThanOrEqualTo(5);
        return Files.write(dir.resolve("alerts-short-for.yml"), copy);
    }
}
