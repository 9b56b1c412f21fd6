package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.KafkaCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accounting of the fault tests on three brokers, long forms and the faults the short {@link
 * ClusterRollingRestartIT} has not: two {@code run} instances of one application share the input
 * while the broker that leads most output partitions is SIGKILLed and restarted, the active
 * controller is stopped by SIGTERM and restarted 10 s later, the instances are replaced one at a
 * time as a Kubernetes rolling update does, or the input gains partitions. Every record ends up
 * once, in the clean topic if well-formed and byte-exact in the dead-letter topic if not; no
 * hanging-transaction alarm, and but for the leader SIGKILL no WARN or ERROR line but the
 * sanitiser's own reports of the cluster. Each test prints the longest stall (the longest gap between two output
 * records). The tests share one cluster, each with topics of its own.
 *
 * <p>Tagged {@code slow}: three brokers and two sanitisers take over a minute to start here.
 */
@Tag("slow")
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClusterFaultIT {
    private static final String IN = "cluster-fault";
    private static final String CLEAN = IN + ".clean";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;

    /** How long the ledger's writer takes for {@link #RECORDS}: the faults meet records arriving. */
    private static final Duration WRITING = Duration.ofSeconds(40);
    /**
     * How long the records of new input partitions may take: Kafka Streams' consumer learns of
     * them at its next metadata refresh ({@code metadata.max.age.ms}, 5 minutes by default).
     */
    private static final Duration GROWN_TIMEOUT = Duration.ofSeconds(360);
    /** As deploy/k8s/deployment.yaml's terminationGracePeriodSeconds: then the kubelet SIGKILLs. */
    private static final Duration GRACE = Duration.ofSeconds(60);
    /** As deploy/k8s/sanitiser.properties: a stop commits and leaves the group within this. */
    private static final String SHUTDOWN_TIMEOUT = "sanitiser.shutdown.timeout.ms=30000";

    private static KafkaCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() {
        cluster = KafkaCluster.start(3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A test that failed with a node down leaves the next one a whole cluster. */
    @AfterEach
    void restartStoppedNodes() {
        cluster.nodeIds().stream().filter(id -> !cluster.isRunning(id)).forEach(cluster::restart);
    }

    @Test
    void twoInstancesLoseAndRepeatNothingWhenTheLeaderBrokerIsKilled() throws Exception {
        ClusterRun.createTopics(cluster, IN, PARTITIONS);
        List<ClusterRun.Instance> instances = instances(IN);
        try (RunChild first = instances.get(0).start(dir.resolve("first.log"));
                RunChild second = instances.get(1).start(dir.resolve("second.log"))) {
            instances.get(0).awaitReady(first);
            instances.get(1).awaitReady(second);
            try (ClusterLedger ledger = new ClusterLedger(cluster, IN, PARTITIONS, RECORDS, WRITING)) {
                assertThat(ledger.awaitOutput(RECORDS / 3, Duration.ofSeconds(120)))
                        .as("first third; logs:\n%s\n%s", first.log(), second.log())
                        .isTrue();
                int victim = cluster.busiestLeader(CLEAN);
                long killed = System.nanoTime();
                cluster.kill(victim);
                Thread.sleep(5_000);
                cluster.restart(victim);
                long restarted = millisSince(killed);
                ClusterLedger.Verdict verdict = ledger.finish(PARTITIONS, Duration.ofSeconds(120));
                String logs = first.log() + second.log();
                report(
                        "leader",
                        "node " + victim + " killed, restarted after 5 s, live again " + restarted
                                + " ms after the kill; " + verdict.line(),
                        logs);
                verdict.assertExactlyOnce();
                assertThat(logs).doesNotContain("hanging transaction");
                // Not asserted here: with a leader SIGKILLed, Kafka Streams may log one WARN that a
                // stream thread was fenced and rejoins the group, which it then does (printed above).
                assertThat(first.isAlive()).as(first.log()).isTrue();
                assertThat(second.isAlive()).as(second.log()).isTrue();
            }
        }
    }

    @Test
    void theActiveControllerStoppedBySigtermAndRestartedLater() throws Exception {
        String in = "cluster-controller";
        ClusterRun.createTopics(cluster, in, PARTITIONS);
        List<ClusterRun.Instance> instances = instances(in);
        try (RunChild first = instances.get(0).start(dir.resolve("first.log"));
                RunChild second = instances.get(1).start(dir.resolve("second.log"))) {
            instances.get(0).awaitReady(first);
            instances.get(1).awaitReady(second);
            try (ClusterLedger ledger = new ClusterLedger(cluster, in, PARTITIONS, RECORDS, WRITING)) {
                assertThat(ledger.awaitOutput(RECORDS / 20, Duration.ofSeconds(120)))
                        .isTrue();
                int controller = cluster.activeController();
                long stopped = System.nanoTime();
                cluster.stop(controller);
                int[] successor = {controller};
                assertThat(KafkaCluster.await(
                                () -> (successor[0] = cluster.activeController()) != controller,
                                Duration.ofSeconds(30)))
                        .as("another node leads the controller quorum")
                        .isTrue();
                Thread.sleep(Math.max(0, 10_000 - millisSince(stopped)));
                cluster.restart(controller);
                assertThat(KafkaCluster.await(cluster::allInSync, Duration.ofSeconds(120)))
                        .as("every partition in sync again")
                        .isTrue();
                long millis = millisSince(stopped);
                ClusterLedger.Verdict verdict = ledger.finish(PARTITIONS, Duration.ofSeconds(120));
                String logs = first.log() + second.log();
                report(
                        "controller",
                        "active controller " + controller + " stopped (SIGTERM), node " + successor[0]
                                + " the controller meanwhile; restarted 10 s later, every partition in sync " + millis
                                + " ms after the SIGTERM; " + verdict.line(),
                        logs);
                ClusterRun.assertExactlyOnceAndQuiet(verdict, logs, first, second);
            }
        }
    }

    /**
     * As {@code kubectl rollout restart} with deploy/k8s: two replicas, {@code maxUnavailable: 1},
     * {@code maxSurge: 0} (the PodDisruptionBudget allows one away), so one instance at a time gets
     * SIGTERM, has {@link #GRACE} to exit before it would be SIGKILLed, and its replacement must be
     * ready ({@code /health/ready}) before the next instance is stopped.
     */
    @Test
    void aRollingUpdateReplacesEachInstanceInTurn() throws Exception {
        String in = "cluster-update";
        ClusterRun.createTopics(cluster, in, PARTITIONS);
        List<ClusterRun.Instance> pods = instances(in, SHUTDOWN_TIMEOUT);
        List<RunChild> started = new ArrayList<>();
        try {
            for (int pod = 0; pod < 2; pod++) {
                started.add(pods.get(pod).start(dir.resolve("pod-" + pod + ".log")));
            }
            for (int pod = 0; pod < 2; pod++) {
                pods.get(pod).awaitReady(started.get(pod));
            }
            try (ClusterLedger ledger = new ClusterLedger(cluster, in, PARTITIONS, RECORDS, WRITING)) {
                assertThat(ledger.awaitOutput(RECORDS / 20, Duration.ofSeconds(120)))
                        .isTrue();
                List<String> steps = new ArrayList<>();
                for (int pod = 0; pod < 2; pod++) {
                    RunChild old = started.get(pod);
                    long stopped = System.nanoTime();
                    old.terminate();
                    assertThat(old.awaitExit(GRACE))
                            .as("exits within the grace period; log:\n%s", old.log())
                            .isTrue();
                    long exited = millisSince(stopped);
                    assertThat(old.exitValue()).as(old.log()).isZero();
                    RunChild replacement = pods.get(pod).start(dir.resolve("pod-" + pod + "-new.log"));
                    started.add(replacement);
                    pods.get(pod).awaitReady(replacement);
                    steps.add("instance " + pod + " exited " + exited + " ms after SIGTERM, its replacement ready "
                            + millisSince(stopped) + " ms after it");
                }
                ClusterLedger.Verdict verdict = ledger.finish(PARTITIONS, Duration.ofSeconds(120));
                String logs = started.stream().map(RunChild::log).collect(Collectors.joining());
                report("update", String.join("; ", steps) + "; " + verdict.line(), logs);
                verdict.assertExactlyOnce();
                assertThat(logs).doesNotContain("hanging transaction");
                assertThat(ClusterRun.foreignWarnings(logs))
                        .as("WARN and ERROR lines")
                        .isEmpty();
                assertThat(started.subList(2, 4)).allMatch(RunChild::isAlive);
            }
        } finally {
            started.forEach(RunChild::close);
        }
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void partitionsAddedToTheInputWhileRunningAreProcessed() throws Exception {
        String in = "cluster-grown";
        int grown = 2 * PARTITIONS;
        ClusterRun.createTopics(cluster, in, PARTITIONS);
        List<ClusterRun.Instance> instances = instances(in);
        // The writer's producer learns of the new partitions within a second, and spreads keys over them.
        Map<String, Object> producer = cluster.producerConfig();
        producer.put(ProducerConfig.METADATA_MAX_AGE_CONFIG, 1_000);
        try (RunChild first = instances.get(0).start(dir.resolve("first.log"));
                RunChild second = instances.get(1).start(dir.resolve("second.log"));
                Admin admin = Admin.create(cluster.adminConfig())) {
            instances.get(0).awaitReady(first);
            instances.get(1).awaitReady(second);
            try (ClusterLedger ledger = new ClusterLedger(cluster, in, PARTITIONS, RECORDS, WRITING, producer)) {
                assertThat(ledger.awaitOutput(RECORDS / 20, Duration.ofSeconds(120)))
                        .isTrue();
                long raised = System.nanoTime();
                admin.createPartitions(Map.of(in, NewPartitions.increaseTo(grown)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
                ClusterLedger.Verdict verdict = ledger.finish(grown, GROWN_TIMEOUT);
                long inNew = newPartitionRecords(admin, in, grown);
                String logs = first.log() + second.log();
                report(
                        "grown",
                        "input raised from " + PARTITIONS + " to " + grown + " partitions; " + inNew
                                + " records written to the new ones; all processed " + millisSince(raised)
                                + " ms after; " + verdict.line(),
                        logs);
                assertThat(inNew).as("records in the new partitions").isPositive();
                ClusterRun.assertExactlyOnceAndQuiet(verdict, logs, first, second);
            }
        }
    }

    /** Two instances of the application reading {@code in}, each with an HTTP port of its own. */
    private List<ClusterRun.Instance> instances(String in, String... more) throws Exception {
        return List.of(
                ClusterRun.Instance.of(dir, in + "-a", cluster, in, more),
                ClusterRun.Instance.of(dir, in + "-b", cluster, in, more));
    }

    /** The records in partitions {@link #PARTITIONS} to {@code grown - 1} of {@code topic}. */
    private static long newPartitionRecords(Admin admin, String topic, int grown) throws Exception {
        Map<TopicPartition, OffsetSpec> added = new HashMap<>();
        for (int p = PARTITIONS; p < grown; p++) {
            added.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        return admin.listOffsets(added).all().get(30, TimeUnit.SECONDS).values().stream()
                .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset)
                .sum();
    }

    private static void report(String test, String line, String logs) {
        System.out.println("ClusterFaultIT " + test + ": " + line + "\nWARN and ERROR lines of the sanitisers:\n"
                + String.join("\n", ClusterRun.warnings(logs)));
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }
}
