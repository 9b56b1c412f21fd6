package dev.utf8sanitiser.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Strict UTF-8 validation exactly as Table 3-7 of the Unicode Standard defines well-formed UTF-8.
 *
 * <p>The well-formed path allocates nothing. ASCII is skipped 32 or 8 bytes
 * at a time by testing the high bit of each byte in a {@code long}. Anything else goes through a
 * shift-based DFA (after Per Vognsen): each state is a bit offset into a 64-bit table row, so one
 * step is {@code state = ROW[byte] >>> state}, a single shift on the dependency chain, and the JVM's
 * masking of the shift count to 6 bits does the rest. The error state is 0, so it is sticky and the
 * loop tests for it once per 8-byte block instead of once per byte. A long run of non-ASCII text is
 * cut into windows, each checked as two such chains side by side, since one chain waits on itself.
 *
 * <p>Where the JVM has the Vector API ({@code --add-modules jdk.incubator.vector}), inputs of a
 * vector's width or more go through {@link VectorUtf8} instead, which hands the block with the
 * first error back to this loop ({@link VectorSupport}).
 *
 * <p>When the DFA fails, the rare path walks back to the last sequence boundary and lets {@link
 * MaximalSubpart} name the rule and the length of the maximal subpart, so the fast loop never
 * carries error bookkeeping.
 *
 * <p>Offsets in results are relative to the first checked byte. {@code ByteBuffer} methods check
 * the bytes between position and limit and do not move the position.
 */
public final class Utf8Validator {
    private Utf8Validator() {}

    // DFA states, as bit offsets into a row. ERROR must be 0: bits 0..5 of every row stay 0, so a
    // failed DFA stays failed whatever follows.
    private static final int ERROR = 0;
    private static final int ACCEPT = 6;
    private static final int TAIL1 = 12; // one more 80..BF to go
    private static final int TAIL2 = 18; // two more 80..BF
    private static final int TAIL3 = 24; // three more 80..BF
    private static final int AFTER_E0 = 30; // needs A0..BF, then TAIL1
    private static final int AFTER_ED = 36; // needs 80..9F, then TAIL1
    private static final int AFTER_F0 = 42; // needs 90..BF, then TAIL2
    private static final int AFTER_F4 = 48; // needs 80..8F, then TAIL2
    private static final int STATE_MASK = 63;

    /** {@code ROWS[b] >>> s & 63} is the state after byte {@code b} in state {@code s}. */
    private static final long[] ROWS = buildRows();

    /**
     * In text that starts in a non-Latin script, how many 8-byte blocks in a row must hold a byte
     * that is not ASCII, after ASCII, before the windows of {@link #twoChains} are taken again.
     */
    private static final int RUN_BLOCKS = 4;

    /** Half the window of {@link #twoChains}, in bytes: the length of each chain. */
    static final int CHAIN = 64;

    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The rows, written from Table 3-7 one range at a time. */
    private static long[] buildRows() {
        long[] rows = new long[256];
        // From ACCEPT, the first byte of each line of Table 3-7.
        transition(rows, ACCEPT, 0x00, 0x7F, ACCEPT);
        transition(rows, ACCEPT, 0xC2, 0xDF, TAIL1);
        transition(rows, ACCEPT, 0xE0, 0xE0, AFTER_E0);
        transition(rows, ACCEPT, 0xE1, 0xEC, TAIL2);
        transition(rows, ACCEPT, 0xED, 0xED, AFTER_ED);
        transition(rows, ACCEPT, 0xEE, 0xEF, TAIL2);
        transition(rows, ACCEPT, 0xF0, 0xF0, AFTER_F0);
        transition(rows, ACCEPT, 0xF1, 0xF3, TAIL3);
        transition(rows, ACCEPT, 0xF4, 0xF4, AFTER_F4);
        // Continuation bytes.
        transition(rows, TAIL1, 0x80, 0xBF, ACCEPT);
        transition(rows, TAIL2, 0x80, 0xBF, TAIL1);
        transition(rows, TAIL3, 0x80, 0xBF, TAIL2);
        // The four narrowed second bytes (bold in Table 3-7).
        transition(rows, AFTER_E0, 0xA0, 0xBF, TAIL1);
        transition(rows, AFTER_ED, 0x80, 0x9F, TAIL1);
        transition(rows, AFTER_F0, 0x90, 0xBF, TAIL2);
        transition(rows, AFTER_F4, 0x80, 0x8F, TAIL2);
        // Every transition not set above leads to ERROR (0).
        return rows;
    }

