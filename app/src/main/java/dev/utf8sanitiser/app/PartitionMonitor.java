package dev.utf8sanitiser.app;

import dev.utf8sanitiser.app.transactions.SanitiserTopics;
import dev.utf8sanitiser.config.SanitiserConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches, while the sanitiser runs, whether its output and dead-letter partitions can take its
 * writes: each needs a leader and at least {@code min.insync.replicas} in-sync replicas, or the
 * transactions that write there wait (Kafka Streams' producer retries {@code NOT_LEADER_OR_FOLLOWER}
 * and {@code NOT_ENOUGH_REPLICAS} without a word). One line when that starts or changes, one when it
 * ends; the counts for the metrics; the reason for {@code /health/ready} meanwhile.
 *
 * <p>It asks every {@link #INTERVAL} on its own thread, with an Admin client whose every call gives
 * up after {@link #TIMEOUT} ({@code describeTopics}, and {@code describeConfigs} for each topic's
 * {@code min.insync.replicas}); the stream threads never wait for it. A broker that dies still leads
 * its partitions in the cluster's metadata until the controller fences it, after {@code
 * broker.session.timeout.ms}: that is when this sees it.
 */
public final class PartitionMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionMonitor.class);

    /** How often the partitions are described. */
    static final Duration INTERVAL = Duration.ofSeconds(3);

    /** How long one Admin call may take. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** One look at the partitions: their descriptions and each topic's {@code min.insync.replicas}. */
    interface Source {
        Snapshot fetch() throws Exception;
    }

    record Snapshot(Map<String, TopicDescription> topics, Map<String, Integer> minInsyncReplicas) {}

    private final Source source;
    private final LongSupplier nanoTime;
    private final Admin admin; // null when the source is given
    private final ScheduledExecutorService executor; // null when checked by hand
    private volatile PartitionReport report = PartitionReport.NONE;
    private long since; // nanoTime when the current trouble began; the checking thread's only

    PartitionMonitor(Source source, LongSupplier nanoTime) {
        this(source, nanoTime, null, null);
    }

    private PartitionMonitor(Source source, LongSupplier nanoTime, Admin admin, ScheduledExecutorService executor) {
        this.source = source;
        this.nanoTime = nanoTime;
        this.admin = admin;
        this.executor = executor;
    }

    /** Starts describing the output and dead-letter partitions every {@link #INTERVAL}. */
    static PartitionMonitor start(SanitiserConfig config, Properties adminProperties) {
        Properties properties = new Properties();
        properties.putAll(adminProperties);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        Admin admin = Admin.create(properties);
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "utf8-sanitiser-partition-monitor");
            thread.setDaemon(true);
            return thread;
        });
        PartitionMonitor monitor = new PartitionMonitor(() -> fetch(admin, config), System::nanoTime, admin, executor);
        executor.scheduleWithFixedDelay(
                monitor::check, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        return monitor;
    }

    private static Snapshot fetch(Admin admin, SanitiserConfig config) throws Exception {
        List<String> topics = SanitiserTopics.written(admin, config);
        if (topics.isEmpty()) {
            return new Snapshot(Map.of(), Map.of());
        }
        long timeout = TIMEOUT.toMillis();
        Map<String, TopicDescription> descriptions =
                admin.describeTopics(topics).allTopicNames().get(timeout, TimeUnit.MILLISECONDS);
        List<ConfigResource> resources = topics.stream()
                .map(topic -> new ConfigResource(ConfigResource.Type.TOPIC, topic))
                .collect(Collectors.toList());
        Map<ConfigResource, Config> configs =
                admin.describeConfigs(resources).all().get(timeout, TimeUnit.MILLISECONDS);
        Map<String, Integer> minIsr = configs.entrySet().stream()
                .filter(e -> e.getValue().get("min.insync.replicas") != null)
                .collect(Collectors.toMap(
                        e -> e.getKey().name(), e -> minIsr(e.getValue().get("min.insync.replicas"))));
        return new Snapshot(descriptions, minIsr);
    }

    private static int minIsr(ConfigEntry entry) {
        return Integer.parseInt(entry.value().trim());
    }

    /** Describes once, logs a change, and returns the report. One thread at a time. */
    PartitionReport check() {
        Snapshot snapshot;
        try {
            snapshot = source.fetch();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return report;
        } catch (Exception e) {
            // No answer: ClusterMonitor reports a cluster that does not answer; the last report stands.
            LOG.debug("could not describe the output partitions: {}", e.toString());
            return report;
        }
        PartitionReport next = PartitionReport.of(snapshot.topics(), snapshot.minInsyncReplicas());
        PartitionReport before = report;
        long now = nanoTime.getAsLong();
        if (before.isClear() && !next.isClear()) {
            since = now;
        }
        report = next;
        if (next.equals(before)) {
            return next;
        }
        if (next.isClear()) {
            LOG.info(
                    "every output and dead-letter partition has a leader and all its replicas in sync again, after"
                            + " {} s",
                    TimeUnit.NANOSECONDS.toSeconds(now - since));
        } else if (next.unwritable().isPresent()) {
            LOG.warn("{}", next.describe());
        } else {
            LOG.info("{}", next.describe());
        }
        return next;
    }

    /** Empty while every output and dead-letter partition can take writes; else why not. */
    public Optional<String> unwritable() {
        return report.unwritable();
    }

    /** The last report, for the metrics. */
    PartitionReport report() {
        return report;
    }

    @Override
    public void close() {
        if (executor != null) {
            executor.shutdownNow();
        }
        if (admin != null) {
            admin.close(Duration.ZERO);
        }
    }
}
