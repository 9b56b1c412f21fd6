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
 * cost more than it saved (docs/benchmarks.md). A {@linkplain #LONG_RANGE long} bytes or fixed
 * value is copied but neither blanked nor validated: the validation runs in segments around it.
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

    /**
     * A range outside the strings this long or longer (a large bytes or fixed value) is neither
     * blanked nor validated: the strings before it are validated then, as a segment of their own,
     * and the next segment starts after it, so that a large binary value costs only its share of
     * the one copy. A shorter range is blanked: each validator call has a cost of its own.
     */
    static final int LONG_RANGE = 512;

    private byte[] copy = new byte[256];
    /** Where in the scanned array the copy starts, and how long it is. */
    private int base;

    private int length;
    /** Where in the copy the segment not yet validated starts, and whether all before it were well-formed. */
    private int segmentStart;

    private boolean segmentsWellFormed;
    /** The long ranges left out, in pairs in the copy's offsets: for {@link #view} only. */
    private int[] longRanges = new int[8];

    private int longRangeEnds;

    /** Starts a batch for the value {@code bytes[from, to)}: copies it, to blank the copy. */
    void start(byte[] bytes, int from, int to) {
        length = to - from;
        if (copy.length < length) {
            copy = new byte[Math.max(length, 2 * copy.length)];
        }
        System.arraycopy(bytes, from, copy, 0, length);
        base = from;
        segmentStart = 0;
        segmentsWellFormed = true;
        longRangeEnds = 0;
    }

    /**
     * Reads {@code bytes[from, to)} of the value as spaces: bytes outside any string. Most ranges
     * are a double, a long's varint or a checksum, 2 to 16 bytes: two stores as wide as the range
     * allows, overlapping, cover any length up to twice their width without a loop over bytes,
     * which took 7% of the record decision. A {@linkplain #LONG_RANGE long} range ends a segment.
     */
    void blank(int from, int to) {
        int at = from - base;
        int end = to - base;
        int length = end - at;
        if (length >= LONG_RANGE) {
            skipLongRange(at, end);
        } else if (length >= Long.BYTES) {
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

    /**
     * Validates the segment before the range {@code [at, end)} of the copy and starts the next
     * after it. A string never spans the range, and each segment ends where a string or another
     * value ends and starts where a value does, so the segments are well-formed exactly when the
     * copy with the range blanked would be.
     */
    private void skipLongRange(int at, int end) {
        segmentsWellFormed = segmentsWellFormed && Utf8Validator.isWellFormed(copy, segmentStart, at - segmentStart);
        segmentStart = end;
        if (longRangeEnds == longRanges.length) {
            longRanges = Arrays.copyOf(longRanges, 2 * longRanges.length);
        }
        longRanges[longRangeEnds] = at;
        longRanges[longRangeEnds + 1] = end;
        longRangeEnds += 2;
    }

    /** Whether every string of the value scanned since {@link #start} is well-formed. */
    boolean allWellFormed() {
        return segmentsWellFormed && Utf8Validator.isWellFormed(copy, segmentStart, length - segmentStart);
    }

    /**
     * The value as the validator sees it, for tests and benchmarks: the long ranges left out shown
     * blanked, which validates the same as the segments.
     */
    byte[] view() {
        byte[] view = Arrays.copyOf(copy, length);
        for (int i = 0; i < longRangeEnds; i += 2) {
            Arrays.fill(view, longRanges[i], longRanges[i + 1], SPACE);
        }
        return view;
    }
}