    private static void transition(long[] rows, int from, int firstByte, int lastByte, int to) {
        for (int b = firstByte; b <= lastByte; b++) {
            rows[b] |= (long) to << from;
        }
    }

    // ---- well-formedness ----

    /** Returns whether {@code bytes} is well-formed UTF-8 as a whole. Allocates nothing. */
    public static boolean isWellFormed(byte[] bytes) {
        return validPrefixEnd(bytes, 0, bytes.length) == bytes.length;
    }

    /**
     * Returns whether {@code bytes[offset, offset + length)} is well-formed UTF-8: a sequence cut by
     * either end makes it ill-formed. Allocates nothing.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code bytes}
     */
    public static boolean isWellFormed(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        return validPrefixEnd(bytes, offset, offset + length) == offset + length;
    }

    /**
     * Returns whether the bytes between the buffer's position and limit are well-formed UTF-8,
     * without moving its position. A heap buffer is read in place; a direct one is copied through
     * a small array a chunk at a time ({@link Utf8StreamValidator}), so there is one hot loop.
     */
    public static boolean isWellFormed(ByteBuffer buffer) {
        if (buffer.hasArray()) {
            int from = buffer.arrayOffset() + buffer.position();
            int to = buffer.arrayOffset() + buffer.limit();
            return validPrefixEnd(buffer.array(), from, to) == to;
        }
        return !streamed(buffer, error -> {}).hasError();
    }

    // ---- first error ----

    /** Returns the first ill-formed maximal subpart of {@code bytes}, or empty when it is well-formed. */
    public static Optional<Utf8Error> firstError(byte[] bytes) {
        return firstError(bytes, 0, bytes.length);
    }

    /**
     * Returns the first ill-formed maximal subpart of {@code bytes[offset, offset + length)}, its
     * offset counted from {@code offset}, or empty when the range is well-formed.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code bytes}
     */
    public static Optional<Utf8Error> firstError(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        int to = offset + length;
        int end = validPrefixEnd(bytes, offset, to);
        if (end == to) {
            return Optional.empty();
        }
        return Optional.of(error(MaximalSubpart.at(bytes, end, to), end - offset));
    }

    /**
     * Returns the first ill-formed maximal subpart between the buffer's position and limit, its
     * offset counted from the position, or empty; the position does not move.
     */
    public static Optional<Utf8Error> firstError(ByteBuffer buffer) {
        if (buffer.hasArray()) {
            return firstError(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        }
        return streamed(buffer, error -> {}).firstError();
    }

    // ---- every error ----

    /** Every ill-formed maximal subpart, in order; empty for well-formed input. */
    public static List<Utf8Error> errors(byte[] bytes) {
        return errors(bytes, 0, bytes.length);
    }

    /**
     * Returns every ill-formed maximal subpart of {@code bytes[offset, offset + length)}, in order,
     * offsets counted from {@code offset}; empty for well-formed input.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code bytes}
     */
    public static List<Utf8Error> errors(byte[] bytes, int offset, int length) {
        List<Utf8Error> errors = new ArrayList<>();
        forEachError(bytes, offset, length, errors::add);
        return errors;
    }

    /**
     * Returns every ill-formed maximal subpart between the buffer's position and limit, in order,
     * offsets counted from the position; the position does not move.
     */
    public static List<Utf8Error> errors(ByteBuffer buffer) {
        List<Utf8Error> errors = new ArrayList<>();
        forEachError(buffer, errors::add);
        return errors;
    }

    /**
     * Reports every ill-formed maximal subpart of {@code bytes[offset, offset + length)} to {@code
     * listener}, in order, offsets counted from {@code offset}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code bytes}
     */
    public static void forEachError(byte[] bytes, int offset, int length, Utf8ErrorListener listener) {
        forEachIllFormed(
                bytes, offset, length, (at, subpart, rule) -> listener.onError(new Utf8Error(at, subpart, rule)));
    }

    /**
     * Reports every ill-formed maximal subpart, in order, as numbers: for input that may hold millions
     * of them, where one object each would cost more heap than the input.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code bytes}
     */
    public static void forEachIllFormed(byte[] bytes, int offset, int length, IllFormedListener listener) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        int to = offset + length;
        int i = offset;
        while ((i = validPrefixEnd(bytes, i, to)) < to) {
            int subpart = MaximalSubpart.at(bytes, i, to);
            listener.onIllFormed(i - offset, MaximalSubpart.length(subpart), MaximalSubpart.rule(subpart));
            i += MaximalSubpart.length(subpart);
        }
    }

