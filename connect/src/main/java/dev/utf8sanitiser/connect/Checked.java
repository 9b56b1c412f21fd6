package dev.utf8sanitiser.connect;

import dev.utf8sanitiser.serdes.record.Decision;
import java.util.Objects;

/**
 * What {@link ValueChecker} found in one part of a Connect record: {@link Decision} for values that
 * are objects (a fixed {@code Struct} rather than fixed bytes).
 */
sealed interface Checked {
    /** Nothing to change: send the record on as it came. */
    Pass PASS = new Pass();

    /** Well-formed (or fixed nothing): the record goes on as it came. */
    record Pass() implements Checked {}

    /**
     * Fixed under {@code replace} or {@code repair}, or by a content rule: the part's new value, of
     * the same Java type and schema as the old one.
     *
     * @param action the {@code __utf8.action} header: {@code replaced}, {@code repaired}, {@code
     *     stripped} or {@code normalised}
     * @param errors the {@code __utf8.errors} header
     */
    record Fixed(Object value, String action, int errors) implements Checked {
        public Fixed {
            Objects.requireNonNull(action, "action");
        }
    }

    /** Not to be passed on: fail the record or route it to the dead-letter topic. */
    record Rejected(Decision.DeadLetter verdict) implements Checked {
        public Rejected {
            Objects.requireNonNull(verdict, "verdict");
        }
    }
}
