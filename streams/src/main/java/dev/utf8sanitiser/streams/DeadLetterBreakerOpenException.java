package dev.utf8sanitiser.streams;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.Locale;

/**
 * The dead-letter circuit breaker tripped: dead-lettering the record at hand would have put the
 * share of dead letters of its input topic above {@code sanitiser.circuit.breaker.dead.letter.share}.
 * Thrown out of the processor, so that the stream thread aborts its transaction and the record,
 * like those before it since the last commit, is read again when processing resumes. The
 * sanitiser application pauses on it (docs/operations.md); in library mode the application's
 * {@code StreamsUncaughtExceptionHandler} decides.
 */
public final class DeadLetterBreakerOpenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final int deadLetters;
    private final int records;
    private final double limit;

    /**
     * @param topic the input topic
     * @param deadLetters the dead letters the window would have held, this record included
     * @param records the records the window would have held
     * @param limit the configured share
     */
    public DeadLetterBreakerOpenException(String topic, int deadLetters, int records, double limit) {
        super(String.format(
                Locale.ROOT,
                "dead-letter circuit breaker open for %s: %d of the last %d records would be dead letters"
                        + " (%.1f%%), over %s=%s",
                topic,
                deadLetters,
                records,
                100.0 * deadLetters / records,
                SanitiserConfig.CIRCUIT_BREAKER_SHARE_CONFIG,
                limit));
        this.topic = topic;
        this.deadLetters = deadLetters;
        this.records = records;
        this.limit = limit;
    }

    public String topic() {
        return topic;
    }

    public int deadLetters() {
        return deadLetters;
    }

    public int records() {
        return records;
    }

    public double limit() {
        return limit;
    }

    /** The breaker's exception among {@code exception} and its causes, if there is one. */
    public static java.util.Optional<DeadLetterBreakerOpenException> in(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof DeadLetterBreakerOpenException open) {
                return java.util.Optional.of(open);
            }
        }
        return java.util.Optional.empty();
    }
}