    /**
     * Reports every ill-formed maximal subpart between the buffer's position and limit to {@code
     * listener}, in order, offsets counted from the position; the position does not move.
     */
    public static void forEachError(ByteBuffer buffer, Utf8ErrorListener listener) {
        if (buffer.hasArray()) {
            forEachError(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining(), listener);
            return;
        }
        streamed(buffer, listener);
    }

    /**
     * A direct buffer's bytes, copied a chunk at a time through the array loop by a stream
     * validator, which carries a sequence cut by a chunk's end into the next: the same errors, at
     * the same offsets, as the bytes in one array. No second copy of the hot loop to keep in step.
     */
    private static Utf8StreamValidator streamed(ByteBuffer buffer, Utf8ErrorListener listener) {
        Utf8StreamValidator validator = new Utf8StreamValidator(listener);
        validator.update(buffer.duplicate());
        validator.finish();
        return validator;
    }

    private static Utf8Error error(int illFormedSubpart, long offset) {
        return new Utf8Error(offset, MaximalSubpart.length(illFormedSubpart), MaximalSubpart.rule(illFormedSubpart));
    }

    // ---- the fast loops ----

    /**
     * The end of the longest run of complete well-formed characters that starts at {@code from}:
     * {@code to} when all of {@code bytes[from, to)} is well-formed, otherwise the index where an
     * ill-formed or incomplete sequence starts.
     */
    static int validPrefixEnd(byte[] bytes, int from, int to) {
        // A constant after class initialisation: the JIT keeps one branch. VectorUtf8 is loaded
        // only if this is ever true.
        if (VectorSupport.ENABLED && to - from >= VectorUtf8.minimumLength()) {
            return VectorUtf8.validPrefixEnd(bytes, from, to);
        }
        return scalarValidPrefixEnd(bytes, from, to);
    }

    /** The bytes before a position that can decide whether it must be a continuation byte. */
    static final int LOOK_BACK = 3;

    /**
     * Whether the {@link #LOOK_BACK} bytes at {@code from} start well-formed text: no error among
     * them, though the last character may go on past them. Three dependent shifts, no branch: the
     * vector path's start.
     */
    static boolean startsWithoutError(byte[] bytes, int from) {
        long state = ROWS[bytes[from] & 0xFF] >>> ACCEPT;
        state = ROWS[bytes[from + 1] & 0xFF] >>> state;
        state = ROWS[bytes[from + 2] & 0xFF] >>> state;
        return (state & STATE_MASK) != ERROR;
    }

    /** {@link #validPrefixEnd} on the scalar path: the DFA below, and the vector path's rare path. */
    static int scalarValidPrefixEnd(byte[] bytes, int from, int to) {
        // Chosen once per input, from 32 bytes at its start, a third and two thirds in, so that the
        // loop for mostly-ASCII text stays as it is (with the windows' test inside it, Latin text
        // with accents ran 10 to 20% slower), and text that mixes a script with much ASCII, such as
        // Wikipedia's Chinese and Korean with their markup, stays with it too (up to 23% slower in
        // windows).
        int third = (to - from) / 3;
        if (to - from > 2 * CHAIN
                && dense(bytes, from)
                && dense(bytes, from + third)
                && dense(bytes, from + 2 * third)) {
            return windowsValidPrefixEnd(bytes, from, to);
        }
        return blocksValidPrefixEnd(bytes, from, to);
    }

