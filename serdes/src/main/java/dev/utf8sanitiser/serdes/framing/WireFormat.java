package dev.utf8sanitiser.serdes.framing;

/** Confluent's wire format: magic byte 0, then the schema id in 4 bytes, big endian. */
public final class WireFormat {
    public static final byte MAGIC_BYTE = 0;
    public static final int PREFIX_LENGTH = 5;

    private WireFormat() {}

    /** Whether {@code value} starts with the magic byte and holds a whole id. */
    public static boolean hasPrefix(byte[] value) {
        return value.length >= PREFIX_LENGTH && value[0] == MAGIC_BYTE;
    }

    /** The schema id of a value that {@link #hasPrefix has the prefix}. */
    public static int schemaId(byte[] value) {
        return ((value[1] & 0xFF) << 24) | ((value[2] & 0xFF) << 16) | ((value[3] & 0xFF) << 8) | (value[4] & 0xFF);
    }

    /** The prefix for {@code schemaId}. */
    public static byte[] prefix(int schemaId) {
        return new byte[] {
            MAGIC_BYTE, (byte) (schemaId >>> 24), (byte) (schemaId >>> 16), (byte) (schemaId >>> 8), (byte) schemaId
        };
    }
}
