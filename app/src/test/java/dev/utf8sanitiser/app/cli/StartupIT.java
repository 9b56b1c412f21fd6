package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} (a child JVM) against a Kafka cluster that does not answer: one line that names
 * {@code bootstrap.servers} after {@code sanitiser.startup.timeout.ms}, exit 1, and a SIGTERM
 * during the wait is honoured at once (docs/operations.md, "Start-up, shutdown and outages").
 */
class StartupIT {
    @TempDir
    Path dir;

    /** An address of this machine where nothing listens. */
    private static String nobodyListening() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }

    private Path config(String bootstrap, String... extra) throws Exception {
        List<String> lines = new ArrayList<>(List.of(
                "application.id=startup",
                "bootstrap.servers=" + bootstrap,
                "sanitiser.input.topics=startup",
                "sanitiser.http.port=-1"));
        lines.addAll(List.of(extra));
        return Files.write(dir.resolve("startup.properties"), lines);
    }

    @Test
    void aClusterThatDoesNotAnswerIsOneLineAndExitOne() throws Exception {
        String bootstrap = nobodyListening();
        try (RunChild run = RunChild.start(
                config(bootstrap, "sanitiser.startup.timeout.ms=3000"), dir.resolve("unreachable.log"))) {
            assertThat(run.awaitExit(Duration.ofSeconds(60))).isTrue();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - run.startNanos());
            String log = run.log();
            System.out.println("StartupIT: no broker at " + bootstrap + ": exit " + run.exitValue() + " after " + millis
                    + " ms (JVM start included), log:\n" + log);

            assertThat(run.exitValue()).as("exit; log:\n%s", log).isEqualTo(ExitCode.ILL_FORMED);
            assertThat(log.lines().filter(line -> line.startsWith("utf8-sanitiser: run: ")))
                    .containsExactly("utf8-sanitiser: run: cannot reach the Kafka cluster at " + bootstrap
                            + " (bootstrap.servers) within 3 s (sanitiser.startup.timeout.ms): no broker answered");
            assertThat(log).doesNotContain("\tat ").doesNotContain("ERROR");
        }
    }

    @Test
    void aStopWhileWaitingForTheClusterIsHonouredAtOnce() throws Exception {
        try (RunChild run = RunChild.start(
                config(nobodyListening(), "sanitiser.startup.timeout.ms=120000"), dir.resolve("waiting.log"))) {
            assertThat(run.awaitLog("connecting to the Kafka cluster", Duration.ofSeconds(60)))
                    .isTrue();
            Thread.sleep(500); // well into the wait
            long stop = System.nanoTime();
            run.terminate();
            boolean exited = run.awaitExit(Duration.ofSeconds(20));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stop);
            System.out.println("StartupIT: SIGTERM while waiting for the cluster: "
                    + (exited ? "exit " + run.exitValue() : "still running") + " after " + millis + " ms");

            assertThat(exited).as("stopped within 20 s; log:\n%s", run.log()).isTrue();
            assertThat(run.exitValue()).as("stopped on request").isEqualTo(ExitCode.OK);
            assertThat(millis).as("within a few seconds").isLessThan(5_000);
        }
    }

    @Test
    void aHostNameThatDoesNotResolveIsOneLineAndExitOne() throws Exception {
        try (RunChild run = RunChild.start(config("no-such-host.invalid:9092"), dir.resolve("dns.log"))) {
            assertThat(run.awaitExit(Duration.ofSeconds(60))).isTrue();
            String log = run.log();

            assertThat(run.exitValue()).as("exit; log:\n%s", log).isEqualTo(ExitCode.ILL_FORMED);
            assertThat(log.lines().filter(line -> line.startsWith("utf8-sanitiser: run: ")))
                    .containsExactly("utf8-sanitiser: run: cannot reach the Kafka cluster at no-such-host.invalid:9092"
                            + " (bootstrap.servers): no host name in it resolves (DNS)");
        }
    }

    @Test
    void aBootstrapAddressWithoutPortIsABadConfiguration() throws Exception {
        try (RunChild run = RunChild.start(config("localhost"), dir.resolve("port.log"))) {
            assertThat(run.awaitExit(Duration.ofSeconds(60))).isTrue();
            String log = run.log();
            System.out.println("StartupIT: bootstrap.servers=localhost: exit " + run.exitValue() + ", log:\n" + log);

            assertThat(run.exitValue()).as("exit; log:\n%s", log).isEqualTo(ExitCode.USAGE_OR_UNREADABLE);
            assertThat(log.lines().filter(line -> line.startsWith("utf8-sanitiser: run: ")))
                    .singleElement()
                    .asString()
                    .startsWith("utf8-sanitiser: run: bootstrap.servers localhost: ");
        }
    }
}
