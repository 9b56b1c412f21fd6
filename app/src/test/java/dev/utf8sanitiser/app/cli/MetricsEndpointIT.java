package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.SanitiserConfigFile;
import dev.utf8sanitiser.config.SanitiserConfigLoader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} of a running sanitiser on a real broker, read as Prometheus reads it: the values
 * of the dead-letter counters by rule (1, 1 and 2 here; they once read 4, 3 and 2), the outcome
 * counters from the start, without the minute Micrometer's binder took to find new series, and the
 * JVM's and the process's metrics.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(SharedKafka.class)
class MetricsEndpointIT {
    private static final String IN = SharedKafka.unique("metrics-in");

    @TempDir
    Path dir;

    @Test
    void metricsAreExportedWithTheirValuesPromptly(EmbeddedKafka kafka) throws Exception {
        kafka.createTopics(1, IN);
        Path config = SanitiserConfigFile.write(dir, kafka, IN, "sanitiser.http.port=0");
        try (SanitiserApplication app = SanitiserApplication.start(
                SanitiserConfigLoader.fromSystemEnvironment().load(config), true)) {
            // The outcome counters are there at 0 once the task runs, before any record.
            long start = System.nanoTime();
            String before = awaitMetrics(app.healthPort(), body -> value(body, "passed_total", null) == 0.0);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("MetricsEndpointIT: passed_total on /metrics " + millis + " ms after start");
            assertThat(before)
                    .contains("jvm_memory_used_bytes")
                    .contains("jvm_threads_live_threads")
                    .contains("process_cpu_usage")
                    .contains("process_uptime_seconds")
                    .contains("process_files_open_files");

            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
                for (byte[] value : List.of(
                        bytes(0x61, 0xC0, 0xAF),
                        bytes(0x61, 0xED, 0xA0, 0x80),
                        bytes(0x61, 0xE2, 0x82),
                        bytes(0x62, 0xF0, 0x9F, 0x98),
                        bytes(0x6F, 0x6B))) {
                    producer.send(new ProducerRecord<>(IN, value)).get();
                }
            }
            System.gc(); // so that the GC pause timer (registered at the first collection) is there
            String after = awaitMetrics(
                    app.healthPort(),
                    body -> value(body, "passed_total", null) == 1.0
                            && value(body, "dead_lettered_total", "TRUNCATED_AT_END") == 2.0
                            && body.contains("jvm_gc_pause_seconds_sum"));
            assertThat(value(after, "dead_lettered_total", "NON_SHORTEST_FORM")).isEqualTo(1.0);
            assertThat(value(after, "dead_lettered_total", "SURROGATE")).isEqualTo(1.0);

            // Every metric the shipped dashboard and alert rules use is really exported.
            Path repo = Path.of(System.getProperty("repo.dir", "."));
            for (Path file : List.of(
                    repo.resolve("deploy/grafana/utf8-sanitiser.json"), repo.resolve("deploy/prometheus/alerts.yml"))) {
                Set<String> names = metricNames(Files.readString(file));
                assertThat(names).as(file + " uses metrics").isNotEmpty();
                for (String name : names) {
                    assertThat(after)
                            .as(name + ", used in " + repo.relativize(file) + ", is on /metrics")
                            .containsPattern("(?m)^" + name + "[{ ]");
                }
            }
            assertThat(after.lines().filter(l -> l.startsWith("kafka_stream_utf8_sanitiser_dead_lettered_total")))
                    .as("labelled with the input topic")
                    .hasSize(3)
                    .allMatch(l -> l.contains("topic=\"" + IN + "\""));
            assertThat(value(after, "dead_lettered_total", "TRUNCATED_AT_END")).isEqualTo(2.0);
        }
    }

    /**
     * The metric names a PromQL text uses: plain names, and the names a {@code __name__=~"a_(b|c)_d"}
     * matcher spells out. Histogram series ({@code _sum}, {@code _count}) are named as exported.
     */
    static Set<String> metricNames(String text) {
        Set<String> names = new TreeSet<>();
        Matcher alternatives = Pattern.compile("__name__=~\\\\?\"([a-z_]*)\\(([a-z_|]+)\\)([a-z_]*)\\\\?\"")
                .matcher(text);
        StringBuilder rest = new StringBuilder();
        while (alternatives.find()) {
            for (String middle : alternatives.group(2).split("\\|")) {
                names.add(alternatives.group(1) + middle + alternatives.group(3));
            }
            alternatives.appendReplacement(rest, "");
        }
        alternatives.appendTail(rest);
        Matcher plain = Pattern.compile("\\b(?:kafka|utf8_sanitiser|jvm|process)_[a-z0-9_]*[a-z0-9]\\b")
                .matcher(rest);
        while (plain.find()) {
            names.add(plain.group());
        }
        return names;
    }

    /** The value of {@code kafka_stream_utf8_sanitiser_<name>}, of the series with {@code rule} if given; -1 if absent. */
    private static double value(String body, String name, String rule) {
        Pattern series = Pattern.compile("(?m)^kafka_stream_utf8_sanitiser_" + name + "\\{([^}]*)\\} (\\S+)$");
        Matcher matcher = series.matcher(body);
        while (matcher.find()) {
            String labels = matcher.group(1);
            if (rule == null || labels.contains("rule=\"" + rule + "\"")) {
                return Double.parseDouble(matcher.group(2));
            }
        }
        return -1;
    }

    private static String awaitMetrics(int port, Predicate<String> until) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
        String body = "";
        while (System.nanoTime() < deadline) {
            body = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            if (until.test(body)) {
                return body;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("/metrics never showed what was expected within 45 s (Micrometer's binder"
                + " looked for new series once a minute); the sanitiser's series:\n"
                + body.lines().filter(l -> l.contains("utf8_sanitiser")).reduce("", (a, b) -> a + b + "\n"));
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }
}
