package dev.utf8sanitiser.serdes.conformance;

import dev.utf8sanitiser.testkit.ChildJvm;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Confluent-API schema registry for the tests: Apicurio Registry 3.3.3, from Maven Central,
 * unpacked into {@code target/apicurio} by the build (serdes/pom.xml), run in memory on the
 * loopback interface. It needs Java 21 or newer, found in this order: the system property {@code
 * apicurio.java.home}, the environment variable {@code APICURIO_JAVA_HOME}, {@code JAVA_HOME}, the
 * JVM running the tests, then the JDKs under {@code /usr/lib/jvm}; {@link #javaHome()} says why
 * when there is none, and the tests skip with that line.
 */
final class ApicurioRegistry implements AutoCloseable {
    /** The Confluent-compatible API's path. */
    static final String CCOMPAT = "/apis/ccompat/v7";

    private static final int MINIMUM_JAVA = 21;

    private final Process process;
    private final String base;

    private ApicurioRegistry(Process process, String base) {
        this.process = process;
        this.base = base;
    }

    /** The unpacked distribution, or empty when the build did not unpack it. */
    static Optional<Path> distribution() {
        Path home = Path.of(System.getProperty("apicurio.home", "target/apicurio"));
        return Files.isRegularFile(home.resolve("quarkus-run.jar")) ? Optional.of(home) : Optional.empty();
    }

    /** A Java home of version 21 or newer, or the reason there is none. */
    static Optional<Path> javaHome() {
        List<Path> candidates = new ArrayList<>();
        Optional.ofNullable(System.getProperty("apicurio.java.home"))
                .map(Path::of)
                .ifPresent(candidates::add);
        Optional.ofNullable(System.getenv("APICURIO_JAVA_HOME")).map(Path::of).ifPresent(candidates::add);
        Optional.ofNullable(System.getenv("JAVA_HOME")).map(Path::of).ifPresent(candidates::add);
        candidates.add(Path.of(System.getProperty("java.home")));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> homes = Files.list(jvms)) {
                homes.sorted(Comparator.reverseOrder()).forEach(candidates::add);
            } catch (IOException e) {
                // no more candidates
            }
        }
        return candidates.stream()
                .filter(home -> Files.isExecutable(home.resolve("bin/java")))
                .filter(home -> featureVersion(home) >= MINIMUM_JAVA)
                .findFirst();
    }

    /** The feature version a JDK's {@code release} file names, or 0. */
    private static int featureVersion(Path home) {
        Properties release = new Properties();
        try (var in = Files.newInputStream(home.resolve("release"))) {
            release.load(in);
        } catch (IOException e) {
            return 0;
        }
        String version = release.getProperty("JAVA_VERSION", "\"0\"").replace("\"", "");
        try {
            return Integer.parseInt(version.split("[.+-]")[0]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Why the registry cannot run here, or empty when it can. */
    static Optional<String> unavailable() {
        if (distribution().isEmpty()) {
            return Optional.of("Apicurio Registry is not unpacked in target/apicurio: run the build's"
                    + " pre-integration-test phase (./mvnw verify)");
        }
        if (javaHome().isEmpty()) {
            return Optional.of("Apicurio Registry needs Java " + MINIMUM_JAVA + " or newer: none found in"
                    + " apicurio.java.home, APICURIO_JAVA_HOME, JAVA_HOME, this JVM or /usr/lib/jvm");
        }
        return Optional.empty();
    }

    /** Starts it on a free loopback port and waits until its Confluent API answers. */
    static ApicurioRegistry start() throws IOException, InterruptedException {
        Path home = distribution().orElseThrow();
        Path java = javaHome().orElseThrow().resolve("bin/java");
        int port = freePort();
        Path log = Path.of("target/apicurio-" + port + ".log");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(ChildJvm.options("-Xmx512m"));
        command.addAll(List.of(
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port,
                // Its management interface listens on 0.0.0.0:9000 by default: a fixed port
                // on every interface, which a second run or anything else may hold.
                "-Dquarkus.management.enabled=false",
                "-jar",
                "quarkus-run.jar"));
        Process process = new ProcessBuilder(command)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        ApicurioRegistry registry = new ApicurioRegistry(process, "http://127.0.0.1:" + port);
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plusSeconds(90);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Apicurio Registry exited " + process.exitValue() + ", see " + log);
            }
            try {
                HttpResponse<Void> answer = http.send(
                        HttpRequest.newBuilder(URI.create(registry.url() + "/subjects"))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (answer.statusCode() == 200) {
                    return registry;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        registry.close();
        throw new IllegalStateException("Apicurio Registry did not answer within 90 s, see " + log);
    }

    /** The URL of its Confluent-compatible API. */
    String url() {
        return base + CCOMPAT;
    }

    /** The server's root, without the API's path: the mistake a user makes. */
    String rootUrl() {
        return base;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
