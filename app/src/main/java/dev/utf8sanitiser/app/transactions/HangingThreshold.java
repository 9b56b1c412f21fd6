package dev.utf8sanitiser.app.transactions;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;

/**
 * How long a transaction may stay open on a healthy cluster that is failing over, and so how long
 * one must have been seen open before it counts as hanging:
 *
 * <pre>
 * transaction.timeout.ms                                  the producer commits or aborts within it,
 * + transaction.abort.timed.out.transaction.cleanup.interval.ms
 *                                                         or its coordinator aborts it at its next scan,
 * + broker.session.timeout.ms                             after a new coordinator takes over from one
 *                                                         that died (fenced after the session timeout),
 * + broker.session.timeout.ms                             and the markers wait for a new leader of a
 *                                                         partition whose leader died.
 * </pre>
 *
 * With Kafka Streams' 10 s transaction timeout and Kafka's defaults (10 s scan, 9 s session) that
 * is 38 s. A rolling restart moves leaders and coordinators by controlled shutdown, faster than a
 * session timeout; a loaded start-up delays commits, but never past the transaction timeout, after
 * which the coordinator aborts.
 */
public record HangingThreshold(Duration transactionTimeout, Duration abortScanInterval, Duration sessionTimeout) {

    /** Kafka's default {@code transaction.abort.timed.out.transaction.cleanup.interval.ms}. */
    static final Duration DEFAULT_ABORT_SCAN_INTERVAL = Duration.ofSeconds(10);

    /** Kafka's default {@code broker.session.timeout.ms}. */
    static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(9);

    static final String ABORT_SCAN = "transaction.abort.timed.out.transaction.cleanup.interval.ms";
    static final String SESSION = "broker.session.timeout.ms";

    /** How long to wait for the brokers' configuration before taking Kafka's defaults. */
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(5);

    /** The threshold with Kafka's default broker settings. */
    public static HangingThreshold withDefaults(Duration transactionTimeout) {
        return new HangingThreshold(transactionTimeout, DEFAULT_ABORT_SCAN_INTERVAL, DEFAULT_SESSION_TIMEOUT);
    }

    /**
     * The threshold with the brokers' own settings (the largest of each across the brokers that
     * answer within 5 s), or Kafka's defaults for a setting none of them gives.
     */
    public static HangingThreshold read(Admin admin, Duration transactionTimeout) throws InterruptedException {
        try {
            Collection<Node> brokers = admin.describeCluster(
                            new DescribeClusterOptions().timeoutMs((int) ASK_TIMEOUT.toMillis()))
                    .nodes()
                    .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<ConfigResource> resources = brokers.stream()
                    .map(node -> new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(node.id())))
                    .toList();
            Map<ConfigResource, Config> configs = admin.describeConfigs(
                            resources, new DescribeConfigsOptions().timeoutMs((int) ASK_TIMEOUT.toMillis()))
                    .all()
                    .get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return new HangingThreshold(
                    transactionTimeout,
                    largest(configs, ABORT_SCAN).orElse(DEFAULT_ABORT_SCAN_INTERVAL),
                    largest(configs, SESSION).orElse(DEFAULT_SESSION_TIMEOUT));
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            // Not allowed to describe the brokers (an ACL), or no answer: Kafka's defaults.
            return withDefaults(transactionTimeout);
        }
    }

    private static Optional<Duration> largest(Map<ConfigResource, Config> configs, String name) {
        return configs.values().stream()
                .map(config -> config.get(name))
                .filter(entry -> entry != null && entry.value() != null)
                .map(ConfigEntry::value)
                .map(value -> Duration.ofMillis(Long.parseLong(value.trim())))
                .max(Duration::compareTo);
    }

    /** See the class comment. */
    public Duration threshold() {
        return transactionTimeout.plus(abortScanInterval).plus(sessionTimeout.multipliedBy(2));
    }

    /** The sum spelt out, for the log and the command line. */
    public String describe() {
        return threshold().toSeconds() + " s (transaction timeout " + seconds(transactionTimeout)
                + " + coordinator's abort scan " + seconds(abortScanInterval) + " + 2 x broker session timeout "
                + seconds(sessionTimeout) + ")";
    }

    private static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
