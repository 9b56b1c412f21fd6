package dev.utf8sanitiser.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector path of {@link Utf8Validator#validPrefixEnd}, with the JDK's Vector API, one block of
 * the CPU's preferred width (16 to 64 bytes) per step. Each byte is checked against the three before
 * it, as in Keiser and Lemire's algorithm ("Validating UTF-8 In Less Than One Instruction Per Byte",
 * Software: Practice and Experience, 2021), but with compares where the paper looks the previous
 * and current bytes' nibbles up in three 16-entry tables: a table lookup is a lane-crossing shuffle
 * in the Vector API, several instructions on AVX2, where each compare is one.
 *
 * <p>An ASCII block after a complete character is skipped with one test, on longs: JDK 17 runs that
 * faster than a vector compare and its mask (Latin text at 38 GB/s instead of 17), and JDK 25 about
 * as fast. The first three bytes go through the DFA (nothing before them may be looked at), the
 * first block starts after them, and the last partial block is checked as the last whole block,
 * overlapping the one before. Errors are only detected here, never named: at the first block with
 * one, the scalar loop takes over from the start of the character the block begins in and finds the
 * exact place, so both paths give the same answers by construction, and the tests run the same
 * suites against each.
 *
 * <p>Loaded only when {@link VectorSupport} has found the {@code jdk.incubator.vector} module;
 * nothing here may be referenced from a class that is always loaded.
 */
final class VectorUtf8 {
    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
    private static final int WIDTH = SPECIES.length();
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    // The operands of the compares, made once: JDK 17's C2 does not always inline the broadcast
    // behind an operation given a scalar, and then calls it per block. Unsigned compares are written
    // as signed ones on bytes with the top bit flipped (UNSIGNED_LT is not on JDK 17's fast path).
    private static final ByteVector TOP_BIT = broadcast(0x80);
    private static final ByteVector LEAD_AFTER_FLIP = broadcast((0xC0 ^ 0x80) - 1); // > : C0..FF
    private static final ByteVector THREE_BYTE_LEAD_AFTER_FLIP = broadcast((0xE0 ^ 0x80) - 1); // > : E0..FF
    private static final ByteVector FOUR_BYTE_LEAD_AFTER_FLIP = broadcast((0xF0 ^ 0x80) - 1); // > : F0..FF
    private static final ByteVector C2_AFTER_FLIP = broadcast(0xC2 ^ 0x80); // < : below C2
    private static final ByteVector F4_AFTER_FLIP = broadcast(0xF4 ^ 0x80); // > : F5..FF
    // Signed, continuation bytes (80..BF) are -128..-65 and every other byte is above them.
    private static final ByteVector C0 = broadcast(0xC0); // < : 80..BF
    private static final ByteVector A0 = broadcast(0xA0); // < : 80..9F
    private static final ByteVector B90 = broadcast(0x90); // < : 80..8F
    private static final ByteVector B9F = broadcast(0x9F); // > : A0..BF, or no continuation
    private static final ByteVector B8F = broadcast(0x8F); // > : 90..BF, or no continuation
    private static final ByteVector NONE = broadcast(0);
    private static final ByteVector ALL = broadcast(0xFF);
    private static final ByteVector E0 = broadcast(0xE0);
    private static final ByteVector ED = broadcast(0xED);
    private static final ByteVector F0 = broadcast(0xF0);
    private static final ByteVector F4 = broadcast(0xF4);

    private VectorUtf8() {}

    /** Whether the CPU's preferred vector holds the 16-entry tables: 128 bits or more. */
    static boolean supported() {
        return WIDTH >= 16;
    }

    /** Inputs below this many bytes go to the scalar loop whole: less than one block after the look-back. */
    static int minimumLength() {
        return WIDTH + Utf8Validator.LOOK_BACK;
    }

    /** The vector width in bits. */
    static int bits() {
        return WIDTH * 8;
    }

    /**
     * As {@link Utf8Validator#validPrefixEnd}; {@code to - from} is at least {@link #minimumLength()}.
     */
    static int validPrefixEnd(byte[] bytes, int from, int to) {
        // The first Utf8Validator.LOOK_BACK bytes by the DFA: nothing before them is ours to look back at, and
        // the first block starts after them. (The first whole block by the scalar loop made a
        // 100-byte value cost 65-100 ns in a Kafka Streams thread: the DFA's dependent shifts and
        // data-dependent branches, run cold between Kafka's code.)
        if (!Utf8Validator.startsWithoutError(bytes, from)) {
            return Utf8Validator.scalarValidPrefixEnd(bytes, from, to);
        }
        // Block by block; the last one ends at the input's end, overlapping the one before (the
        // bytes they share were checked already, and checking them again changes nothing). One
        // call site of the check, so that the JIT inlines all of it and no vector is boxed.
        int last = to - WIDTH;
        boolean afterAscii = false; // whether the block before i was all ASCII
        for (int i = from + Utf8Validator.LOOK_BACK; ; i = Math.min(i + WIDTH, last)) {
            // ASCII after ASCII, or after a complete character, holds no error: one test, on
            // longs, which JDK 17 runs faster than a vector compare and its mask.
            boolean ascii = isAscii(bytes, i, WIDTH);
            if (ascii && (afterAscii || !endsIncomplete(bytes, i))) {
                afterAscii = true;
                // A run of ASCII: the next four blocks in one test while they are all ASCII, ending
                // on the last of them; a block at a time, the loop's own steps cost more than the
                // test on 32-byte blocks.
                while (i + 4 * WIDTH <= last && isAscii(bytes, i + WIDTH, 4 * WIDTH)) {
                    i += 4 * WIDTH;
                }
                if (i == last) {
                    break;
                }
                continue;
            }
            if (hasError(bytes, i)) {
                return Utf8Validator.scalarValidPrefixEnd(bytes, characterStart(bytes, from, i), to);
            }
            if (i == last) {
                break;
            }
            afterAscii = ascii;
        }
        // Every character complete and well-formed, unless the input ends inside one.
        return endsIncomplete(bytes, to) ? characterStart(bytes, from, to) : to;
    }

