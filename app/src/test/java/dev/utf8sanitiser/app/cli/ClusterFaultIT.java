package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.KafkaCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accounting of the fault tests on three brokers, short: two {@code run} instances of one
 * application share the input while the broker that leads most output partitions is SIGKILLed and
 * restarted. Every record ends up once, in the clean topic if well-formed and byte-exact in the
 * dead-letter topic if not; no hanging-transaction alarm.
 *
 * <p>Tagged {@code slow}: three brokers and two sanitisers take over a minute to start here.
 */
@Tag("slow")
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClusterFaultIT {
    private static final String IN = "cluster-fault";
    private static final String CLEAN = IN + ".clean";
    private static final String DLQ = IN + ".dlq";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;

    @TempDir
    Path dir;

    @Test
    void twoInstancesLoseAndRepeatNothingWhenTheLeaderBrokerIsKilled() throws Exception {
        try (KafkaCluster cluster = KafkaCluster.start(3)) {
            cluster.createTopics(PARTITIONS, IN, CLEAN);
            cluster.createTopics(1, DLQ);
            Path config = ClusterRun.config(dir.resolve("fault.properties"), cluster, IN, -1);
            Map<String, Integer> copies = new ConcurrentHashMap<>();
            AtomicInteger misfiled = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            Thread reader = new Thread(() -> read(cluster, copies, misfiled, stop), "reader");
            try (RunChild first = RunChild.start(config, dir.resolve("first.log"));
                    RunChild second = RunChild.start(config, dir.resolve("second.log"))) {
                reader.start();
                send(cluster, 0, RECORDS / 3);
                assertThat(KafkaCluster.await(() -> copies.size() >= RECORDS / 3, Duration.ofSeconds(120)))
                        .as("first third; logs:\n%s\n%s", first.log(), second.log())
                        .isTrue();
                int victim = cluster.busiestLeader(CLEAN);
                Thread traffic = new Thread(
                        () -> {
                            try {
                                for (int i = RECORDS / 3; i < RECORDS; i += 100) {
                                    send(cluster, i, i + 100);
                                    Thread.sleep(300);
                                }
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        },
                        "traffic");
                traffic.start();
                long killed = System.nanoTime();
                cluster.kill(victim);
                Thread.sleep(5_000);
                cluster.restart(victim);
                traffic.join();
                assertThat(KafkaCluster.await(() -> copies.size() >= RECORDS, Duration.ofSeconds(120)))
                        .as("delivered %s of %s", copies.size(), RECORDS)
                        .isTrue();
                long allAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
                Thread.sleep(3_000); // late duplicates would show here
                stop.set(true);
                reader.join();
                long duplicated = copies.values().stream().filter(n -> n > 1).count();
                System.out.println("ClusterFaultIT: node " + victim + " killed and restarted after 5 s; every record"
                        + " delivered " + allAfter + " ms after the kill; duplicated " + duplicated + ", misfiled "
                        + misfiled.get());
                assertThat(copies).hasSize(RECORDS);
                assertThat(duplicated).isZero();
                assertThat(misfiled.get()).isZero();
                assertThat(first.log() + second.log()).doesNotContain("hanging transaction");
                assertThat(first.isAlive()).as(first.log()).isTrue();
                assertThat(second.isAlive()).as(second.log()).isTrue();
            } finally {
                stop.set(true);
            }
        }
    }

    private static void send(KafkaCluster cluster, int from, int to) {
        ClusterRun.send(cluster, IN, from, to, Traffic::key, Traffic::value);
    }

    /** Counts each key's copies in the clean and dead-letter topics, under read_committed. */
    private static void read(
            KafkaCluster cluster, Map<String, Integer> copies, AtomicInteger misfiled, AtomicBoolean stop) {
        List<TopicPartition> partitions = ClusterRun.partitions(CLEAN, PARTITIONS);
        partitions.add(new TopicPartition(DLQ, 0));
        ClusterRun.read(cluster, partitions, stop, record -> {
            String key = new String(record.key(), UTF_8);
            int i = Integer.parseInt(key);
            boolean dead = record.topic().equals(DLQ);
            if (dead != Traffic.illFormed(i) || dead && !Arrays.equals(record.value(), Traffic.value(i))) {
                misfiled.incrementAndGet();
            }
            copies.merge(key, 1, Integer::sum);
        });
    }
}
