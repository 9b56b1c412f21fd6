package dev.utf8sanitiser.app.transactions;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks for hanging transactions on the sanitiser's output and dead-letter topics every few
 * seconds, while it runs. Such a transaction stops every {@code read_committed} reader of the
 * partition, and the sanitiser itself, without an error that names it (docs/reliability.md); this
 * names it once in a WARN and keeps it in {@link #hanging()} for {@code /health} and the metric
 * until it is gone.
 *
 * <p>A transaction counts as hanging once this monitor has seen it open, with the same start
 * offset, for longer than {@link HangingThreshold}: the transaction timeout plus what a coordinator
 * and a leader failover may add. Neither a broker failover, a rolling restart nor a slow start-up
 * keeps a live transaction open that long; record timestamps play no part ({@link
 * OpenTransactionTracker}).
 */
public final class HangingTransactionMonitor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactionMonitor.class);

    private final Admin admin;
    private final SanitiserConfig config;
    private final Duration transactionTimeout;
    private final HangingTransactionFinder finder;
    private final ScheduledExecutorService executor;
    private final Set<String> reported = new HashSet<>(); // only the executor's thread uses it
    private HangingThreshold threshold; // read from the brokers by the first check; executor's thread only
    private OpenTransactionTracker tracker; // executor's thread only
    private volatile List<HangingTransaction> hanging = List.of();

    private HangingTransactionMonitor(Admin admin, SanitiserConfig config, Duration transactionTimeout) {
        this.admin = admin;
        this.config = config;
        this.transactionTimeout = transactionTimeout;
        this.finder = new HangingTransactionFinder(admin, transactionTimeout, Clock.systemUTC());
        this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "utf8-sanitiser-hanging-transactions");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts checking every half transaction timeout (between 1 and 30 s). */
    public static HangingTransactionMonitor start(SanitiserConfig config, Properties adminProperties) {
        Duration timeout = SanitiserTopics.transactionTimeout(config.streamsProperties());
        HangingTransactionMonitor monitor =
                new HangingTransactionMonitor(Admin.create(adminProperties), config, timeout);
        long period = Math.max(1_000, Math.min(30_000, timeout.toMillis() / 2));
        monitor.executor.scheduleWithFixedDelay(monitor::check, period, period, TimeUnit.MILLISECONDS);
        return monitor;
    }

    /** The hanging transactions found by the last check; empty when there are none. */
    public List<HangingTransaction> hanging() {
        return hanging;
    }

    private void check() {
        try {
            if (tracker == null) {
                threshold = HangingThreshold.read(admin, transactionTimeout);
                tracker = new OpenTransactionTracker(threshold.threshold());
                LOG.debug("a transaction open for longer than {} is hanging", threshold.describe());
            }
            List<OpenTransaction> open = finder.open(SanitiserTopics.written(admin, config));
            List<HangingTransaction> found = tracker.observe(open, System.nanoTime());
            Set<String> now = new HashSet<>();
            for (HangingTransaction transaction : found) {
                String key = transaction.partition() + "/" + transaction.producerId() + "/" + transaction.startOffset();
                now.add(key);
                if (!reported.contains(key)) {
                    warn(transaction, CoordinatorView.of(admin, transaction.partition(), transaction.producerId()));
                }
            }
            reported.retainAll(now);
            reported.addAll(now);
            hanging = List.copyOf(found);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // The broker is away or restarting: the last answer stands until the next check.
            LOG.debug("could not check for hanging transactions: {}", e.toString());
        }
    }

    private void warn(HangingTransaction transaction, CoordinatorView coordinator) {
        if (!coordinator.hanging()) {
            LOG.warn(
                    "long transaction: {}; open for longer than a transaction can last through a broker failover, {};"
                            + " {}. read_committed readers of {} (and this sanitiser) wait until it ends. Check that"
                            + " every broker is up and every partition has a leader (docs/reliability.md, A hanging"
                            + " transaction)",
                    transaction.describe(),
                    threshold.describe(),
                    coordinator.describe(),
                    transaction.partition());
            return;
        }
        LOG.warn(
                "hanging transaction: {}; open for longer than a transaction can last through a broker"
                        + " failover, {}; {}. read_committed readers of {} (and this sanitiser) wait until"
                        + " it ends. Before aborting it, check that every broker is up and every"
                        + " partition has a leader, that producer id {} is no running writer's, and that"
                        + " utf8-sanitiser transactions find-hanging still lists it with start offset {}"
                        + " a minute later; then abort it (docs/reliability.md, A hanging transaction)",
                transaction.describe(),
                threshold.describe(),
                coordinator.describe(),
                transaction.partition(),
                transaction.producerId(),
                transaction.startOffset());
    }

    @Override
    public void close() {
        executor.shutdownNow();
        admin.close(Duration.ZERO); // nothing to finish; with the broker away a wait would only delay the stop
    }
}
