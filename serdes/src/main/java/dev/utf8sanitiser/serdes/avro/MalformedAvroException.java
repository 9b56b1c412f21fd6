package dev.utf8sanitiser.serdes.avro;

/**
 * The binary does not match the writer schema: a verdict on the record ({@code MALFORMED_AVRO}), not
 * a failure of the host.
 */
public final class MalformedAvroException extends RuntimeException {
    private final int offset;
    private final String field;

    MalformedAvroException(String reason, int offset, String field) {
        super(reason + " at byte " + offset + (field.isEmpty() ? "" : " in " + field), null, false, false);
        this.offset = offset;
        this.field = field;
    }

    /** Where reading failed, from the first byte of the array walked. */
    public int offset() {
        return offset;
    }

    /** The field being read, docs/dlq.md's {@code __utf8.field}; empty at the top of the value. */
    public String field() {
        return field;
    }
}
