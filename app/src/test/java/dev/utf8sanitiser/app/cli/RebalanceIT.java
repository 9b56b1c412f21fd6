package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of {@code run} (child JVMs) with the sanitiser's default Streams settings: a second
 * joins mid-stream, then the first leaves by SIGTERM. Prints the longest gap between consecutive
 * output records after each; every record arrives exactly once, and the stall after a clean leave
 * is well below the session timeout (docs/operations.md, "Start-up, shutdown and outages"). The
 * broker is the shared one: rebalances are the group's business, not the broker's, and each test has
 * topics and an application id of its own.
 */
// Runs with no other test class beside it (the "timing" tag, app/pom.xml): its handover deadlines are seconds.
@Tag("timing")
@ExtendWith(SharedKafka.class)
class RebalanceIT {
    private static final int PARTITIONS = 4;
    private static final int RECORDS = 8_000;
    private static EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void broker(EmbeddedKafka shared) {
        kafka = shared;
    }

    private Path config(String in, String... extra) throws Exception {
        kafka.createTopics(PARTITIONS, in, in + ".clean", in + ".dlq");
        List<String> lines = new ArrayList<>(List.of(
                "application.id=" + in,
                "bootstrap.servers=" + kafka.bootstrapServers(),
                "sanitiser.input.topics=" + in,
                "sanitiser.http.port=-1",
                "replication.factor=1",
                "consumer.auto.offset.reset=earliest"));
        lines.addAll(List.of(extra));
        return Files.write(dir.resolve(in + ".properties"), lines);
    }

    @Test
    void aSecondInstanceJoinsAndTheFirstLeaves() throws Exception {
        String in = SharedKafka.unique("rebalance");
        Path config = config(in);
        try (OutputWatch output = new OutputWatch(kafka, in, PARTITIONS);
                Traffic traffic = Traffic.steady(kafka, in, 0, RECORDS, 40);
                RunChild first = RunChild.start(config, dir.resolve("first.log"))) {
            assertThat(output.awaitDistinct(RECORDS / 5, Duration.ofSeconds(60)))
                    .isTrue();
            long joined;
            long left;
            try (RunChild second = RunChild.start(config, dir.resolve("second.log"))) {
                joined = second.startNanos();
                assertThat(output.awaitDistinct(RECORDS / 2, Duration.ofSeconds(60)))
                        .isTrue();
                first.terminate();
                left = System.nanoTime();
                assertThat(first.awaitExit(Duration.ofSeconds(60))).isTrue();
                assertThat(first.exitValue())
                        .as("first exit; log:\n%s", first.log())
                        .isZero();
                traffic.await();
                assertThat(output.awaitDistinct(RECORDS, Duration.ofSeconds(90)))
                        .as("missing %s", output.missing(RECORDS))
                        .isTrue();
                Thread.sleep(2_000); // late duplicates would show here
                second.terminate();
                assertThat(second.awaitExit(Duration.ofSeconds(60))).isTrue();
                assertThat(second.exitValue())
                        .as("second exit; log:\n%s", second.log())
                        .isZero();
            }
            long joinStall = output.longestStallMillis(joined, left);
            long leaveStall = output.longestStallMillis(left, Long.MAX_VALUE);
            System.out.println("RebalanceIT: the longest a partition went without output after the second"
                    + " instance joined: " + joinStall + " ms; after the first left (SIGTERM): " + leaveStall
                    + " ms");
            assertThat(output.missing(RECORDS)).isEmpty();
            assertThat(output.duplicates()).isZero();
            assertThat(output.wrong()).isZero();
            assertThat(leaveStall)
                    .as("the partitions of an instance that left wait for nothing")
                    .isLessThan(SanitiserConfig.DEFAULT_SESSION_TIMEOUT_MS);
        }
    }

