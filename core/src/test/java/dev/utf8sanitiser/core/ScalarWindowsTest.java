package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The scalar loop's windows of non-ASCII text, checked as two chains side by side ({@code
 * Utf8Validator.twoChains}), give the reference's answers: sequences placed at every position
 * around the places where a window is cut in two and where it ends, in text of characters of each
 * length, and long damaged text. The other classes' inputs are mostly shorter than a window.
 */
class ScalarWindowsTest {
    private static final int CHAIN = Utf8Validator.CHAIN;
    private static final int LENGTH = 5 * CHAIN + 37;
    /** Non-ASCII text of each character length, and mixed, so that the windows are taken. */
    private static final byte[][] BACKGROUNDS = {
        "\u0416".repeat(LENGTH).getBytes(StandardCharsets.UTF_8),
        "\u4e2d".repeat(LENGTH).getBytes(StandardCharsets.UTF_8),
        "\ud83d\ude00".repeat(LENGTH).getBytes(StandardCharsets.UTF_8),
        "\u00e9\u20ac\ud83d\ude00\u0416\u4e2d\u00e9".repeat(LENGTH).getBytes(StandardCharsets.UTF_8)
    };
    /** Byte values at the edges of Table 3-7's ranges, and an ASCII letter. */
    private static final int[] EDGES = {0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xF4, 0xFF};

    private static final int[] LEADS = {
        0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF
    };

    @Test
    void sequencesAroundTheCutsAndEndsOfWindowsGetTheReferencesAnswer() {
        List<byte[]> sequences = new ArrayList<>();
        for (int a = 0; a < 256; a++) {
            sequences.add(new byte[] {(byte) a});
            for (int b : EDGES) {
                sequences.add(new byte[] {(byte) a, (byte) b});
            }
        }
        for (int lead : LEADS) {
            for (int second : EDGES) {
                for (int third : EDGES) {
                    sequences.add(new byte[] {(byte) lead, (byte) second, (byte) third});
                    for (int fourth : new int[] {0x41, 0x80, 0xBF, 0xC2}) {
                        sequences.add(new byte[] {(byte) lead, (byte) second, (byte) third, (byte) fourth});
                    }
                }
            }
        }
        List<Integer> places = new ArrayList<>();
        for (int cut = CHAIN; cut <= 4 * CHAIN; cut += CHAIN) {
            for (int at = cut - 4; at <= cut + 3; at++) {
                places.add(at);
            }
        }
        places.addAll(List.of(0, 1, 2, LENGTH - 3, LENGTH - 2, LENGTH - 1));
        int checked = 0;
        for (byte[] background : BACKGROUNDS) {
            for (byte[] sequence : sequences) {
                for (int at : places) {
                    byte[] input = Arrays.copyOf(background, LENGTH);
                    System.arraycopy(sequence, 0, input, at, Math.min(sequence.length, LENGTH - at));
                    int expected = ReferenceUtf8.validPrefixEnd(input, 0);
                    int actual = Utf8Validator.scalarValidPrefixEnd(input, 0, LENGTH);
                    if (actual != expected) {
                        throw new AssertionError("expected " + expected + ", got " + actual + " on " + Hex.hex(input));
                    }
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(1_000_000);
    }

    @Test
    void longTextFromEveryStartGetsTheReferencesAnswer() {
        for (byte[] background : BACKGROUNDS) {
            for (int from = 0; from < 8; from++) {
                for (int to = background.length - 4; to <= background.length; to++) {
                    byte[] input = Arrays.copyOf(background, to);
                    assertThat(Utf8Validator.scalarValidPrefixEnd(input, from, to))
                            .as("from %d to %d", from, to)
                            .isEqualTo(ReferenceUtf8.validPrefixEnd(input, from));
                }
            }
        }
    }

    @Provide
    Arbitrary<byte[]> longDenseText() {
        Arbitrary<byte[]> nonAscii = Arbitraries.of(BACKGROUNDS)
                .flatMap(b -> Arbitraries.integers().between(1, 3 * CHAIN).map(n -> Arrays.copyOf(b, n)));
        return Arbitraries.oneOf(nonAscii, nonAscii, Utf8Inputs.damagedUtf8())
                .list()
                .ofMinSize(2)
                .ofMaxSize(12)
                .map(Utf8Inputs::concat);
    }

    @Property(tries = 3000)
    void longDenseDamagedTextGetsTheReferencesErrors(@ForAll("longDenseText") byte[] input) {
        for (int from : new int[] {0, 1, 2}) {
            if (from <= input.length) {
                assertThat(Utf8Validator.scalarValidPrefixEnd(input, from, input.length))
                        .isEqualTo(ReferenceUtf8.validPrefixEnd(input, from));
            }
        }
        assertThat(Utf8Validator.errors(input)).isEqualTo(ReferenceUtf8.errors(input));
    }
}
