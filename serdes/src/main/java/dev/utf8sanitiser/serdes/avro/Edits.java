package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.serdes.framing.ByteEdits;

/** Replacements of ranges of a walked Avro record, with Avro's zig-zag varints ({@link ByteEdits}). */
final class Edits {
    private static final byte[] NOTHING = {};

    private final ByteEdits edits = new ByteEdits();
    private final byte[] encoded = new byte[10];

    int size() {
        return edits.size();
    }

    /** Replace {@code [start, end)} with a string as Avro writes it: its zig-zag length, then its bytes. */
    void string(int start, int end, byte[] text) {
        edits.replace(start, end, encoded, zigZag(text.length), text);
    }

    /** Replace {@code [start, end)} with {@code n} as a zig-zag varint. */
    void varint(int start, int end, long n) {
        edits.replace(start, end, encoded, zigZag(n), NOTHING);
    }

    /** The array with every edit applied. */
    byte[] apply(byte[] bytes) {
        return edits.apply(bytes);
    }

    /** Writes {@code n} as a zig-zag varint into {@link #encoded}; returns its size. */
    private int zigZag(long n) {
        long v = (n << 1) ^ (n >> 63);
        int i = 0;
        while ((v & ~0x7FL) != 0) {
            encoded[i++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        encoded[i++] = (byte) v;
        return i;
    }
}
