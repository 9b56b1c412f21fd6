package dev.utf8sanitiser.connect.it;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A Kafka Connect worker in standalone mode, in a child JVM started as a user starts one ({@code
 * ConnectStandalone worker.properties connector.properties...}), with Kafka's own jars on its class
 * path and the plugin only in {@code plugin.path}: the archive the build made, unpacked as the
 * README says. Nothing of this project is on the worker's class path but the test connectors, so a
 * plugin that loads at all was loaded in isolation from {@code plugin.path}.
 */
final class StandaloneWorker implements AutoCloseable {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path log;
    private final String rest;

    private StandaloneWorker(Process process, Path log, String rest) {
        this.process = process;
        this.log = log;
        this.rest = rest;
    }

    /**
     * Unpacks {@code archive} into {@code directory/plugins} and starts a worker on it.
     *
     * @param connectors each connector's properties, by name
     */
    static StandaloneWorker start(
            Path directory, Path archive, String bootstrapServers, Map<String, Map<String, String>> connectors)
            throws IOException {
        Path plugins = Files.createDirectories(directory.resolve("plugins"));
        unzip(archive, plugins);
        int port = freePort();
        Properties worker = new Properties();
        worker.setProperty("bootstrap.servers", bootstrapServers);
        worker.setProperty("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        worker.setProperty("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        worker.setProperty(
                "offset.storage.file.filename", directory.resolve("offsets").toString());
        worker.setProperty("offset.flush.interval.ms", "1000");
        worker.setProperty("plugin.path", plugins.toString());
        // The plugins' ServiceLoader manifests, not a scan of every class: KIP-898's fast start.
        worker.setProperty("plugin.discovery", "service_load");
        worker.setProperty("listeners", "http://127.0.0.1:" + port);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:TieredStopAtLevel=1",
                "-Dlog4j2.configurationFile=" + write(directory.resolve("log4j2.properties"), LOG4J),
                "-cp",
                String.join(File.pathSeparator, classPath()),
                "org.apache.kafka.connect.cli.ConnectStandalone",
                store(directory.resolve("worker.properties"), worker).toString()));
        for (Map.Entry<String, Map<String, String>> connector : connectors.entrySet()) {
            Properties props = new Properties();
            props.setProperty("name", connector.getKey());
            props.putAll(connector.getValue());
            command.add(store(directory.resolve(connector.getKey() + ".properties"), props)
                    .toString());
        }
        Path log = directory.resolve("worker.log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        return new StandaloneWorker(builder.start(), log, "http://127.0.0.1:" + port);
    }

    /**
     * The worker's class path: this test JVM's, which Maven made from Kafka's jars, less everything
     * of this project (the plugin and the modules in it, and the libraries only the plugin brings),
     * but with the test classes, for the recording sink.
     */
    static List<String> classPath() {
        Path repo =
                Path.of(System.getProperty("repo.dir", "..")).toAbsolutePath().normalize();
        Path testClasses = repo.resolve("connect/target/test-classes");
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> {
                    Path path = Path.of(entry).toAbsolutePath().normalize();
                    if (path.equals(testClasses)) {
                        return true;
                    }
                    String unix = path.toString().replace('\\', '/');
                    return !path.startsWith(repo)
                            && !unix.contains("/dev/utf8sanitiser/")
                            && !unix.contains("/com/ibm/icu/")
                            && !unix.contains("/org/apache/avro/");
                })
                .collect(Collectors.toList());
    }

    String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(rest + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    String logText() {
        try {
            return Files.readString(log, UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last lines of the log, for a failure message. */
    String logTail(int lines) {
        List<String> all = logText().lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** Stops the worker as a SIGTERM does (Connect stops its tasks first), then by force. */
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

    /** Connect's own log at INFO (plugin loading, task states); the clients' chatter at WARN. */
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

    private static void unzip(Path archive, Path into) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(archive))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                Path target = into.resolve(entry.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("zip entry outside the target: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.write(target, zip.readAllBytes()); // this entry's bytes
                }
            }
        }
    }

    private static Path store(Path file, Properties props) throws IOException {
        try (var out = Files.newBufferedWriter(file, UTF_8)) {
            props.store(out, null);
        }
        return file;
    }

    private static Path write(Path file, String text) throws IOException {
        return Files.writeString(file, text, UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
