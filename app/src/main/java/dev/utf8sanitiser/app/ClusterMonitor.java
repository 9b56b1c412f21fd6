package dev.utf8sanitiser.app;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches, while the sanitiser runs, whether the Kafka cluster answers: one WARN when it stops
 * answering, one INFO when it is back, and the reason for {@code /health/ready} in between. Kafka
 * Streams' clients retry on their own and say nothing (a line per retry would be noise, and {@code
 * NetworkClient} is silenced in log4j2.xml), so without this a broker outage leaves no trace.
 *
 * <p>It asks a broker directly ({@link ClusterProbe}, every {@link #INTERVAL}, each probe within
 * {@link #PROBE_TIMEOUT}) rather than reading the Streams clients' metrics: their {@code
 * connection-count} counts open connections, not answers, so a broker that accepts connections but
 * does not answer looks healthy, and those metrics are per client and per stream thread. The probe
 * asks what readiness means: does the cluster answer this application now.
 */
public final class ClusterMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMonitor.class);

    /** How often the cluster is asked. */
    static final Duration INTERVAL = Duration.ofSeconds(2);

    /** How long one probe waits for an answer. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    /** What {@link #check()} changed. */
    enum Change {
        NONE,
        LOST,
        BACK
    }

    /** One probe: returns when the cluster answered, throws when it did not. */
    interface Probe {
        void probe() throws Exception;
    }

    private final Probe probe;
    private final String bootstrapServers;
    private final LongSupplier nanoTime;
    private final Admin admin; // null when the probe is given
    private final ScheduledExecutorService executor; // null when checked by hand
    private volatile long lastAnswer; // nanoTime of the last answer
    private volatile String failure; // what the last probe said, null while the cluster answers

    ClusterMonitor(Probe probe, String bootstrapServers, LongSupplier nanoTime) {
        this(probe, bootstrapServers, nanoTime, null, null);
    }

    private ClusterMonitor(
            Probe probe,
            String bootstrapServers,
            LongSupplier nanoTime,
            Admin admin,
            ScheduledExecutorService executor) {
        this.probe = probe;
        this.bootstrapServers = bootstrapServers;
        this.nanoTime = nanoTime;
        this.admin = admin;
        this.executor = executor;
        this.lastAnswer = nanoTime.getAsLong();
    }

    /** Starts asking every {@link #INTERVAL}; the cluster answered at start-up. */
    static ClusterMonitor start(Properties adminProperties, String bootstrapServers) {
        Admin admin = Admin.create(adminProperties);
        ClusterProbe cluster = new ClusterProbe(admin);
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "utf8-sanitiser-cluster-monitor");
            thread.setDaemon(true);
            return thread;
        });
        ClusterMonitor monitor = new ClusterMonitor(
                () -> cluster.probe(PROBE_TIMEOUT), bootstrapServers, System::nanoTime, admin, executor);
        executor.scheduleWithFixedDelay(
                monitor::check, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        return monitor;
    }

    /** Probes once, logs a change, and says what changed. One thread at a time. */
    Change check() {
        String failed;
        try {
            probe.probe();
            failed = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Change.NONE;
        } catch (Exception e) {
            failed = ClusterProbe.describe(e, PROBE_TIMEOUT);
        }
        long now = nanoTime.getAsLong();
        boolean wasLost = failure != null;
        if (failed == null) {
            long silent = now - lastAnswer;
            lastAnswer = now;
            failure = null;
            if (wasLost) {
                LOG.info(
                        "the Kafka cluster at {} answers again, after {} s without an answer",
                        bootstrapServers,
                        TimeUnit.NANOSECONDS.toSeconds(silent));
                return Change.BACK;
            }
            return Change.NONE;
        }
        failure = failed;
        if (wasLost) {
            return Change.NONE;
        }
        LOG.warn(
                "lost the Kafka cluster at {}: no answer for {} s ({}); Kafka Streams keeps retrying, records"
                        + " wait, and /health/ready answers 503 until the cluster is back",
                bootstrapServers,
                TimeUnit.NANOSECONDS.toSeconds(now - lastAnswer),
                failed);
        return Change.LOST;
    }

    /** Empty while the cluster answers; else why it counts as unreachable, for {@code /health/ready}. */
    public Optional<String> unreachable() {
        String failed = failure;
        if (failed == null) {
            return Optional.empty();
        }
        long silent = TimeUnit.NANOSECONDS.toSeconds(nanoTime.getAsLong() - lastAnswer);
        return Optional.of("cannot reach the Kafka cluster at " + bootstrapServers + ": no answer for " + silent
                + " s (" + failed + ")");
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
