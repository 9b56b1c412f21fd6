package dev.utf8sanitiser.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector path of {@link Utf8Validator#validPrefixEnd}: the lookup algorithm of Keiser and Lemire
 * ("Validating UTF-8 In Less Than One Instruction Per Byte", Software: Practice and Experience,
 * 2021), written from the paper with the JDK's Vector API, one block of the CPU's preferred width
 * (16 to 64 bytes) per step.
 *
 * <p>Three 16-entry tables, looked up by the high and low nibble of the previous byte and the high
 * nibble of the current one, AND to a set of error bits for every two-byte window; the bytes two
 * and three back say where a continuation byte is required. An ASCII block after a complete
 * character is skipped with one test, on longs: JDK 17 runs that faster than a vector compare and
 * its mask (Latin text at 38 GB/s instead of 17), and JDK 25 about as fast. The first three bytes go through the DFA (nothing before
 * them may be looked at), the first block starts after them, and the last partial block is checked
 * as the last whole block, overlapping the one before. Errors are only detected here, never named: at the first block with one, the
 * scalar loop takes over from the start of the character the block begins in and finds the exact
 * place, so both paths give the same answers by construction, and the tests run the same suites
 * against each.
 *
 * <p>Loaded only when {@link VectorSupport} has found the {@code jdk.incubator.vector} module;
 * nothing here may be referenced from a class that is always loaded.
 */
final class VectorUtf8 {
    private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
    private static final int WIDTH = SPECIES.length();
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    // The error bits of the paper's tables.
    private static final int TOO_SHORT = 1; // a lead byte, or ASCII, where a continuation is due
    private static final int TOO_LONG = 1 << 1; // a continuation byte after ASCII
    private static final int OVERLONG_3 = 1 << 2; // E0 80..9F
    private static final int TOO_LARGE = 1 << 3; // F4 90..BF, F5..FF
    private static final int SURROGATE = 1 << 4; // ED A0..BF
    private static final int OVERLONG_2 = 1 << 5; // C0, C1
    private static final int TOO_LARGE_1000 = 1 << 6; // F5..FF followed by 80..8F
    private static final int OVERLONG_4 = 1 << 6; // F0 80..8F
    private static final int TWO_CONTS = 1 << 7; // a continuation after a continuation
    private static final int CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS;

    /** By the previous byte's high nibble. */
    private static final ByteVector PREVIOUS_HIGH = table(
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG,
            TOO_LONG, // 0..7: ASCII
            TWO_CONTS,
            TWO_CONTS,
            TWO_CONTS,
            TWO_CONTS, // 8..B: a continuation
            TOO_SHORT | OVERLONG_2, // C
            TOO_SHORT, // D
            TOO_SHORT | OVERLONG_3 | SURROGATE, // E
            TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4); // F

    /** By the previous byte's low nibble. */
    private static final ByteVector PREVIOUS_LOW = table(
            CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, // x0
            CARRY | OVERLONG_2, // x1
            CARRY,
            CARRY,
            CARRY | TOO_LARGE, // x4: F4
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, // xD: ED
            CARRY | TOO_LARGE | TOO_LARGE_1000,
            CARRY | TOO_LARGE | TOO_LARGE_1000);

    /** By the current byte's high nibble. */
    private static final ByteVector CURRENT_HIGH = table(
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT, // 0..7
            TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4, // 8
            TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE, // 9
            TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE, // A
            TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE, // B
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT,
            TOO_SHORT); // C..F

    // The operands of hasError that are the same in every lane, made once: JDK 17's C2 does not
    // always inline the broadcast behind an operation given a scalar, and then calls it per block.
    private static final ByteVector LOW_NIBBLE = ByteVector.broadcast(SPECIES, (byte) 0x0F);
    private static final ByteVector TOP_BIT = ByteVector.broadcast(SPECIES, (byte) 0x80);
    private static final ByteVector THIRD_DUE = ByteVector.broadcast(SPECIES, (byte) (0xE0 ^ 0x80));
    private static final ByteVector FOURTH_DUE = ByteVector.broadcast(SPECIES, (byte) (0xF0 ^ 0x80));
    private static final ByteVector NONE = ByteVector.zero(SPECIES);
    private static final ByteVector DUE = ByteVector.broadcast(SPECIES, (byte) TWO_CONTS);

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
            boolean ascii = isAscii(bytes, i);
            if (ascii && (afterAscii || !endsIncomplete(bytes, i))) {
                afterAscii = true;
                if (i == last) {
                    break;
                }
                continue;
            }
            ByteVector current = ByteVector.fromArray(SPECIES, bytes, i);
            if (hasError(
                    current,
                    ByteVector.fromArray(SPECIES, bytes, i - 1),
                    ByteVector.fromArray(SPECIES, bytes, i - 2),
                    ByteVector.fromArray(SPECIES, bytes, i - 3))) {
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

    /** Whether the block at {@code i} is all ASCII, tested a long at a time. */
    private static boolean isAscii(byte[] bytes, int i) {
        long or = 0;
        for (int k = 0; k < WIDTH; k += 8) {
            or |= (long) LONGS.get(bytes, i + k);
        }
        return (or & HIGH_BITS) == 0;
    }

    /** Whether the bytes before {@code i} end with a lead byte whose sequence reaches {@code i}. */
    private static boolean endsIncomplete(byte[] bytes, int i) {
        return (bytes[i - 1] & 0xFF) >= 0xC0 || (bytes[i - 2] & 0xFF) >= 0xE0 || (bytes[i - 3] & 0xFF) >= 0xF0;
    }

    private static boolean hasError(
            ByteVector current, ByteVector previous1, ByteVector previous2, ByteVector previous3) {
        ByteVector special = previous1
                .lanewise(VectorOperators.LSHR, 4)
                .selectFrom(PREVIOUS_HIGH)
                .and(previous1.and(LOW_NIBBLE).selectFrom(PREVIOUS_LOW))
                .and(current.lanewise(VectorOperators.LSHR, 4).selectFrom(CURRENT_HIGH));
        // A third byte is due after E0..FF two back, a fourth after F0..FF three back (unsigned
        // compares, written as signed ones on bytes with the top bit flipped, which every JDK has).
        VectorMask<Byte> third =
                previous2.lanewise(VectorOperators.XOR, TOP_BIT).compare(VectorOperators.GE, THIRD_DUE);
        VectorMask<Byte> fourth =
                previous3.lanewise(VectorOperators.XOR, TOP_BIT).compare(VectorOperators.GE, FOURTH_DUE);
        ByteVector due = NONE.blend(DUE, third.or(fourth));
        return special.compare(VectorOperators.NE, due).anyTrue();
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

    private static ByteVector table(int... entries) {
        byte[] lanes = new byte[WIDTH];
        for (int lane = 0; lane < WIDTH; lane++) {
            lanes[lane] = (byte) entries[lane & 15];
        }
        return ByteVector.fromArray(SPECIES, lanes, 0);
    }
}
