package dev.utf8sanitiser.serdes.framing;

import java.util.Arrays;

/**
 * The message-index array of Confluent's Protobuf wire format: after the magic byte and the schema
 * id, which message of the schema's file the value is, as a path of indexes (the first is a
 * top-level message of the file, each next one a message nested in the one before). It is written
 * as zig-zag varints, the count first, then each index; the common {@code [0]} (the file's first
 * message) is the single byte {@code 0}.
 *
 * @param path the indexes, never empty
 * @param end where the message itself starts in the value
 */
public record MessageIndexes(int[] path, int end) {
    /** The longest path read: deeper than any file a registry would take. */
    public static final int MAX_COUNT = 256;

    private static final int[] FIRST = {0};
    private static final MessageIndexes FIRST_AFTER_PREFIX = new MessageIndexes(FIRST, WireFormat.PREFIX_LENGTH + 1);

    /** The array is the caller's not to change; a record keeps it as is so reading allocates nothing. */
    public MessageIndexes {
        if (path.length == 0) {
            throw new IllegalArgumentException("a message-index path has at least one index");
        }
    }

    /** The value read is not a message-index array: a verdict on the record. */
    public static final class MalformedIndexesException extends RuntimeException {
        private final int offset;

        MalformedIndexesException(String reason, int offset) {
            super(reason + " at byte " + offset, null, false, false);
            this.offset = offset;
        }

        /** Where reading failed, from the first byte of the value. */
        public int offset() {
            return offset;
        }
    }

    /**
     * The indexes written at {@code value[from]}. The count and every index are bounded by the bytes
     * there, so a hostile count allocates nothing it cannot back with bytes.
     *
     * @throws MalformedIndexesException a varint runs past the value or past five bytes, the count or
     *     an index is negative, or the count is more than {@link #MAX_COUNT}
     */
    public static MessageIndexes read(byte[] value, int from) {
        if (from >= value.length) {
            throw new MalformedIndexesException("no message-index array", from);
        }
        if (value[from] == 0) {
            return from == WireFormat.PREFIX_LENGTH ? FIRST_AFTER_PREFIX : new MessageIndexes(FIRST, from + 1);
        }
        long countAndEnd = zigzag(value, from);
        int count = (int) countAndEnd;
        int at = (int) (countAndEnd >>> 32);
        if (count < 0 || count > MAX_COUNT || count > value.length - at) {
            throw new MalformedIndexesException("a message-index count of " + count, from);
        }
        int[] path = new int[count];
        for (int i = 0; i < count; i++) {
            long indexAndEnd = zigzag(value, at);
            if ((int) indexAndEnd < 0) {
                throw new MalformedIndexesException("a negative message index", at);
            }
            path[i] = (int) indexAndEnd;
            at = (int) (indexAndEnd >>> 32);
        }
        return new MessageIndexes(path, at);
    }

    /** The array for {@code path} as a serializer writes it: {@code [0]} as the single byte 0. */
    public static byte[] encode(int... path) {
        if (path.length == 1 && path[0] == 0) {
            return new byte[] {0};
        }
        byte[] out = new byte[5 * (path.length + 1)];
        int at = writeZigzag(out, 0, path.length);
        for (int index : path) {
            if (index < 0) {
                throw new IllegalArgumentException("a negative message index: " + index);
            }
            at = writeZigzag(out, at, index);
        }
        return Arrays.copyOf(out, at);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MessageIndexes that && Arrays.equals(path, that.path) && end == that.end;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(path) + end;
    }

    @Override
    public String toString() {
        return "MessageIndexes" + Arrays.toString(path) + " ending at " + end;
    }

    /** A zig-zag int of at most five bytes, as Kafka's {@code ByteUtils.readVarint}: its value, and its end above. */
    private static long zigzag(byte[] value, int from) {
        int raw = 0;
        int at = from;
        for (int shift = 0; ; shift += 7) {
            if (shift > 28) {
                throw new MalformedIndexesException("a varint longer than five bytes", from);
            }
            if (at >= value.length) {
                throw new MalformedIndexesException("a varint cut short", from);
            }
            byte b = value[at++];
            raw |= (b & 0x7F) << shift;
            if (b >= 0) {
                break;
            }
        }
        int decoded = (raw >>> 1) ^ -(raw & 1);
        return ((long) at << 32) | (decoded & 0xFFFFFFFFL);
    }

    private static int writeZigzag(byte[] out, int at, int n) {
        int v = (n << 1) ^ (n >> 31);
        while ((v & ~0x7F) != 0) {
            out[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        return at;
    }
}
