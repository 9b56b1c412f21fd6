package dev.utf8sanitiser.app;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * While the sanitiser stops, turns the errors that Kafka Streams logs for a stream thread whose
 * producer had been fenced into one INFO line per thread, without a stack trace.
 *
 * <p>That happens when SIGTERM comes during a long rebalance under exactly-once: a rebalance that
 * waits for a member that is gone (killed, within its session timeout) can outlast {@code
 * transaction.timeout.ms}, so the broker aborts the open transaction of a waiting thread and fences
 * its producer. Closing then cannot commit: {@code TaskManager} logs "Exception caught while
 * committing tasks" and {@code StreamThread} "Failed to close task manager", both at ERROR with a
 * {@code ProducerFencedException} and its stack. Nothing is lost: the transaction is aborted, the
 * input offsets with it, and whoever owns the partitions next reads those records again. It is a
 * normal stop, and says so.
 *
 * <p>The same fence also reaches the consumer's rebalance listener (ERROR), the thread's own
 * WARN "Detected that the thread is being fenced" with its stack, and TaskManager's ERROR for each
 * task it left uncommitted; all are part of that normal stop. Only those loggers, only a fenced
 * producer and its consequences, only from {@link #install()} on (the stop): any other error stays
 * as Kafka logs it. A no-op unless Log4j 2 is the logging backend, as in the
 * application jar.
 */
final class FencedAtStop extends AbstractFilter {
    private static final Logger LOG = LoggerFactory.getLogger(FencedAtStop.class);
    private static final String INTERNALS = "org.apache.kafka.streams.processor.internals.";
    /** Kafka's internal names and text, not API: FencedAtStopTest fails when an upgrade changes them. */
    static final String TASK_MANAGER = INTERNALS + "TaskManager";

    static final Set<String> LOGGERS = Set.of(
            TASK_MANAGER,
            INTERNALS + "StreamThread",
            INTERNALS + "RecordCollectorImpl",
            // The rebalance listener's commit, when the stop comes during a rebalance.
            "org.apache.kafka.clients.consumer.internals.ConsumerRebalanceListenerInvoker");
    /** What TaskManager logs, without an exception, for each task the fenced commit left uncommitted. */
    static final String LEFT_UNCOMMITTED = "should have been committed when it was suspended";

    private static final Set<Configuration> INSTALLED = Collections.newSetFromMap(new IdentityHashMap<>());

    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    private FencedAtStop() {}

    /** From now on, for the rest of this process. */
    static void install() {
        if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
            return;
        }
        Configuration configuration = context.getConfiguration();
        synchronized (INSTALLED) {
            if (!INSTALLED.add(configuration)) {
                return;
            }
        }
        FencedAtStop filter = new FencedAtStop();
        filter.start();
        Set<LoggerConfig> configs = Collections.newSetFromMap(new IdentityHashMap<>());
        for (String name : LOGGERS) {
            configs.add(configuration.getLoggerConfig(name)); // the root's, unless configured apart
        }
        configs.forEach(config -> config.addFilter(filter));
    }

    @Override
    public Result filter(LogEvent event) {
        if (!event.getLevel().isMoreSpecificThan(Level.WARN) || !LOGGERS.contains(event.getLoggerName())) {
            return Result.NEUTRAL;
        }
        String thread = event.getThreadName();
        if (!fenced(event.getThrown())) {
            // The tasks the fenced commit left behind: part of the same normal stop, once it is reported.
            boolean consequence = reported.contains(thread)
                    && event.getMessage().getFormattedMessage().contains(LEFT_UNCOMMITTED);
            return consequence ? Result.DENY : Result.NEUTRAL;
        }
        if (reported.add(thread)) {
            LOG.info(
                    "{} stops without committing: its producer had been fenced during a rebalance (the broker"
                            + " aborted its transaction after transaction.timeout.ms), so the records of that"
                            + " transaction are read again by whoever owns the partitions next; a normal stop",
                    event.getThreadName());
        }
        return Result.DENY;
    }

    private static boolean fenced(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof ProducerFencedException || t instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }
}
