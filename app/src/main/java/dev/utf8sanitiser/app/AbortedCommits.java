package dev.utf8sanitiser.app;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.kafka.common.errors.InvalidTxnStateException;

/**
 * Recognises a stream thread that died because the transaction coordinator had already aborted
 * its transaction, and decides whether to replace the thread rather than stop the instance.
 *
 * <p>Under Kafka's transactions V2, a coordinator that aborts an open transaction on its own
 * (after {@code transaction.timeout.ms}, say while a broker was cut off from the network) bumps the
 * producer epoch; a commit already on its way then gets {@code INVALID_TXN_STATE}, which the
 * producer treats as fatal and Kafka Streams does not handle (KAFKA-20785, fixed on the broker
 * side to answer {@code PRODUCER_FENCED}). Nothing was committed: the coordinator rolled the
 * transaction back. A new stream thread starts a new producer, which fences the old one, and
 * resumes from the last committed offsets, exactly as a restart of the process would, without
 * one.
 *
 * <p>The same error repeating means something else is wrong, so replacements are budgeted: at
 * most {@link #BUDGET} within {@link #WINDOW}; beyond that the configured {@code
 * sanitiser.on.fatal.error} applies.
 */
final class AbortedCommits {
    static final int BUDGET = 3;
    static final Duration WINDOW = Duration.ofMinutes(5);

    private final Clock clock;
    private final Deque<Instant> replaced = new ArrayDeque<>(); // guarded by this

    AbortedCommits(Clock clock) {
        this.clock = clock;
    }

    /** Whether {@code exception} has an {@link InvalidTxnStateException} among its causes. */
    static boolean in(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidTxnStateException) {
                return true;
            }
            if (cause.getCause() == cause) {
                return false;
            }
        }
        return false;
    }

    /**
     * Whether a thread that died of {@code exception} is to be replaced: it is an aborted
     * commit, and the budget has room (which this call then uses).
     */
    synchronized boolean replace(Throwable exception) {
        if (!in(exception)) {
            return false;
        }
        Instant now = clock.instant();
        while (!replaced.isEmpty() && replaced.peekFirst().isBefore(now.minus(WINDOW))) {
            replaced.removeFirst();
        }
        if (replaced.size() >= BUDGET) {
            return false;
        }
        replaced.addLast(now);
        return true;
    }
}
