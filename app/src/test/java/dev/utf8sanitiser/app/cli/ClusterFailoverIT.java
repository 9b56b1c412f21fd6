package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.KafkaCluster;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} (a child JVM, with the application's own log configuration) on three brokers while
 * the broker that leads most output partitions is SIGKILLed and restarted: the dead-letter topic,
 * two replicas on that broker and another, falls below {@code min.insync.replicas}, which the
 * sanitiser says in one WARN line, in {@code /health/ready} (503) and in the metric, and then says
 * has ended; the failover raises no hanging-transaction alarm and {@code /health} never answers
 * DEGRADED; every record arrives once.
 *
 * <p>Tagged {@code slow}: three brokers and the sanitiser take about a minute to start here, and
 * the failover waits for {@code broker.session.timeout.ms}.
 */
@Tag("slow")
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClusterFailoverIT {
    private static final String IN = "failover";
    private static final String CLEAN = IN + ".clean";
    private static final String DLQ = IN + ".dlq";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;
    private static final String UNWRITABLE = "output partitions cannot take writes";
    private static final String RECOVERED = "all its replicas in sync again";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aLeaderKillIsReportedAsUnwritablePartitionsNeverAsAHangingTransaction() throws Exception {
        try (KafkaCluster cluster = KafkaCluster.start(3)) {
            cluster.createTopics(PARTITIONS, IN, CLEAN);
            int victim = cluster.busiestLeader(CLEAN);
            int other = victim % 3 + 1;
            cluster.createTopics(List.of(new NewTopic(DLQ, Map.of(0, List.of(victim, other)))));
            int port = freePort();
            Path config = ClusterRun.config(dir.resolve("failover.properties"), cluster, IN, port);
            Path logFile = dir.resolve("failover.log");
            Set<String> delivered = ConcurrentHashMap.newKeySet();
            AtomicBoolean stop = new AtomicBoolean();
            List<String> degraded = new ArrayList<>();
            AtomicInteger unready = new AtomicInteger();
            AtomicInteger duplicates = new AtomicInteger();
            try (RunChild run = RunChild.start(config, logFile)) {
                Thread reader = new Thread(() -> read(cluster, delivered, duplicates, stop), "reader");
                reader.start();
                send(cluster, 0, RECORDS / 3);
                assertThat(KafkaCluster.await(() -> delivered.size() >= RECORDS / 3, Duration.ofSeconds(120)))
                        .as("first third delivered; log:\n%s", run.log())
                        .isTrue();
                Thread health = new Thread(() -> watch(port, degraded, unready, stop), "health");
                health.start();
                AtomicReference<Exception> failed = new AtomicReference<>();
                Thread traffic = new Thread(
                        () -> {
                            try {
                                for (int i = RECORDS / 3; i < RECORDS; i += 100) {
                                    send(cluster, i, i + 100);
                                    Thread.sleep(500);
                                }
                            } catch (Exception e) {
                                failed.set(e);
                            }
                        },
                        "traffic");
                traffic.start();

                long killed = System.nanoTime();
                int logAtKill = run.log().length();
                cluster.kill(victim);
                assertThat(run.awaitLog(UNWRITABLE, Duration.ofSeconds(60)))
                        .as("reported; log:\n%s", run.log())
                        .isTrue();
                long reportedAfter = millisSince(killed);
                HttpResponse<String> ready = get(port, "/health/ready");
                assertThat(ready.statusCode()).isEqualTo(503);
                assertThat(ready.body()).contains(UNWRITABLE).contains(DLQ + "-0");
                assertThat(get(port, "/metrics").body()).contains("utf8_sanitiser_partitions_under_min_isr 1.0");

                cluster.restart(victim);
                long restarted = System.nanoTime();
                assertThat(run.awaitLog(RECOVERED, Duration.ofSeconds(90)))
                        .as("recovery reported; log:\n%s", run.log())
                        .isTrue();
                long recoveredAfter = millisSince(restarted);
                assertThat(KafkaCluster.await(() -> status(port, "/health/ready") == 200, Duration.ofSeconds(30)))
                        .isTrue();
                assertThat(get(port, "/metrics").body())
                        .contains("utf8_sanitiser_partitions_under_min_isr 0.0")
                        .contains("utf8_sanitiser_partitions_leaderless 0.0");

                traffic.join();
                assertThat(failed.get()).isNull();
                assertThat(KafkaCluster.await(() -> delivered.size() >= RECORDS, Duration.ofSeconds(120)))
                        .as("delivered %s of %s; log:\n%s", delivered.size(), RECORDS, run.log())
                        .isTrue();
                stop.set(true);
                health.join();
                reader.join();
                String log = run.log();
                String sinceKill = log.substring(logAtKill);
                System.out.println("ClusterFailoverIT: node " + victim + " killed; unwritable reported after "
                        + reportedAfter + " ms, recovery " + recoveredAfter + " ms after the restart; /health/ready"
                        + " answered 503 " + unready.get() + " times; log since the kill:\n" + sinceKill);

                assertThat(log).doesNotContain("hanging transaction");
                // Kafka's clients retry on their own; their per-retry warnings stay out of the log,
                // which says what happens in the sanitiser's own lines instead.
                assertThat(sinceKill.lines().filter(line -> line.contains(" WARN ") || line.contains(" ERROR ")))
                        .allMatch(line -> line.contains(" PartitionMonitor: ") || line.contains(" ClusterMonitor: "));
                assertThat(degraded)
                        .as("/health answers while the broker was away")
                        .isEmpty();
                assertThat(unready.get()).isPositive();
                assertThat(delivered).hasSize(RECORDS);
                assertThat(duplicates.get()).as("delivered twice").isZero();
            } finally {
                stop.set(true);
            }
        }
    }

    private static void send(KafkaCluster cluster, int from, int to) {
        ClusterRun.send(cluster, IN, from, to, i -> bytes("" + i), i -> bytes("record " + i));
    }

    /** Reads the clean topic under read_committed, keeping the distinct keys. */
    private static void read(
            KafkaCluster cluster, Set<String> delivered, AtomicInteger duplicates, AtomicBoolean stop) {
        Set<String> seen = new HashSet<>();
        ClusterRun.read(cluster, ClusterRun.partitions(CLEAN, PARTITIONS), stop, record -> {
            String key = new String(record.key(), UTF_8);
            if (!seen.add(key)) {
                duplicates.incrementAndGet();
            }
            delivered.add(key);
        });
    }

    private void watch(int port, List<String> degraded, AtomicInteger unready, AtomicBoolean stop) {
        while (!stop.get()) {
            try {
                HttpResponse<String> health = get(port, "/health");
                if (health.statusCode() != 200) {
                    synchronized (degraded) {
                        degraded.add(health.body());
                    }
                }
                if (status(port, "/health/ready") != 200) {
                    unready.incrementAndGet();
                }
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                // The sanitiser is busy; the next probe tells.
            }
        }
    }

    private int status(int port, String path) {
        try {
            return get(port, path).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
