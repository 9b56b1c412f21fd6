package dev.utf8sanitiser.serdes.protobuf;

/**
 * The bytes are not a message of the type the schema and message indexes name, read as
 * protobuf-java reads it: a verdict on the record ({@code MALFORMED_PROTOBUF}), not a failure of
 * the host.
 */
public final class MalformedProtobufException extends RuntimeException {
    private final int offset;
    private final String field;

    MalformedProtobufException(String reason, int offset, String field) {
        super(reason + " at byte " + offset + (field.isEmpty() ? "" : " in " + field), null, false, false);
        this.offset = offset;
        this.field = field;
    }

    /** Where reading failed, from the first byte of the array walked. */
    public int offset() {
        return offset;
    }

    /** The field being read, docs/dlq.md's {@code __utf8.field}; empty at the top of the message. */
    public String field() {
        return field;
    }
}
