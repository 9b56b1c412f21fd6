package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.IsolatedNetwork;
import dev.utf8sanitiser.testkit.KafkaCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionListing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A network partition on three brokers: each node in a network namespace of its own ({@link
 * IsolatedNetwork}), two {@code run} instances of one application sharing the input, and one
 * broker (the leader of most output partitions; the coordinator of most of the instances'
 * transactions) cut off from the other brokers and from every client for 30 s while records
 * arrive, then joined again. Unlike a killed broker, the cut-off one keeps
 * running and believes itself the leader until the controller fences it; requests already sent to
 * it get no answer (no connection is reset) until the clients' request timeout. Every record ends
 * up once, in the clean topic if well-formed and byte-exact in the dead-letter topic if not; no
 * hanging-transaction alarm; both instances still running. The test prints the sanitisers' WARN and
 * ERROR lines (docs/reliability.md says what they were).
 *
 * <p>Needs root and iproute2 (the test skips otherwise). Tagged {@code slow}, as the other cluster
 * tests: three brokers and two sanitisers fill a two-core machine for about two minutes.
 */
@Tag("slow")
@Timeout(value = 360, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClusterPartitionIT {
    private static final String IN = "cluster-partition";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;
    private static final Duration WRITING = Duration.ofSeconds(60);
    private static final Duration CUT_OFF = Duration.ofSeconds(30);

    private static KafkaCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() {
        Assumptions.assumeTrue(IsolatedNetwork.available(), "network namespaces need root and iproute2");
        cluster = KafkaCluster.builder(3).isolatedNetwork().start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theLeaderBrokerCutOffFor30SecondsLosesAndRepeatsNothing() throws Exception {
        cutOffFor30Seconds(IN, "the leader of most output partitions", () -> cluster.busiestLeader(IN + ".clean"));
    }

    /**
     * The coordinator of the instances' transactions cut off: a commit on its way to it gets no
     * answer, while the coordinator elected in its place aborts the transaction after {@code
     * transaction.timeout.ms}. Brokers without KAFKA-20785's fix then answer the retried commit with
     * {@code INVALID_TXN_STATE}, which kills the stream thread; the sanitiser replaces it.
     */
    @Test
    void theTransactionCoordinatorCutOffFor30SecondsLosesAndRepeatsNothing() throws Exception {
        String in = "cluster-partition-coordinator";
        cutOffFor30Seconds(in, "the coordinator of most of the instances' transactions", () -> coordinator(in));
    }

    /** Which node to cut off, chosen once records flow. */
    private interface Victim {
        int choose() throws Exception;
    }

    private void cutOffFor30Seconds(String in, String role, Victim victimOf) throws Exception {
        try (ClusterRun.Pair instances = ClusterRun.Pair.startReady(dir, cluster, in, PARTITIONS)) {
            try (ClusterLedger ledger = new ClusterLedger(cluster, in, PARTITIONS, RECORDS, WRITING)) {
                assertThat(ledger.awaitOutput(RECORDS / 5, Duration.ofSeconds(120)))
                        .as("first fifth; logs:\n%s", instances.logs())
                        .isTrue();
                int victim = victimOf.choose();
                boolean controller = cluster.activeController() == victim;
                long cut = System.nanoTime();
                cluster.cutOff(victim);
                Thread.sleep(CUT_OFF.toMillis());
                assertThat(cluster.isRunning(victim)).as("cut off, not stopped").isTrue();
                cluster.reconnect(victim);
                assertThat(KafkaCluster.await(cluster::allInSync, Duration.ofSeconds(120)))
                        .as("every partition in sync again")
                        .isTrue();
                long inSync = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cut);
                ClusterLedger.Verdict verdict = ledger.finish(PARTITIONS, Duration.ofSeconds(180));
                String logs = instances.logs();
                System.out.println("ClusterPartitionIT: node " + victim + ", " + role
                        + (controller ? " and the active controller," : "") + " cut off for "
                        + CUT_OFF.toSeconds() + " s, every partition in sync " + inSync + " ms after the cut; "
                        + verdict.line() + "\nWARN and ERROR lines of the sanitisers:\n"
                        + String.join("\n", ClusterRun.warnings(logs)));
                verdict.assertExactlyOnce();
                assertThat(logs).doesNotContain("hanging transaction");
                instances.assertBothAlive();
            }
        }
    }

    /** The node that coordinates most of the open transactions of application {@code in}. */
    private static int coordinator(String in) throws Exception {
        try (Admin admin = Admin.create(cluster.adminConfig())) {
            List<String> ids = admin.listTransactions().all().get(30, TimeUnit.SECONDS).stream()
                    .map(TransactionListing::transactionalId)
                    .filter(id -> id.startsWith(in + "-"))
                    .toList();
            assertThat(ids).as("the instances' transactional ids").isNotEmpty();
            Map<Integer, Integer> coordinated = new HashMap<>();
            admin.describeTransactions(ids)
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .values()
                    .forEach(transaction -> coordinated.merge(transaction.coordinatorId(), 1, Integer::sum));
            return coordinated.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElseThrow()
                    .getKey();
        }
    }
}
