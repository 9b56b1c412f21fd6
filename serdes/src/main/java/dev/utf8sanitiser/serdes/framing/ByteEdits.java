package dev.utf8sanitiser.serdes.framing;

import java.util.Arrays;

/**
 * Replacements of ranges of a walked record, and the array they make: what the Avro and Protobuf
 * walkers write when they fix strings in place. Kept compact, three ints and the new bytes each, as
 * a record may need one for every two of its bytes (an array of one-byte strings, all fixed):
 * objects per edit took 50 times the record's size in heap. Each format encodes its own lengths
 * and hands the bytes here.
 */
public final class ByteEdits {
    private int[] starts = new int[8];
    private int[] ends = new int[8];
    /** Where each edit's new bytes end in {@link #replacements}; they start where the last one's end. */
    private int[] replacementEnds = new int[8];

    private byte[] replacements = new byte[32];
    private int replacementsLength;
    private int count;
    /** Whether an edit was added before one already there: sort before applying. */
    private boolean unordered;

    public int size() {
        return count;
    }

    public void clear() {
        count = 0;
        replacementsLength = 0;
        unordered = false;
    }

    /**
     * Replace {@code [start, end)} with the first {@code prefixLength} bytes of {@code prefix} (an
     * encoded length or number), then {@code body}.
     */
    public void replace(int start, int end, byte[] prefix, int prefixLength, byte[] body) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, 2 * count);
            ends = Arrays.copyOf(ends, 2 * count);
            replacementEnds = Arrays.copyOf(replacementEnds, 2 * count);
        }
        unordered |= count > 0 && start < starts[count - 1];
        starts[count] = start;
        ends[count] = end;
        append(prefix, prefixLength);
        append(body, body.length);
        replacementEnds[count++] = replacementsLength;
    }

    /** The array with every edit applied. */
    public byte[] apply(byte[] bytes) {
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

    /** The edits by start; an edit's index breaks a tie, which never arises. */
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

    private void append(byte[] b, int length) {
        if (replacementsLength + length > replacements.length) {
            replacements = Arrays.copyOf(replacements, Math.max(2 * replacements.length, replacementsLength + length));
        }
        System.arraycopy(b, 0, replacements, replacementsLength, length);
        replacementsLength += length;
    }
}
