package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping {@code run} (a child JVM) with SIGTERM (docs/operations.md, "Start-up, shutdown and
 * outages"): a clean stop leaves the consumer group, so the next start resumes at once rather than
 * after the session timeout; a stop that cannot finish (the broker away mid-transaction) waits
 * {@code sanitiser.shutdown.timeout.ms} once and exits 1 with one line that says so. The clean stop
 * runs on the shared broker; the stop that cannot finish stops a broker of its own.
 */
@ExtendWith(SharedKafka.class)
class ShutdownIT {
    private static final int PARTITIONS = 2;

    @TempDir
    Path dir;

    private Path config(EmbeddedKafka kafka, String in, String... extra) throws Exception {
        kafka.createTopics(PARTITIONS, in, in + ".clean", in + ".dlq");
        List<String> lines = new ArrayList<>(List.of(
                "application.id=" + in,
                "bootstrap.servers=" + kafka.bootstrapServers(),
                "sanitiser.input.topics=" + in,
                "sanitiser.http.port=-1",
                "replication.factor=1",
                "commit.interval.ms=100",
                "consumer.auto.offset.reset=earliest"));
        lines.addAll(List.of(extra));
        return Files.write(dir.resolve(in + ".properties"), lines);
    }

    @Test
    void aCleanStopLeavesTheGroupSoTheNextStartResumesAtOnce(EmbeddedKafka kafka) throws Exception {
        String in = SharedKafka.unique("restart");
        // Kafka's default session timeout, pinned: a member left in the group holds its partitions
        // that long after the process has gone.
        Path config = config(kafka, in, "session.timeout.ms=45000");
        try (OutputWatch output = new OutputWatch(kafka, in, PARTITIONS)) {
            Traffic.sendNow(kafka, in, 0, 1_000);
            try (RunChild first = RunChild.start(config, dir.resolve("first.log"))) {
                assertThat(output.awaitDistinct(1_000, Duration.ofSeconds(60))).isTrue();
                first.terminate();
                assertThat(first.awaitExit(Duration.ofSeconds(40))).isTrue();
                assertThat(first.exitValue())
                        .as("exit after SIGTERM; log:\n%s", first.log())
                        .isZero();
            }
            Traffic.sendNow(kafka, in, 1_000, 2_000);
            try (RunChild second = RunChild.start(config, dir.resolve("second.log"))) {
                long first = output.awaitArrivalAfter(second.startNanos(), Duration.ofSeconds(90));
                long millis = TimeUnit.NANOSECONDS.toMillis(first - second.startNanos());
                System.out.println("ShutdownIT: from the restart (a new JVM) to its first output record: " + millis
                        + " ms (session.timeout.ms=45000)");
                assertThat(first).as("output after the restart").isPositive();
                assertThat(millis)
                        .as("the restart waited for the old member's session timeout; log:\n%s", second.log())
                        .isLessThan(30_000);
                assertThat(output.awaitDistinct(2_000, Duration.ofSeconds(60))).isTrue();
                second.terminate();
                assertThat(second.awaitExit(Duration.ofSeconds(40))).isTrue();
                assertThat(second.exitValue()).isZero();
            }
            Thread.sleep(1_000); // late duplicates would show here
            assertThat(output.missing(2_000)).isEmpty();
            assertThat(output.duplicates()).isZero();
            assertThat(output.wrong()).isZero();
        }
    }

    @Test
    void aStopThatCannotFinishWaitsTheShutdownTimeoutOnceAndExitsOne() throws Exception {
        String in = "stuck";
        long timeout = 10_000;
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            stopWhileTheBrokerIsAway(kafka, in, timeout);
        }
    }

    private void stopWhileTheBrokerIsAway(EmbeddedKafka kafka, String in, long timeout) throws Exception {
        Path config = config(kafka, in, "sanitiser.shutdown.timeout.ms=" + timeout);
        Traffic traffic = Traffic.steady(kafka, in, 0, 20_000, 40);
        try (OutputWatch output = new OutputWatch(kafka, in, PARTITIONS);
                RunChild run = RunChild.start(config, dir.resolve("stuck.log"))) {
            assertThat(output.awaitDistinct(500, Duration.ofSeconds(60))).isTrue();
            kafka.stopBroker(true); // mid-transaction: it can be neither committed nor aborted
            long stop = System.nanoTime();
            run.terminate();
            assertThat(run.awaitExit(Duration.ofSeconds(60))).isTrue();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stop);
            System.out.println("ShutdownIT: SIGTERM with the broker away: exit " + run.exitValue() + " after " + millis
                    + " ms (sanitiser.shutdown.timeout.ms=" + timeout + ")");
            String log = run.log();
            assertThat(run.exitValue()).as("exit; log:\n%s", log).isEqualTo(ExitCode.ILL_FORMED);
            assertThat(log.lines().filter(l -> l.contains("did not close within " + timeout + " ms")))
                    .as("one line says so; log:\n%s", log)
                    .hasSize(1);
            assertThat(millis).as("the close is waited for once").isLessThan(timeout * 7 / 4);
        } finally {
            traffic.close(); // what it could not write with the broker away is abandoned
        }
    }
}
