package dev.utf8sanitiser.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Kafka Connect worker in standalone mode in a child JVM ({@code ConnectStandalone
 * worker.properties}, no connector at start), on this JVM's class path: Kafka's connect-runtime,
 * the SMT and the counting sink. Connectors come and go through its REST API, so one worker, warmed
 * up once, runs every measured connector. A child JVM so that its CPU time is the worker's alone.
 */
final class ConnectWorker implements AutoCloseable {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path log;
    private final String rest;

    private ConnectWorker(Process process, Path log, String rest) {
        this.process = process;
        this.log = log;
        this.rest = rest;
    }

    static ConnectWorker start(Path directory, String bootstrapServers, List<String> jvmArgs) throws IOException {
        int port = freePort();
        Properties worker = new Properties();
        worker.setProperty("bootstrap.servers", bootstrapServers);
        worker.setProperty("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        worker.setProperty("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        worker.setProperty(
                "offset.storage.file.filename", directory.resolve("offsets").toString());
        // The plugins' ServiceLoader manifests rather than a reflective scan of the whole class path.
        worker.setProperty("plugin.discovery", "service_load");
        worker.setProperty("listeners", "http://127.0.0.1:" + port);
        Path workerProperties = directory.resolve("worker.properties");
        try (var out = Files.newBufferedWriter(workerProperties, UTF_8)) {
            worker.store(out, null);
        }
        Path log4j = Files.writeString(directory.resolve("log4j2.properties"), LOG4J, UTF_8);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(List.of(
                "-XX:+ExitOnOutOfMemoryError",
                "-Dlog4j2.configurationFile=" + log4j,
                "-cp",
                absoluteClassPath(),
                "org.apache.kafka.connect.cli.ConnectStandalone",
                workerProperties.toString()));
        Path log = directory.resolve("worker.log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        ConnectWorker started = new ConnectWorker(builder.start(), log, "http://127.0.0.1:" + port);
        started.awaitRest(Duration.ofSeconds(120));
        return started;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    /** Creates (or replaces) a connector and returns once the worker has accepted it. */
    void putConnector(String name, Map<String, String> config) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(rest + "/connectors/" + name + "/config"))
                        .timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("PUT connector " + name + ": HTTP " + response.statusCode() + " " + response.body());
        }
    }

    void deleteConnector(String name) throws IOException, InterruptedException {
        HTTP.send(
                HttpRequest.newBuilder(URI.create(rest + "/connectors/" + name))
                        .timeout(Duration.ofSeconds(60))
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The first task's state and trace, for a failure message; empty if it has none yet. */
    String taskFailure(String name) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(rest + "/connectors/" + name + "/status"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode tasks = JSON.readTree(response.body()).path("tasks");
            if (tasks.size() > 0 && tasks.get(0).path("state").asText().equals("FAILED")) {
                return tasks.get(0).path("trace").asText("FAILED");
            }
            return "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** The last lines of the worker's log, for a failure message. */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    private void awaitRest(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("The Connect worker exited during start-up; its log ends:\n" + logTail(40));
            }
            try {
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(URI.create(rest + "/connectors"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            sleep(250);
        }
        close();
        throw new IOException(
                "The Connect worker's REST API did not answer within " + timeout.toSeconds() + " s; its log: " + log);
    }

    /** Stops the worker as SIGTERM does (Connect stops its tasks first), then by force. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** This JVM's class path with every entry absolute: the worker runs in another directory. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Connect's own log at INFO, the clients' at WARN: the log stays small during the runs. */
    private static final String LOG4J = String.join(
            "\n",
            "status = warn",
            "appender.out.type = Console",
            "appender.out.name = out",
            "appender.out.layout.type = PatternLayout",
            "appender.out.layout.pattern = [%d] %p %m (%c)%n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.out.ref = out",
            "logger.clients.name = org.apache.kafka.clients",
            "logger.clients.level = WARN",
            "logger.common.name = org.apache.kafka.common",
            "logger.common.level = WARN",
            "");
}