    /** The ASCII skip and the 8-byte blocks of the DFA, for text the windows do not pay for. */
    private static int blocksValidPrefixEnd(byte[] bytes, int from, int to) {
        int i = from;
        int boundary = from; // a sequence boundary at or before the first unchecked byte
        long state = ACCEPT;
        while (to - i >= 8) {
            if (state == ACCEPT) {
                // Between characters: skip ASCII 32 bytes, then 8 bytes, at a time.
                while (to - i >= 32 && (asciiTest(bytes, i) & HIGH_BITS) == 0) {
                    i += 32;
                }
                while (to - i >= 8 && ((long) LONGS.get(bytes, i) & HIGH_BITS) == 0) {
                    i += 8;
                }
                if (to - i < 8) {
                    break;
                }
                boundary = i;
            }
            // One block: eight dependent shifts, no branch.
            state = ROWS[bytes[i] & 0xFF] >>> state;
            state = ROWS[bytes[i + 1] & 0xFF] >>> state;
            state = ROWS[bytes[i + 2] & 0xFF] >>> state;
            state = ROWS[bytes[i + 3] & 0xFF] >>> state;
            state = ROWS[bytes[i + 4] & 0xFF] >>> state;
            state = ROWS[bytes[i + 5] & 0xFF] >>> state;
            state = ROWS[bytes[i + 6] & 0xFF] >>> state;
            state = ROWS[bytes[i + 7] & 0xFF] >>> state;
            i += 8;
            state &= STATE_MASK;
            if (state == ERROR) {
                return walkToError(bytes, boundary, to);
            }
        }
        for (; i < to; i++) {
            if (state == ACCEPT) {
                boundary = i;
            }
            state = ROWS[bytes[i] & 0xFF] >>> state & STATE_MASK;
        }
        return state == ACCEPT ? to : walkToError(bytes, boundary, to);
    }

    /**
     * For text dense in a non-Latin script: the loop of {@link #blocksValidPrefixEnd}, which after
     * {@link #RUN_BLOCKS} blocks in a row with non-ASCII bytes hands the text to the windows of
     * {@link #twoChains}. A copy on purpose: one loop serving both, with this test behind a flag
     * (HotSpot does not unswitch a loop that holds loops), ran Wikipedia's Chinese at 0.88 of these
     * two in the same JMH run (JDK 17, 2 forks of 5 iterations, whole corpus: 11,952 against 13,635
     * ops/s), Russian Lipsum at 1.13, French at 1.09 and Latin at 1.02.
     */
    private static int windowsValidPrefixEnd(byte[] bytes, int from, int to) {
        int i = from;
        int boundary = from; // a sequence boundary at or before the first unchecked byte
        long state = ACCEPT;
        int blocks = RUN_BLOCKS; // 8-byte blocks in a row with a byte that is not ASCII
        while (to - i >= 8) {
            if (state == ACCEPT) {
                int skipped = i;
                while (to - i >= 32 && (asciiTest(bytes, i) & HIGH_BITS) == 0) {
                    i += 32;
                }
                while (to - i >= 8 && ((long) LONGS.get(bytes, i) & HIGH_BITS) == 0) {
                    i += 8;
                }
                if (to - i < 8) {
                    break;
                }
                if (i != skipped) {
                    blocks = 0;
                }
                boundary = i;
                if (blocks >= RUN_BLOCKS && to - i > 2 * CHAIN) {
                    i = twoChains(bytes, i, to);
                    if (i < 0) {
                        return walkToError(bytes, boundary, to);
                    }
                    blocks = 0;
                    continue;
                }
            }
            state = ROWS[bytes[i] & 0xFF] >>> state;
            state = ROWS[bytes[i + 1] & 0xFF] >>> state;
            state = ROWS[bytes[i + 2] & 0xFF] >>> state;
            state = ROWS[bytes[i + 3] & 0xFF] >>> state;
            state = ROWS[bytes[i + 4] & 0xFF] >>> state;
            state = ROWS[bytes[i + 5] & 0xFF] >>> state;
            state = ROWS[bytes[i + 6] & 0xFF] >>> state;
            state = ROWS[bytes[i + 7] & 0xFF] >>> state;
            i += 8;
            blocks++;
            state &= STATE_MASK;
            if (state == ERROR) {
                return walkToError(bytes, boundary, to);
            }
        }
        for (; i < to; i++) {
            if (state == ACCEPT) {
                boundary = i;
            }
            state = ROWS[bytes[i] & 0xFF] >>> state & STATE_MASK;
        }
        return state == ACCEPT ? to : walkToError(bytes, boundary, to);
    }

