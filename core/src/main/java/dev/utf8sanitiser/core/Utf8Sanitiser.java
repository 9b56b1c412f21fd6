package dev.utf8sanitiser.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Applies a {@link Policy} to bytes in one array: the output and a report of every error and repair
 * with its offset. Well-formed input costs one validation and is returned as the same array.
 *
 * <p>Ill-formed input is walked twice when the policy writes: once to count (and report), once to
 * write into an array of exactly the output's size. So the heap a call needs is the output and the
 * report, and with a capped report ({@link #sanitise(byte[], int, int, Policy, int)}) not one object
 * per error: input that is all ill-formed has an error per byte, and an object each would cost 30 to
 * 60 times the input.
 */
public final class Utf8Sanitiser {
    private Utf8Sanitiser() {}

    public static Sanitised sanitise(byte[] bytes, Policy policy) {
        return sanitise(bytes, 0, bytes.length, policy);
    }

    /**
     * Sanitises {@code bytes[offset, offset + length)}. Offsets in the report are relative to
     * {@code offset}. When the range is well-formed (or the policy is STRICT) and covers the whole
     * array, the output is the array itself. The report lists every error and repair.
     */
    public static Sanitised sanitise(byte[] bytes, int offset, int length, Policy policy) {
        return sanitise(bytes, offset, length, policy, Integer.MAX_VALUE);
    }

    /**
     * As {@link #sanitise(byte[], int, int, Policy)}, but the report lists at most the first {@code
     * maxReported} errors and the first {@code maxReported} repairs; {@link Sanitised#errorCount()}
     * and {@link Sanitised#repairCount()} still count all of them.
     *
     * @throws IllegalArgumentException when the output would be too large for one array (more than 2
     *     GiB; U+FFFD is three bytes, so input of more than about 700 MB that is all ill-formed)
     */
    public static Sanitised sanitise(byte[] bytes, int offset, int length, Policy policy, int maxReported) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        Objects.requireNonNull(policy, "policy");
        if (maxReported < 0) {
            throw new IllegalArgumentException("maxReported < 0: " + maxReported);
        }
        int to = offset + length;
        if (Utf8Validator.validPrefixEnd(bytes, offset, to) == to) {
            return new Sanitised(range(bytes, offset, length), policy, List.of(), List.of());
        }
        Report report = new Report(maxReported);
        SanitisingStream.walk(policy, bytes, offset, to, true, 0, report);
        byte[] output;
        if (policy == Policy.STRICT) {
            output = range(bytes, offset, length);
        } else {
            if (report.outputSize > MAX_ARRAY) {
                throw new IllegalArgumentException(
                        "the output would be " + report.outputSize + " bytes, more than one array holds");
            }
            Writer writer = new Writer(new byte[(int) report.outputSize]);
            SanitisingStream.walk(policy, bytes, offset, to, true, 0, writer);
            output = writer.output;
        }
        return new Sanitised(output, policy, report.errors, report.repairs, report.errorCount, report.repairCount);
    }

    /** The largest array the JVM reliably allocates. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    private static byte[] range(byte[] bytes, int offset, int length) {
        return offset == 0 && length == bytes.length ? bytes : Arrays.copyOfRange(bytes, offset, offset + length);
    }

    /** Counts everything, lists the first errors and repairs, and sums the output's size. */
    private static final class Report implements SanitisingStream.Sink {
        final int maxReported;
        final List<Utf8Error> errors = new ArrayList<>();
        final List<Repair> repairs = new ArrayList<>();
        int errorCount;
        int repairCount;
        long outputSize;

        Report(int maxReported) {
            this.maxReported = maxReported;
        }

        @Override
        public void wellFormed(byte[] bytes, int from, int to) {
            outputSize += to - from;
        }

        @Override
        public void illFormed(long offset, int length, Rule rule) {
            if (errorCount++ < maxReported) {
                errors.add(new Utf8Error(offset, length, rule));
            }
            outputSize += Utf8Replacement.REPLACEMENT_CHARACTER.length;
        }

        @Override
        public void repaired(long offset, int length, Repair.Kind kind, int codePoint) {
            if (repairCount++ < maxReported) {
                repairs.add(new Repair(offset, length, kind, codePoint));
            }
            outputSize += encodedLength(codePoint);
        }
    }

    /** Writes the output into an array of the size {@link Report} summed. */
    private static final class Writer implements SanitisingStream.Sink {
        final byte[] output;
        private int size;

        Writer(byte[] output) {
            this.output = output;
        }

        @Override
        public void wellFormed(byte[] bytes, int from, int to) {
            System.arraycopy(bytes, from, output, size, to - from);
            size += to - from;
        }

        @Override
        public void illFormed(long offset, int length, Rule rule) {
            System.arraycopy(Utf8Replacement.REPLACEMENT_CHARACTER, 0, output, size, 3);
            size += 3;
        }

        @Override
        public void repaired(long offset, int length, Repair.Kind kind, int codePoint) {
            size += encode(codePoint, output, size);
        }
    }

    /** The length of the UTF-8 of scalar value {@code cp} (Table 3-6). */
    static int encodedLength(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }

    /** Writes the UTF-8 of scalar value {@code cp} (Table 3-6) at {@code at}; returns its length. */
    static int encode(int cp, byte[] into, int at) {
        if (cp < 0x80) {
            into[at] = (byte) cp;
            return 1;
        }
        if (cp < 0x800) {
            into[at] = (byte) (0xC0 | cp >>> 6);
            into[at + 1] = (byte) (0x80 | cp & 0x3F);
            return 2;
        }
        if (cp < 0x10000) {
            into[at] = (byte) (0xE0 | cp >>> 12);
            into[at + 1] = (byte) (0x80 | cp >>> 6 & 0x3F);
            into[at + 2] = (byte) (0x80 | cp & 0x3F);
            return 3;
        }
        into[at] = (byte) (0xF0 | cp >>> 18);
        into[at + 1] = (byte) (0x80 | cp >>> 12 & 0x3F);
        into[at + 2] = (byte) (0x80 | cp >>> 6 & 0x3F);
        into[at + 3] = (byte) (0x80 | cp & 0x3F);
        return 4;
    }
}