    /** Whether the {@code length} bytes at {@code i} are all ASCII, tested a long at a time. */
    private static boolean isAscii(byte[] bytes, int i, int length) {
        long or = 0;
        for (int k = 0; k < length; k += 8) {
            or |= (long) LONGS.get(bytes, i + k);
        }
        return (or & HIGH_BITS) == 0;
    }

    /** Whether the bytes before {@code i} end with a lead byte whose sequence reaches {@code i}. */
    private static boolean endsIncomplete(byte[] bytes, int i) {
        return (bytes[i - 1] & 0xFF) >= 0xC0 || (bytes[i - 2] & 0xFF) >= 0xE0 || (bytes[i - 3] & 0xFF) >= 0xF0;
    }

    /**
     * Whether any byte of the block at {@code i} breaks Table 3-7, given the bytes one, two and
     * three before each. Compares only: the table lookups of the paper are lane-crossing shuffles in the
     * Vector API, which C2 makes into several instructions each on AVX2 where a compare is one; on
     * an AVX2 machine the compares run the non-Latin corpora 1.3 to 1.8 times as fast
     * (docs/benchmarks.md).
     */
    private static boolean hasError(byte[] bytes, int i) {
        // The vectors are loaded here, not passed in: a vector that crosses a call C2 does not
        // inline is boxed.
        ByteVector current = ByteVector.fromArray(SPECIES, bytes, i);
        ByteVector previous1 = ByteVector.fromArray(SPECIES, bytes, i - 1);
        ByteVector previous2 = ByteVector.fromArray(SPECIES, bytes, i - 2);
        ByteVector previous3 = ByteVector.fromArray(SPECIES, bytes, i - 3);
        ByteVector flipped1 = previous1.lanewise(VectorOperators.XOR, TOP_BIT);
        VectorMask<Byte> afterLead = flipped1.compare(VectorOperators.GT, LEAD_AFTER_FLIP);
        // A continuation is due after any lead byte, two after E0..FF, three after F0..FF; where
        // one is due there must be one, and nowhere else (a lead byte where a continuation is
        // due, a continuation after ASCII or after a complete character).
        VectorMask<Byte> due = afterLead
                .or(previous2
                        .lanewise(VectorOperators.XOR, TOP_BIT)
                        .compare(VectorOperators.GT, THREE_BYTE_LEAD_AFTER_FLIP))
                .or(previous3
                        .lanewise(VectorOperators.XOR, TOP_BIT)
                        .compare(VectorOperators.GT, FOUR_BYTE_LEAD_AFTER_FLIP));
        VectorMask<Byte> continuation = current.compare(VectorOperators.LT, C0);
        // Their difference as vectors: VectorMask.andNot, not and eq call through more levels,
        // and in a caller that C2 inlines deeply (a JMH loop) they went past its inlining depth and
        // ran as calls, with every mask boxed, twenty times slower.
        VectorMask<Byte> misplaced = NONE.blend(ALL, due).compare(VectorOperators.NE, NONE.blend(ALL, continuation));
        // Lead bytes that start no character (C0, C1, F5..FF), and the second bytes Table 3-7
        // narrows: E0 A0..BF, ED 80..9F, F0 90..BF, F4 80..8F.
        VectorMask<Byte> badLead = afterLead
                .and(flipped1.compare(VectorOperators.LT, C2_AFTER_FLIP))
                .or(flipped1.compare(VectorOperators.GT, F4_AFTER_FLIP));
        // (Where no continuation follows, the check above fails already.)
        VectorMask<Byte> outOfRange = previous1
                .compare(VectorOperators.EQ, E0)
                .and(current.compare(VectorOperators.LT, A0)) // overlong
                .or(previous1
                        .compare(VectorOperators.EQ, ED)
                        .and(current.compare(VectorOperators.GT, B9F))) // surrogate
                .or(previous1.compare(VectorOperators.EQ, F0).and(current.compare(VectorOperators.LT, B90))) // overlong
                .or(previous1
                        .compare(VectorOperators.EQ, F4)
                        .and(current.compare(VectorOperators.GT, B8F))); // > U+10FFFF
        return misplaced.or(badLead).or(outOfRange).anyTrue();
    }

    /**
     * The start of the character that holds byte {@code i}, or {@code i}: a lead byte up to three
     * back whose sequence reaches {@code i}, never before {@code from}.
     */
    private static int characterStart(byte[] bytes, int from, int i) {
        for (int back = 1; back <= 3 && i - back >= from; back++) {
            int b = bytes[i - back] & 0xFF;
            if (b < 0x80) {
                return i; // ASCII: a boundary at i
            }
            if (b >= 0xC0) {
                int length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
                return back < length ? i - back : i;
            }
        }
        return i;
    }

    private static ByteVector broadcast(int value) {
        return ByteVector.broadcast(SPECIES, (byte) value);
    }
}
