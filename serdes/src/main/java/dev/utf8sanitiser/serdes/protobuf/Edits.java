package dev.utf8sanitiser.serdes.protobuf;

import java.util.Arrays;

/**
 * Replacements of ranges of a walked array, and the array they make: the strings fixed and the
 * length prefixes of every message around them. Kept compact, three ints and the new bytes each, as
 * a record may need one for every two of its bytes.
 */
final class Edits {
    private int[] starts = new int[8];
    private int[] ends = new int[8];
    /** Where each edit's new bytes end in {@link #replacements}; they start where the last one's end. */
    private int[] replacementEnds = new int[8];

    private byte[] replacements = new byte[32];
    private int replacementsLength;
    private int count;
    /** Whether an edit was added before one already there: sort before applying. */
    private boolean unordered;

    int size() {
        return count;
    }

    void clear() {
        count = 0;
        replacementsLength = 0;
        unordered = false;
    }

    /**
     * Replace {@code [start, end)} with a length-delimited field's payload as Protobuf writes it: its
     * length as a varint, then its bytes.
     *
     * @return how many bytes longer the value becomes (negative when shorter)
     */
    int delimited(int start, int end, byte[] text) {
        begin(start, end);
        int size = varint(text.length);
        append(text, text.length);
        finish();
        return size + text.length - (end - start);
    }

    /**
     * Replace {@code [start, end)}, a length prefix, with {@code length} as a varint.
     *
     * @return how many bytes longer the prefix becomes (negative when shorter)
     */
    int length(int start, int end, int length) {
        begin(start, end);
        int size = varint(length);
        finish();
        return size - (end - start);
    }

    /** The array with every edit applied. */
    byte[] apply(byte[] bytes) {
        int[] order = order();
        long length = bytes.length + replacementsLength;
        for (int i = 0; i < count; i++) {
            length -= ends[i] - starts[i];
        }
        byte[] out = new byte[Math.toIntExact(length)];
        int at = 0;
        int written = 0;
        for (int i : order) {
            int from = i == 0 ? 0 : replacementEnds[i - 1];
            System.arraycopy(bytes, at, out, written, starts[i] - at);
            written += starts[i] - at;
            System.arraycopy(replacements, from, out, written, replacementEnds[i] - from);
            written += replacementEnds[i] - from;
            at = ends[i];
        }
        System.arraycopy(bytes, at, out, written, bytes.length - at);
        return out;
    }

    /** The edits by start; no two edits start at one place. */
    private int[] order() {
        int[] order = new int[count];
        if (!unordered) {
            Arrays.setAll(order, i -> i);
            return order;
        }
        long[] keys = new long[count];
        for (int i = 0; i < count; i++) {
            keys[i] = (long) starts[i] << 32 | i;
        }
        Arrays.sort(keys);
        for (int i = 0; i < count; i++) {
            order[i] = (int) keys[i];
        }
        return order;
    }

    private void begin(int start, int end) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, 2 * count);
            ends = Arrays.copyOf(ends, 2 * count);
            replacementEnds = Arrays.copyOf(replacementEnds, 2 * count);
        }
        unordered |= count > 0 && start < starts[count - 1];
        starts[count] = start;
        ends[count] = end;
    }

    private void finish() {
        replacementEnds[count++] = replacementsLength;
    }

    /** Appends {@code n} as an unsigned varint; returns its size. */
    private int varint(int n) {
        byte[] encoded = new byte[5];
        int v = n;
        int i = 0;
        while ((v & ~0x7F) != 0) {
            encoded[i++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        encoded[i++] = (byte) v;
        append(encoded, i);
        return i;
    }

    private void append(byte[] b, int length) {
        if (replacementsLength + length > replacements.length) {
            replacements = Arrays.copyOf(replacements, Math.max(2 * replacements.length, replacementsLength + length));
        }
        System.arraycopy(b, 0, replacements, replacementsLength, length);
        replacementsLength += length;
    }
}
