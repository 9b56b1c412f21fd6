package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Every 1-, 2- and 3-byte input, and every 4-byte input whose first two bytes are any pair
 * (followed by every pair of a set of boundary bytes), against {@link ReferenceUtf8}. The
 * enumerations are independent, so they run side by side.
 */
@Execution(ExecutionMode.CONCURRENT)
class ExhaustiveValidationTest {
    /** The byte values where Table 3-7 changes its mind, and their neighbours. */
    private static final int[] BOUNDARY_BYTES = {
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4,
        0xF5, 0xF8, 0xFF
    };

    @Test
    void everyOneByteInputMatchesTheReference() {
        byte[] b = new byte[1];
        for (int b0 = 0; b0 < 256; b0++) {
            b[0] = (byte) b0;
            assertAgreesWithReference(b);
        }
    }

    @Test
    void everyTwoByteInputMatchesTheReference() {
        byte[] b = new byte[2];
        for (int v = 0; v < 1 << 16; v++) {
            b[0] = (byte) (v >>> 8);
            b[1] = (byte) v;
            assertAgreesWithReference(b);
        }
    }

    @Test
    void everyThreeByteInputMatchesTheReference() {
        byte[] b = new byte[3];
        for (int v = 0; v < 1 << 24; v++) {
            b[0] = (byte) (v >>> 16);
            b[1] = (byte) (v >>> 8);
            b[2] = (byte) v;
            assertAgreesWithReference(b);
        }
    }

    @Test
    void everyFourByteInputWithBoundaryTailsMatchesTheReference() {
        byte[] b = new byte[4];
        for (int v = 0; v < 1 << 16; v++) {
            b[0] = (byte) (v >>> 8);
            b[1] = (byte) v;
            for (int b2 : BOUNDARY_BYTES) {
                for (int b3 : BOUNDARY_BYTES) {
                    b[2] = (byte) b2;
                    b[3] = (byte) b3;
                    assertAgreesWithReference(b);
                }
            }
        }
    }

    @Test
    void everyFourByteSequenceOfTableThreeSevenIsWellFormed() {
        // The full 4-byte well-formed space, F0 90 80 80 .. F4 8F BF BF, is 2^20 sequences.
        byte[] b = new byte[4];
        for (int cp = 0x10000; cp <= 0x10FFFF; cp++) {
            b[0] = (byte) (0xF0 | cp >>> 18);
            b[1] = (byte) (0x80 | cp >>> 12 & 0x3F);
            b[2] = (byte) (0x80 | cp >>> 6 & 0x3F);
            b[3] = (byte) (0x80 | cp & 0x3F);
            assertThat(Utf8Validator.isWellFormed(b)).as("U+%X", cp).isTrue();
        }
    }

    /**
     * Compares the cheap answers on every input, and the full error list only where the reference
     * finds an error, to keep 17 million inputs within seconds. The reference is slow, so it is
     * consulted once per input.
     */
    private static void assertAgreesWithReference(byte[] b) {
        List<Utf8Error> expected = ReferenceUtf8.errors(b);
        boolean wellFormed = Utf8Validator.isWellFormed(b);
        if (wellFormed != expected.isEmpty()) {
            throw new AssertionError(Hex.hex(b) + ": isWellFormed=" + wellFormed + " but reference " + expected);
        }
        if (!wellFormed) {
            List<Utf8Error> actual = Utf8Validator.errors(b);
            if (!actual.equals(expected)) {
                throw new AssertionError(Hex.hex(b) + ": errors " + actual + " but reference " + expected);
            }
            if (!Utf8Validator.firstError(b).orElseThrow().equals(expected.get(0))) {
                throw new AssertionError(Hex.hex(b) + ": firstError differs from " + expected.get(0));
            }
            if (!Utf8Validator.errors(ByteBuffer.wrap(b).asReadOnlyBuffer()).equals(expected)) {
                throw new AssertionError(Hex.hex(b) + ": buffer errors differ from " + expected);
            }
        }
    }
}