    /**
     * Checks non-ASCII text from the sequence boundary {@code i} in windows of about {@code 2 *
     * CHAIN} bytes, each cut in two at a character's first byte and its halves run through the DFA
     * as two independent chains, so the CPU overlaps them: one chain is a shift per byte that waits
     * for the one before, which holds uniform Cyrillic or CJK text to about one byte a cycle. Both
     * halves start between characters, so the window is well-formed exactly when each ends there.
     * Stops at a window's end (a boundary) when the text ahead is not {@link #dense} or less than a
     * window is left.
     *
     * @return where it stopped, between characters; -1 when a window is not well-formed, or its
     *     cut finds four continuation bytes in a row (the caller's rare path names the error)
     */
    private static int twoChains(byte[] bytes, int i, int to) {
        while (to - i > 2 * CHAIN) {
            int mid = characterStart(bytes, i + CHAIN);
            int end = characterStart(bytes, i + 2 * CHAIN);
            if (mid < 0 || end < 0) {
                return -1;
            }
            long first = ACCEPT;
            long second = ACCEPT;
            int both = Math.min(mid - i, end - mid);
            for (int k = 0; k < both; k++) {
                first = ROWS[bytes[i + k] & 0xFF] >>> first;
                second = ROWS[bytes[mid + k] & 0xFF] >>> second;
            }
            for (int k = i + both; k < mid; k++) {
                first = ROWS[bytes[k] & 0xFF] >>> first;
            }
            for (int k = mid + both; k < end; k++) {
                second = ROWS[bytes[k] & 0xFF] >>> second;
            }
            if ((first & STATE_MASK) != ACCEPT || (second & STATE_MASK) != ACCEPT) {
                return -1;
            }
            i = end;
            if (to - i > 2 * CHAIN && !dense(bytes, i)) {
                break;
            }
        }
        return i;
    }

    /**
     * The first byte of the character that holds {@code at}: {@code at} or up to three bytes before
     * it, whichever is not a continuation byte; -1 when all four are (never in well-formed text).
     */
    private static int characterStart(byte[] bytes, int at) {
        for (int back = 0; back < 4; back++) {
            if ((bytes[at - back] & 0xC0) != 0x80) {
                return at - back;
            }
        }
        return -1;
    }

    /**
     * Whether three quarters or more of the 32 bytes at {@code i} are not ASCII: text in a
     * non-Latin script, where the windows of {@link #twoChains} pay. (Half let in Wikipedia's
     * Chinese and Japanese with their markup, which ran up to 15% slower in windows.)
     */
    private static boolean dense(byte[] bytes, int i) {
        return Long.bitCount((long) LONGS.get(bytes, i) & HIGH_BITS)
                        + Long.bitCount((long) LONGS.get(bytes, i + 8) & HIGH_BITS)
                        + Long.bitCount((long) LONGS.get(bytes, i + 16) & HIGH_BITS)
                        + Long.bitCount((long) LONGS.get(bytes, i + 24) & HIGH_BITS)
                >= 24;
    }

    /** The four longs at {@code i} OR-ed: its high bits are clear when all 32 bytes are ASCII. */
    private static long asciiTest(byte[] bytes, int i) {
        return (long) LONGS.get(bytes, i)
                | (long) LONGS.get(bytes, i + 8)
                | (long) LONGS.get(bytes, i + 16)
                | (long) LONGS.get(bytes, i + 24);
    }

    /** The rare path: walks sequence by sequence from a known boundary to the failing sequence. */
    private static int walkToError(byte[] bytes, int boundary, int to) {
        int i = boundary;
        while (i < to) {
            int subpart = MaximalSubpart.at(bytes, i, to);
            if (!MaximalSubpart.isWellFormed(subpart)) {
                return i;
            }
            i += MaximalSubpart.length(subpart);
        }
        return to;
    }
}
