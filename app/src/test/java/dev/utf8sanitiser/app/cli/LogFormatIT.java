package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log layout of the application jar as users run it: text by default, one JSON object (ECS)
 * a line with {@code UTF8_SANITISER_LOG_FORMAT=json}. Run against the shaded jar, where Log4j's
 * plugin caches must be merged for the JSON layout to exist at all.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LogFormatIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void jsonLogsAreOneObjectALineAndTextStaysTheDefault() throws Exception {
        Path config = dir.resolve("unreachable.properties");
        // Nothing listens on port 1: run logs that it connects, then gives up after 3 s (exit 1).
        Files.writeString(
                config,
                "application.id=log-format\nbootstrap.servers=127.0.0.1:1\nsanitiser.input.topics=in\n"
                        + "sanitiser.startup.timeout.ms=3000\n");

        // Both JVMs at once: each waits out its 3 s alone.
        Process jsonRun = start(config, "json");
        Process textRun = start(config, null);
        List<String> json = output(jsonRun);
        List<JsonNode> events = new ArrayList<>();
        for (String line : json) {
            if (!line.startsWith("utf8-sanitiser: ")) { // the command's own one-line diagnosis
                events.add(JSON.readTree(line));
            }
        }
        assertThat(events).isNotEmpty();
        assertThat(events).allSatisfy(event -> {
            assertThat(event.get("@timestamp").asText()).isNotEmpty();
            assertThat(event.get("log.level").asText()).isIn("DEBUG", "INFO", "WARN", "ERROR");
            assertThat(event.get("log.logger").asText()).isNotEmpty();
        });
        assertThat(events)
                .anySatisfy(event -> assertThat(event.get("message").asText()).startsWith("connecting to the Kafka"));

        List<String> text = output(textRun);
        assertThat(text).anySatisfy(line -> assertThat(line).contains(" INFO  SanitiserApplication: connecting"));
        assertThat(text).noneSatisfy(line -> assertThat(line).startsWith("{"));
    }

    private Process start(Path config, String format) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        applicationJar().toString(),
                        "run",
                        "--config",
                        config.toString())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().remove("UTF8_SANITISER_LOG_FORMAT");
        if (format != null) {
            builder.environment().put("UTF8_SANITISER_LOG_FORMAT", format);
        }
        return builder.start();
    }

    private static List<String> output(Process process) throws IOException, InterruptedException {
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(1);
        return new String(output, StandardCharsets.UTF_8)
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
    }

    /** The shaded jar {@code package} made before the integration tests. */
    private static Path applicationJar() throws IOException {
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(Path.of("target"), "*-app.jar")) {
            for (Path jar : jars) {
                return jar.toAbsolutePath();
            }
        }
        throw new IllegalStateException("no application jar in target/: run the package phase first");
    }
}
