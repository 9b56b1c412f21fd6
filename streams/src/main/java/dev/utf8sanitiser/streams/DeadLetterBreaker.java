package dev.utf8sanitiser.streams;

import dev.utf8sanitiser.config.CircuitBreakerSettings;
import java.util.HashMap;
import java.util.Map;

/**
 * The dead-letter circuit breaker of one processor (one task): over the last {@code window}
 * records of each input topic, whether one more dead letter would put the share of dead letters
 * above the limit. The processor asks before it dead-letters a record, and throws {@link
 * DeadLetterBreakerOpenException} instead when it would; so no record past the limit is
 * dead-lettered, and, the transaction being aborted, none is committed.
 */
final class DeadLetterBreaker {
    private final CircuitBreakerSettings settings;
    private final Map<String, Window> windows = new HashMap<>();

    DeadLetterBreaker(CircuitBreakerSettings settings) {
        this.settings = settings;
    }

    /** A record of {@code topic} sent on to the output. */
    void passed(String topic) {
        if (settings.enabled()) {
            window(topic).add(false);
        }
    }

    /**
     * A record of {@code topic} about to be dead-lettered: counted, unless counting it would pass
     * the limit.
     *
     * @throws DeadLetterBreakerOpenException it would: the record must not be dead-lettered
     */
    void deadLettering(String topic) {
        if (!settings.enabled()) {
            return;
        }
        Window window = window(topic);
        int records = window.sizeWithOneMore();
        int deadLetters = window.deadLettersWithOneMore();
        if (records >= settings.decidingRecords() && deadLetters > settings.deadLetterShare() * records) {
            throw new DeadLetterBreakerOpenException(topic, deadLetters, records, settings.deadLetterShare());
        }
        window.add(true);
    }

    private Window window(String topic) {
        return windows.computeIfAbsent(topic, t -> new Window(settings.windowRecords()));
    }

    /** The last {@code capacity} records of a topic: dead letter or not, in a ring. */
    private static final class Window {
        private final boolean[] deadLetter;
        private int next;
        private int size;
        private int deadLetters;

        Window(int capacity) {
            deadLetter = new boolean[capacity];
        }

        void add(boolean dead) {
            if (size == deadLetter.length) {
                if (deadLetter[next]) {
                    deadLetters--;
                }
            } else {
                size++;
            }
            deadLetter[next] = dead;
            if (dead) {
                deadLetters++;
            }
            next = (next + 1) % deadLetter.length;
        }

        /** The window's size once one more record is in. */
        int sizeWithOneMore() {
            return Math.min(size + 1, deadLetter.length);
        }

        /** Its dead letters once one more, a dead letter, is in (and the oldest, if full, out). */
        int deadLettersWithOneMore() {
            boolean dropsOne = size == deadLetter.length && deadLetter[next];
            return deadLetters + 1 - (dropsOne ? 1 : 0);
        }
    }
}
