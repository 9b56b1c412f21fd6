package dev.utf8sanitiser.serdes.record;

import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;

/** What the sanitiser decided for one record. */
public sealed interface Decision {
    /** Well-formed (or a tombstone): forward the record as it came. */
    record Pass() implements Decision {}

    /**
     * Fixed under replace or repair: forward these parts downstream.
     *
     * @param action {@code replaced} or {@code repaired}, for the {@code __utf8.action} header
     * @param errors ill-formed places found, repairs included, all parts together
     * @param first the first ill-formed place, or empty when only content rules changed the text:
     *     what a dead-letter record describes if the changed record cannot be sent on
     */
    record Changed(byte[] key, byte[] value, Headers headers, String action, int errors, Optional<Finding> first)
            implements Decision {}

    /**
     * Not to be passed on: route the record, byte-exact, to the dead-letter topic.
     *
     * @param first the first ill-formed place (parts checked in order value, key, headers); for a
     *     record too large to send on with no such place, a finding at its first byte
     * @param errors ill-formed places found, all parts together
     * @param oversize present when the record goes to the dead-letter topic for its size
     *     ({@link Oversize#REPLACEMENT_TOO_LARGE}, {@link Oversize#RECORD_TOO_LARGE}), which then
     *     names the rule and {@code first} the first ill-formed place, if any
     */
    record DeadLetter(Finding first, int errors, Optional<Oversize> oversize) implements Decision {
        public DeadLetter {
            Objects.requireNonNull(first, "first");
            Objects.requireNonNull(oversize, "oversize");
        }

        /** A verdict on the record's content. */
        public DeadLetter(Finding first, int errors) {
            this(first, errors, Optional.empty());
        }

        /** The rule the record is dead-lettered under: {@code __utf8.rule}, and the metrics' tag. */
        public String rule() {
            return oversize.map(Oversize::rule).orElse(first.rule());
        }
    }
}
