package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.KafkaCluster;
import dev.utf8sanitiser.testkit.SmallDisk;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk on three brokers: node 1's log directory (its replicas of every partition and its copy
 * of the KRaft metadata log) is a small file system of its own ({@link SmallDisk}), and while two
 * {@code run} instances work through arriving records the test fills it. Kafka takes a log
 * directory that fails a write offline, and a broker whose only log directory is offline stops;
 * the other two brokers keep every partition writable ({@code min.insync.replicas} 2). Once the
 * controller has fenced it, the space is freed and the broker started again on its log directory. Every record ends up once, in
 * the clean topic if well-formed and byte-exact in the dead-letter topic if not; no
 * hanging-transaction alarm; both instances still running.
 *
 * <p>Needs root to mount the file system (the test skips otherwise). Tagged {@code slow}, as the
 * other cluster tests.
 */
@Tag("slow")
@Timeout(value = 360, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClusterDiskFullIT {
    private static final String IN = "cluster-disk";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;
    private static final Duration WRITING = Duration.ofSeconds(60);
    private static final int FULL_NODE = 1;
    private static final int DISK_MEGABYTES = 256;

    private static KafkaCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() {
        Assumptions.assumeTrue(SmallDisk.available(), "mounting a tmpfs needs root");
        cluster = KafkaCluster.builder(3).smallDisk(FULL_NODE, DISK_MEGABYTES).start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aBrokerWhoseDiskFillsUpLosesAndRepeatsNothing() throws Exception {
        try (ClusterRun.Pair instances = ClusterRun.Pair.startReady(dir, cluster, IN, PARTITIONS)) {
            try (ClusterLedger ledger = new ClusterLedger(cluster, IN, PARTITIONS, RECORDS, WRITING)) {
                assertThat(ledger.awaitOutput(RECORDS / 5, Duration.ofSeconds(120)))
                        .as("first fifth; logs:\n%s", instances.logs())
                        .isTrue();
                boolean leader = cluster.busiestLeader(IN + ".clean") == FULL_NODE;
                boolean controller = cluster.activeController() == FULL_NODE;
                long filled = System.nanoTime();
                long filler = cluster.fillDisk(FULL_NODE);
                boolean stopped = KafkaCluster.await(() -> !cluster.isRunning(FULL_NODE), Duration.ofSeconds(60));
                long down = millisSince(filled);
                // new String(bytes, UTF_8) replaces ill-formed bytes rather than failing.
                String brokerLog = new String(Files.readAllBytes(cluster.logFile(FULL_NODE)), StandardCharsets.UTF_8);
                if (!stopped) {
                    cluster.stop(FULL_NODE); // reported below: the broker went on with a full disk
                }
                // As an operator would find it: the controller has fenced the broker and the other
                // two carry every partition. Only then is the space freed and the broker started.
                List<TopicPartition> output = ClusterRun.partitions(IN + ".clean", PARTITIONS);
                assertThat(KafkaCluster.await(
                                () -> output.stream()
                                        .noneMatch(p -> cluster.isr(p).contains(FULL_NODE)),
                                Duration.ofSeconds(30)))
                        .as("node %s out of every output partition's ISR", FULL_NODE)
                        .isTrue();
                long fenced = millisSince(filled);
                cluster.freeDisk(FULL_NODE);
                cluster.restart(FULL_NODE);
                assertThat(KafkaCluster.await(cluster::allInSync, Duration.ofSeconds(120)))
                        .as("every partition in sync again")
                        .isTrue();
                long inSync = millisSince(filled);
                ClusterLedger.Verdict verdict = ledger.finish(PARTITIONS, Duration.ofSeconds(180));
                String logs = instances.logs();
                System.out.println("ClusterDiskFullIT: node " + FULL_NODE
                        + (leader ? ", the leader of most output partitions," : "")
                        + (controller ? " the active controller," : "") + " had its disk filled ("
                        + filler / (1024 * 1024) + " MB of filler); "
                        + (stopped ? "the broker stopped " + down + " ms after" : "the broker still ran 60 s after")
                        + ", out of the ISR " + fenced + " ms after; freed, restarted, every partition in sync "
                        + inSync + " ms after the fill; "
                        + verdict.line() + "\nThe end of the broker's log, the disk full:\n"
                        + String.join("\n", lastLines(brokerLog, 15))
                        + "\nWARN and ERROR lines of the sanitisers:\n"
                        + String.join("\n", ClusterRun.warnings(logs)));
                verdict.assertExactlyOnce();
                assertThat(stopped)
                        .as("a broker whose only log directory is full stops")
                        .isTrue();
                assertThat(logs).doesNotContain("hanging transaction");
                instances.assertBothAlive();
            }
        }
    }

    private static List<String> lastLines(String log, int count) {
        List<String> lines = log.lines().toList();
        return lines.subList(Math.max(0, lines.size() - count), lines.size());
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
