package dev.utf8sanitiser.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Applies a {@link Policy} to bytes in one array: the output and a report of every error and repair
 * with its offset. Well-formed input costs one validation and is returned as the same array.
 */
public final class Utf8Sanitiser {
    private Utf8Sanitiser() {}

    public static Sanitised sanitise(byte[] bytes, Policy policy) {
        return sanitise(bytes, 0, bytes.length, policy);
    }

    /**
     * Sanitises {@code bytes[offset, offset + length)}. Offsets in the report are relative to
     * {@code offset}. When the range is well-formed (or the policy is STRICT) and covers the whole
     * array, the output is the array itself.
     */
    public static Sanitised sanitise(byte[] bytes, int offset, int length, Policy policy) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        Objects.requireNonNull(policy, "policy");
        int to = offset + length;
        if (Utf8Validator.validPrefixEnd(bytes, offset, to) == to) {
            return new Sanitised(range(bytes, offset, length), policy, List.of(), List.of());
        }
        Report report = new Report(policy == Policy.STRICT ? null : new Output(length));
        SanitisingStream.walk(policy, bytes, offset, to, true, 0, report);
        byte[] output = report.output == null ? range(bytes, offset, length) : report.output.toByteArray();
        return new Sanitised(output, policy, report.errors, report.repairs);
    }

    private static byte[] range(byte[] bytes, int offset, int length) {
        return offset == 0 && length == bytes.length ? bytes : Arrays.copyOfRange(bytes, offset, offset + length);
    }

    /** Collects the report, and the output unless the policy only judges. */
    private static final class Report implements SanitisingStream.Sink {
        final Output output;
        final List<Utf8Error> errors = new ArrayList<>();
        final List<Repair> repairs = new ArrayList<>();

        Report(Output output) {
            this.output = output;
        }

        @Override
        public void wellFormed(byte[] bytes, int from, int to) {
            if (output != null) {
                output.write(bytes, from, to - from);
            }
        }

        @Override
        public void illFormed(long offset, int length, Rule rule) {
            errors.add(new Utf8Error(offset, length, rule));
            if (output != null) {
                output.write(Utf8Replacement.REPLACEMENT_CHARACTER, 0, 3);
            }
        }

        @Override
        public void repaired(long offset, int length, Repair.Kind kind, int codePoint) {
            repairs.add(new Repair(offset, length, kind, codePoint));
            output.writeCodePoint(codePoint);
        }
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

    /** A growable byte array; never longer than three bytes per input byte. */
    static final class Output {
        private byte[] bytes;
        private int size;

        Output(int expected) {
            bytes = new byte[Math.max(16, expected + Math.min(expected, 64))];
        }

        void write(byte[] source, int from, int length) {
            ensure(length);
            System.arraycopy(source, from, bytes, size, length);
            size += length;
        }

        void writeCodePoint(int cp) {
            ensure(4);
            size += encode(cp, bytes, size);
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(size + more, bytes.length * 2));
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, size);
        }
    }
}
