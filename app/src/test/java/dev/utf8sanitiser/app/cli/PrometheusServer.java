package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Prometheus server (the {@code prometheus} binary on the path) in a child process, scraping
 * one sanitiser and evaluating a rules file every second, for the tests of the shipped alert rules.
 */
record PrometheusServer(Process process, String url) implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path REPO = Path.of(System.getProperty("repo.dir", "."));
    static final Path ALERTS = REPO.resolve("deploy/prometheus/alerts.yml");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** The {@code prometheus} binary on the path, if there is one. */
    static Optional<Path> binary() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(directory -> Path.of(directory, "prometheus"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** Starts it in {@code dir}, scraping the sanitiser on {@code sanitiserPort}, and waits until it is ready. */
    static PrometheusServer start(Path binary, Path dir, int sanitiserPort, Path rules) throws Exception {
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
                        "  - " + rules.toAbsolutePath(),
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
        PrometheusServer server = new PrometheusServer(process, "http://127.0.0.1:" + port);
        server.await("Prometheus ready", () -> {
            HttpResponse<String> ready = server.get("/-/ready");
            return ready != null && ready.statusCode() == 200;
        });
        return server;
    }

    /** The value of each series of an instant query, by its labels. */
    Map<String, Double> query(String promql) throws Exception {
        JsonNode answer = JSON.readTree(get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                .body());
        assertThat(answer.get("status").asText())
                .as(promql + ": " + answer.path("error").asText())
                .isEqualTo("success");
        Map<String, Double> values = new TreeMap<>();
        for (JsonNode series : answer.get("data").get("result")) {
            StringJoiner labels = new StringJoiner(",", "{", "}");
            series.get("metric")
                    .fields()
                    .forEachRemaining(
                            l -> labels.add(l.getKey() + "=\"" + l.getValue().asText() + "\""));
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

    /** The state of an alerting rule: {@code inactive}, {@code pending} or {@code firing}. */
    static String state(Map<String, JsonNode> rules, String alert) {
        JsonNode rule = rules.get(alert);
        return rule == null ? "missing" : rule.get("state").asText();
    }

    /** The summary of the rule's first alert, empty without one. */
    static String summary(Map<String, JsonNode> rules, String alert) {
        return rules.get(alert)
                .path("alerts")
                .path(0)
                .path("annotations")
                .path("summary")
                .asText();
    }

    HttpResponse<String> get(String path) throws Exception {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create(url + path)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException notYet) { // not listening yet
            return null;
        }
    }

    /** Waits up to 90 s for {@code check} to give a value, reading it every 250 ms. */
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

    /** A condition that gives its value when it holds, {@code null} or {@code false} until then. */
    @FunctionalInterface
    interface Check<T> {
        T value() throws Exception;
    }
}
