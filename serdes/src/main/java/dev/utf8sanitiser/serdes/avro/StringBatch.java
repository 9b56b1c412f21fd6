package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.core.Utf8Validator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Checks every string of one Avro value in a single pass of the validator, over the value itself
 * with every byte that is not in a string and not ASCII read as a space. The scan names those bytes
 * as it passes them ({@link #blank}): the leading bytes of a varint, doubles, floats, fixed and
 * bytes values. Then every string stands between ASCII bytes (a length's last byte is always ASCII),
 * an ASCII byte ends any sequence before it and no continuation byte may follow it, so the view is
 * well-formed exactly when each string is.
 *
 * <p>One call over a couple of kilobytes instead of fifty over sentences and map keys a few bytes
 * long: the validator's vector path needs 67 bytes to start, and every call has its cost. The value
 * is copied with one {@code System.arraycopy} when the batch starts, and the scan writes the blanks
 * over the copy as it goes. Copying each string on its own took a call of the JDK's copy stub a
 * string, about 8 ns each on JDK 17; noting the ranges to blank and writing them after the scan
 * cost more than it saved (docs/benchmarks.md).
 *
 * <p>It only says whether all strings are well-formed; which one is not, and where, is for the
 * string-by-string walk. One per thread, reused: nothing is allocated per value once the buffer has
 * grown to the largest value seen.
 */
final class StringBatch {
    private static final byte SPACE = ' ';
    /** Eight spaces, or four in its low half. */
    private static final long SPACES = 0x2020_2020_2020_2020L;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] copy = new byte[256];
    /** Where in the scanned array the copy starts, and how long it is. */
    private int base;

    private int length;

    /** Starts a batch for the value {@code bytes[from, to)}: copies it, to blank the copy. */
    void start(byte[] bytes, int from, int to) {
        length = to - from;
        if (copy.length < length) {
            copy = new byte[Math.max(length, 2 * copy.length)];
        }
        System.arraycopy(bytes, from, copy, 0, length);
        base = from;
    }

    /**
     * Reads {@code bytes[from, to)} of the value as spaces: bytes outside any string. Most ranges
     * are a double, a long's varint or a checksum, 2 to 16 bytes: two stores as wide as the range
     * allows, overlapping, cover any length up to twice their width without a loop over bytes,
     * which took 7% of the record decision.
     */
    void blank(int from, int to) {
        int at = from - base;
        int end = to - base;
        int length = end - at;
        if (length >= Long.BYTES) {
            for (; at < end - Long.BYTES; at += Long.BYTES) {
                LONG.set(copy, at, SPACES);
            }
            LONG.set(copy, end - Long.BYTES, SPACES);
        } else if (length >= Integer.BYTES) {
            INT.set(copy, at, (int) SPACES);
            INT.set(copy, end - Integer.BYTES, (int) SPACES);
        } else if (length >= 2) {
            copy[at] = SPACE;
            copy[at + 1] = SPACE;
            copy[end - 1] = SPACE;
        } else if (length == 1) {
            copy[at] = SPACE;
        }
    }

    /** Reads byte {@code at} of the value as a space: the first byte of a two-byte varint. */
    void blank(int at) {
        copy[at - base] = SPACE;
    }

    /** Whether every string of the value scanned since {@link #start} is well-formed. */
    boolean allWellFormed() {
        return Utf8Validator.isWellFormed(copy, 0, length);
    }

    /** The value as the validator sees it: for tests and benchmarks. */
    byte[] view() {
        return Arrays.copyOf(copy, length);
    }
}
