package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.KafkaCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault accounting on three brokers, short: two {@code run} instances
 * share the input while every node is restarted one at a time, as a rolling restart does (SIGTERM,
 * restart on the same ports and log directory, every partition's ISR full again before the next),
 * the active controller first, so that its SIGTERM moves the controller quorum's leadership too.
 * Every record ends up once, in the clean topic if well-formed and byte-exact in the dead-letter
 * topic if not; no hanging-transaction alarm, no WARN or ERROR line but the sanitiser's own reports
 * of the cluster, both instances still running.
 *
 * <p>Tagged {@code slow} (run with {@code -Pslow}): three brokers and two sanitisers fill a two-core
 * machine for about two minutes, more than the default build has to spare.
 */
@Tag("slow")
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClusterRollingRestartIT {
    private static final String IN = "cluster-rolling";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;

    @TempDir
    Path dir;

    @Test
    void everyBrokerRestartedOneAtATimeTheActiveControllerFirst() throws Exception {
        try (KafkaCluster cluster = KafkaCluster.start(3)) {
            ClusterRun.createTopics(cluster, IN, PARTITIONS);
            ClusterRun.Instance a = ClusterRun.Instance.of(dir, "first", cluster, IN);
            ClusterRun.Instance b = ClusterRun.Instance.of(dir, "second", cluster, IN);
            try (RunChild first = a.start(dir.resolve("first.log"));
                    RunChild second = b.start(dir.resolve("second.log"))) {
                a.awaitReady(first);
                b.awaitReady(second);
                // Written from now on, so that the restarts meet records arriving.
                try (ClusterLedger ledger =
                        new ClusterLedger(cluster, IN, PARTITIONS, RECORDS, Duration.ofSeconds(45))) {
                    assertThat(ledger.awaitOutput(RECORDS / 20, Duration.ofSeconds(120)))
                            .as("output begins; logs:\n%s\n%s", first.log(), second.log())
                            .isTrue();
                    int controller = cluster.activeController();
                    List<Integer> order = new ArrayList<>(List.of(controller));
                    cluster.nodeIds().stream().filter(id -> id != controller).forEach(order::add);
                    List<String> steps = new ArrayList<>();
                    for (int id : order) {
                        long millis = ClusterRun.restartInSync(cluster, id, Duration.ZERO);
                        steps.add("node " + id + (id == controller ? " (the active controller)" : "")
                                + " back in sync after " + millis + " ms");
                    }
                    ClusterLedger.Verdict verdict = ledger.finish(PARTITIONS, Duration.ofSeconds(120));
                    String logs = first.log() + second.log();
                    System.out.println("ClusterRollingRestartIT: " + String.join("; ", steps) + "; " + verdict.line()
                            + "\nWARN and ERROR lines of the sanitisers:\n"
                            + String.join("\n", ClusterRun.warnings(logs)));
                    ClusterRun.assertExactlyOnceAndQuiet(verdict, logs, first, second);
                }
            }
        }
    }
}
