package dev.utf8sanitiser.serdes.record;

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
     */
    record Changed(byte[] key, byte[] value, Headers headers, String action, int errors) implements Decision {}

    /**
     * Not to be passed on: route the record, byte-exact, to the dead-letter topic.
     *
     * @param first the first ill-formed place (parts checked in order value, key, headers)
     * @param errors ill-formed places found, all parts together
     */
    record DeadLetter(Finding first, int errors) implements Decision {}
}