    @Test
    void theOtherInstanceTakesOverFromAKilledOne() throws Exception {
        String in = SharedKafka.unique("killed");
        Path config = config(in);
        try (OutputWatch output = new OutputWatch(kafka, in, PARTITIONS);
                Traffic traffic = Traffic.steady(kafka, in, 0, RECORDS, 40);
                RunChild first = RunChild.start(config, dir.resolve("first.log"))) {
            long killed;
            try (RunChild second = RunChild.start(config, dir.resolve("second.log"))) {
                assertThat(output.awaitDistinct(RECORDS / 4, Duration.ofSeconds(60)))
                        .isTrue();
                assertThat(second.awaitLog("REBALANCING -> RUNNING", Duration.ofSeconds(60)))
                        .isTrue();
                second.kill(); // it neither commits nor leaves the group
                killed = System.nanoTime();
            }
            traffic.await();
            assertThat(output.awaitDistinct(RECORDS, Duration.ofSeconds(120)))
                    .as("missing %s", output.missing(RECORDS))
                    .isTrue();
            Thread.sleep(2_000); // late duplicates would show here
            first.terminate();
            assertThat(first.awaitExit(Duration.ofSeconds(60))).isTrue();
            long stall = output.longestStallMillis(killed, Long.MAX_VALUE);
            System.out.println("RebalanceIT: the longest a partition went without output after an instance was"
                    + " killed: " + stall + " ms");
            assertThat(first.exitValue()).isZero();
            assertThat(output.missing(RECORDS)).isEmpty();
            assertThat(output.duplicates()).isZero();
            assertThat(output.wrong()).isZero();
        }
    }

    @Test
    void aStopDuringALongRebalanceIsANormalStop() throws Exception {
        String in = SharedKafka.unique("stop-rebalancing");
        // A killed member holds the rebalance that a joining one starts until its session times
        // out: longer than the 10 s transaction timeout, so the broker aborts the transaction
        // the first instance had open and fences its producer.
        Path config = config(in, "session.timeout.ms=30000");
        try (OutputWatch output = new OutputWatch(kafka, in, PARTITIONS);
                Traffic traffic = Traffic.steady(kafka, in, 0, RECORDS, 40);
                RunChild first = RunChild.start(config, dir.resolve("first.log"))) {
            assertThat(output.awaitDistinct(RECORDS / 20, Duration.ofSeconds(60)))
                    .isTrue();
            try (RunChild killed = RunChild.start(config, dir.resolve("killed.log"))) {
                assertThat(killed.awaitLog("REBALANCING -> RUNNING", Duration.ofSeconds(60)))
                        .isTrue();
                Thread.sleep(2_000);
            }
            try (RunChild third = RunChild.start(config, dir.resolve("third.log"))) {
                assertThat(third.awaitLog("CREATED -> REBALANCING", Duration.ofSeconds(60)))
                        .isTrue();
                Thread.sleep(12_000); // past the transaction timeout, within the killed one's session
                first.terminate();
                assertThat(first.awaitExit(Duration.ofSeconds(60))).isTrue();
                System.out.println("RebalanceIT: stopped while rebalancing, log:\n" + first.log());
                traffic.await();
                boolean all = output.awaitDistinct(RECORDS, Duration.ofSeconds(120));
                System.out.println("RebalanceIT: third log:\n" + third.log());
                assertThat(all).as("missing %s", output.missing(RECORDS)).isTrue();
                third.terminate();
                assertThat(third.awaitExit(Duration.ofSeconds(60))).isTrue();
                assertThat(first.exitValue()).as("exit; log:\n%s", first.log()).isZero();
                // The stop, from SIGTERM on. Whether the fence is found while running (Kafka's own
                // ERROR and WARN of a task migration, as it logs them) or only by the stop
                // depends on timing; the stop itself must read as a normal one either way.
                String log = first.log();
                int stop = log.indexOf("-> PENDING_SHUTDOWN");
                assertThat(stop).as("the stop in the log:\n%s", log).isNotNegative();
                assertThat(log.substring(stop))
                        .as("a normal stop")
                        .doesNotContain("ERROR")
                        .doesNotContain("\tat ");
                assertThat(third.exitValue()).isZero();
            }
            assertThat(output.missing(RECORDS)).isEmpty();
            assertThat(output.duplicates()).isZero();
        }
    }
}
