package dev.utf8sanitiser.serdes.record;

/**
 * How a record value is read: as text, or as a document (JSON, Avro) whose strings are checked one
 * by one. One instance serves every record and every thread.
 */
@FunctionalInterface
public interface ValueFormat {
    /** Every byte of the value is text. */
    ValueFormat TEXT = (part, value, checks) -> checks.text(part, value);

    /**
     * Checks {@code value}, reporting every finding to {@code checks} as found in {@code part} (the
     * value, or the key when a serde reads keys in this format), and returns the bytes to send on:
     * the same array when nothing changed.
     *
     * @throws dev.utf8sanitiser.registry.RegistryUnavailableException when the schema cannot be
     *     fetched now: a transient failure, never a verdict on the record
     */
    byte[] check(Part part, byte[] value, RecordChecks checks);
}
