package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker goes away under a running {@code run} (a child JVM) and comes back: one WARN when the
 * cluster is lost, {@code /health/ready} 503 with the reason meanwhile, one INFO when it is back,
 * ready again, and every record delivered exactly once (docs/operations.md, "Start-up, shutdown
 * and outages").
 */
class BrokerOutageIT {
    private static final int PARTITIONS = 2;
    private static final int RECORDS = 6_000;
    private static final Duration DOWN = Duration.ofSeconds(15);
    private static final String LOST = "lost the Kafka cluster at ";
    private static final String BACK = "answers again";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void anOutageIsLoggedOnceAndShownByReadiness() throws Exception {
        String in = "outage";
        int port = freePort();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            kafka.createTopics(PARTITIONS, in, in + ".clean", in + ".dlq");
            Path config = Files.write(
                    dir.resolve("outage.properties"),
                    List.of(
                            "application.id=" + in,
                            "bootstrap.servers=" + kafka.bootstrapServers(),
                            "sanitiser.input.topics=" + in,
                            "sanitiser.http.port=" + port,
                            "replication.factor=1",
                            "consumer.auto.offset.reset=earliest"));
            try (OutputWatch output = new OutputWatch(kafka, in, PARTITIONS);
                    Traffic traffic = Traffic.steady(kafka, in, 0, RECORDS, 30);
                    RunChild run = RunChild.start(config, dir.resolve("outage.log"))) {
                assertThat(output.awaitDistinct(RECORDS / 6, Duration.ofSeconds(60)))
                        .isTrue();
                assertThat(ready(port).statusCode()).isEqualTo(200);

                kafka.stopBroker(false);
                long down = System.nanoTime();
                assertThat(run.awaitLog(LOST, Duration.ofSeconds(30)))
                        .as("the loss is logged; log:\n%s", run.log())
                        .isTrue();
                long lostAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - down);
                HttpResponse<String> unready = ready(port);
                assertThat(unready.statusCode()).isEqualTo(503);
                assertThat(unready.body()).contains("cannot reach the Kafka cluster at " + kafka.bootstrapServers());

                Thread.sleep(Math.max(0, DOWN.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - down)));
                kafka.restart();
                long up = System.nanoTime();
                assertThat(run.awaitLog(BACK, Duration.ofSeconds(30)))
                        .as("the return is logged; log:\n%s", run.log())
                        .isTrue();
                long backAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - up);
                long readyAfter = awaitReady(port, Duration.ofSeconds(60));

                traffic.await();
                assertThat(output.awaitDistinct(RECORDS, Duration.ofSeconds(90)))
                        .as("missing %s", output.missing(RECORDS))
                        .isTrue();
                Thread.sleep(2_000); // late duplicates would show here
                run.terminate();
                assertThat(run.awaitExit(Duration.ofSeconds(60))).isTrue();
                String log = run.log();
                System.out.println("BrokerOutageIT: broker down " + DOWN.toSeconds() + " s: WARN after " + lostAfter
                        + " ms, INFO " + backAfter + " ms after the restart, ready again after " + readyAfter
                        + " ms; log:\n" + log);

                assertThat(readyAfter).as("ready again").isNotNegative();
                assertThat(log.lines().filter(line -> line.contains(LOST))).hasSize(1);
                assertThat(log.lines().filter(line -> line.contains(BACK))).hasSize(1);
                assertThat(run.exitValue()).isZero();
                assertThat(output.missing(RECORDS)).isEmpty();
                assertThat(output.duplicates()).isZero();
                assertThat(output.wrong()).isZero();
            }
        }
    }

    private HttpResponse<String> ready(int port) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Milliseconds until {@code /health/ready} answers 200, or -1. */
    private long awaitReady(int port, Duration timeout) throws Exception {
        long start = System.nanoTime();
        while (System.nanoTime() - start < timeout.toNanos()) {
            if (ready(port).statusCode() == 200) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            }
            Thread.sleep(100);
        }
        return -1;
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
