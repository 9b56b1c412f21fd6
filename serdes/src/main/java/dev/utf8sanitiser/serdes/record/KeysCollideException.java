package dev.utf8sanitiser.serdes.record;

/**
 * A fix would make two keys of one map equal, and a reader would keep one entry of the two: a
 * verdict on the record (rejected as under {@code strict}), not a failure of the host.
 */
public final class KeysCollideException extends RuntimeException {
    private final int offset;
    private final int length;
    private final String field;

    public KeysCollideException(int offset, int length, String field) {
        super("keys would collide at " + field + " once fixed", null, false, false);
        this.offset = offset;
        this.length = length;
        this.field = field;
    }

    /** Where the text of the key the fix changed starts, from the first byte of the array walked. */
    public int offset() {
        return offset;
    }

    /** The length of that text. */
    public int length() {
        return length;
    }

    /** The key's path, docs/dlq.md's {@code __utf8.field}: {@code tags{}}. */
    public String field() {
        return field;
    }
}
