package dev.utf8sanitiser.serdes.protobuf;

import dev.utf8sanitiser.serdes.framing.ByteEdits;

/**
 * Replacements of ranges of a walked Protobuf message ({@link ByteEdits}): the strings fixed and
 * the length prefixes of every message around them, as unsigned varints.
 */
final class Edits {
    private static final byte[] NOTHING = {};

    private final ByteEdits edits = new ByteEdits();
    private final byte[] encoded = new byte[5];

    int size() {
        return edits.size();
    }

    void clear() {
        edits.clear();
    }

    /**
     * Replace {@code [start, end)} with a length-delimited field's payload as Protobuf writes it: its
     * length as a varint, then its bytes.
     *
     * @return how many bytes longer the value becomes (negative when shorter)
     */
    int delimited(int start, int end, byte[] text) {
        int size = varint(text.length);
        edits.replace(start, end, encoded, size, text);
        return size + text.length - (end - start);
    }

    /**
     * Replace {@code [start, end)}, a length prefix, with {@code length} as a varint.
     *
     * @return how many bytes longer the prefix becomes (negative when shorter)
     */
    int length(int start, int end, int length) {
        int size = varint(length);
        edits.replace(start, end, encoded, size, NOTHING);
        return size - (end - start);
    }

    /** The array with every edit applied. */
    byte[] apply(byte[] bytes) {
        return edits.apply(bytes);
    }

    /** Writes {@code n} as an unsigned varint into {@link #encoded}; returns its size. */
    private int varint(int n) {
        int v = n;
        int i = 0;
        while ((v & ~0x7F) != 0) {
            encoded[i++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        encoded[i++] = (byte) v;
        return i;
    }
}
