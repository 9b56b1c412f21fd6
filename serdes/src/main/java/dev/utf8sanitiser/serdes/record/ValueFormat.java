package dev.utf8sanitiser.serdes.record;

/**
 * How a record value is read: as text, or as a document (JSON, Avro) whose strings are checked one
 * by one. One instance serves every record and every thread.
 */
@FunctionalInterface
public interface ValueFormat {
    /** Every byte of the value is text. */
    ValueFormat TEXT = (value, checks) -> checks.text(Part.VALUE, value);

    /**
     * Checks {@code value}, reporting every finding to {@code checks}, and returns the value to send
     * on: the same array when nothing changed.
     *
     * @throws dev.utf8sanitiser.serdes.registry.RegistryUnavailableException when the schema cannot be
     *     fetched now: a transient failure, never a verdict on the record
     */
    byte[] check(byte[] value, RecordChecks checks);
}
