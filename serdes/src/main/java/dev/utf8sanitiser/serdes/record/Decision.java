package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Outcome;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.header.Header;

/**
 * What the sanitiser decided for one record, or for one part of it: the one result every host
 * acts on.
 *
 * @param <T> what a fixed record or part is sent on as: {@link RecordParts} for a whole record,
 *     {@code byte[]} for one part, the host's own object for a value it parsed itself (a Connect
 *     {@code Struct})
 */
public sealed interface Decision<T> {
    /** Well-formed (or a tombstone): forward the record as it came. */
    record Pass<T>() implements Decision<T> {
        private static final Pass<?> INSTANCE = new Pass<>();
    }

    /** A pass: it holds nothing, so every record that passes shares one rather than making its own. */
    @SuppressWarnings("unchecked")
    static <T> Pass<T> pass() {
        return (Pass<T>) Pass.INSTANCE;
    }

    /**
     * Fixed under replace or repair, or by a content rule: forward {@code fixed} downstream.
     *
     * @param outcome {@link Outcome#REPLACED}, {@link Outcome#REPAIRED}, {@link Outcome#STRIPPED} or
     *     {@link Outcome#NORMALISED}: the most significant change made
     * @param errors ill-formed places found, repairs included, all parts together
     * @param first the first ill-formed place, or empty when only content rules changed the text:
     *     what a dead-letter record describes if the changed record cannot be sent on
     */
    record Changed<T>(T fixed, Outcome outcome, int errors, Optional<Finding> first) implements Decision<T> {
        public Changed {
            Objects.requireNonNull(fixed, "fixed");
            Objects.requireNonNull(first, "first");
            if (!outcome.changed()) {
                throw new IllegalArgumentException("not an outcome of a change: " + outcome);
            }
        }

        /**
         * The headers docs/dlq.md adds to a record sent on changed, {@code __utf8.action} and {@code
         * __utf8.errors}, in that order: the one place they are written, for every host.
         */
        public List<Header> annotation() {
            return List.of(
                    PlainHeader.of(HeaderNames.ACTION, outcome.label()),
                    PlainHeader.of(HeaderNames.ERRORS, Integer.toString(errors)));
        }
    }

    /**
     * Not to be passed on: route the record, byte-exact, to the dead-letter topic.
     *
     * @param first the first ill-formed place (parts checked in order value, key, headers); for a
     *     record too large to send on with no such place, a finding at its first byte
     * @param errors ill-formed places found, all parts together
     * @param oversize present when the record goes to the dead-letter topic for its size
     *     ({@link DeadLetterRule#REPLACEMENT_TOO_LARGE}, {@link DeadLetterRule#RECORD_TOO_LARGE}), which then
     *     names the rule and {@code first} the first ill-formed place, if any
     */
    record DeadLetter<T>(Finding first, int errors, Optional<Oversize> oversize) implements Decision<T> {
        public DeadLetter {
            Objects.requireNonNull(first, "first");
            Objects.requireNonNull(oversize, "oversize");
        }

        /** A verdict on the record's content. */
        public DeadLetter(Finding first, int errors) {
            this(first, errors, Optional.empty());
        }

        /** The rule the record is dead-lettered under: {@code __utf8.rule}, and the metrics' tag. */
        public DeadLetterRule rule() {
            return oversize.map(Oversize::rule).orElse(first.rule());
        }
    }

    /**
     * The same decision with the fixed value turned into {@code U} (a host's own type for it); a
     * pass or a dead letter stays as it is.
     */
    default <U> Decision<U> map(Function<? super T, ? extends U> convert) {
        if (this instanceof Changed<T> changed) {
            return new Changed<>(convert.apply(changed.fixed()), changed.outcome(), changed.errors(), changed.first());
        }
        if (this instanceof DeadLetter<T> dead) {
            return new DeadLetter<>(dead.first(), dead.errors(), dead.oversize());
        }
        return pass();
    }

    /** {@link Outcome#PASSED}, the change made, or {@link Outcome#REJECTED}: for metrics and reports. */
    default Outcome outcome() {
        if (this instanceof Changed<T> changed) {
            return changed.outcome();
        }
        return this instanceof DeadLetter ? Outcome.REJECTED : Outcome.PASSED;
    }
}
