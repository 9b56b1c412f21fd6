package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The vector path ({@link VectorUtf8}) gives the scalar path's answers, and the reference's: every
 * one- and two-byte sequence and a sample of longer ones, at every place around the block
 * boundaries of longer text (the look-back the DFA checks, each block's start, the last block's), at its start and cut by its end, and random damaged text long enough to span blocks. The other
 * test classes run on whichever path the JVM takes: the vector one in the default surefire run, the
 * scalar one in the {@code scalar-path} run (core/pom.xml); most of their inputs are shorter than a
 * block, which is why this class places them inside long text.
 */
class VectorPathTest {
    private static final boolean MODULE =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    private static final int LENGTH = 3 * 64 + 40;
    /** ASCII, and characters of every length, as the text around a placed sequence. */
    private static final byte[][] BACKGROUNDS = {
        "The quick brown fox jumps over the lazy dog. ".repeat(8).getBytes(StandardCharsets.UTF_8),
        "a\u00e9\u20ac\ud83d\ude00\u0416\u4e2d".repeat(30).getBytes(StandardCharsets.UTF_8)
    };

    @Test
    void theConfiguredPathIsTheOneThatRuns() {
        String expected = System.getProperty("expect.validator");
        assumeTrue(expected != null, "run outside the build's surefire configuration");
        assertThat(VectorSupport.describe()).startsWith(expected);
    }

    @Test
    void everyShortSequenceAtEveryPlaceAroundTheBlockBoundariesAgrees() {
        assumeTrue(MODULE && VectorUtf8.supported(), "no jdk.incubator.vector in this JVM");
        List<byte[]> sequences = new ArrayList<>();
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                sequences.add(new byte[] {(byte) a, (byte) b});
            }
        }
        sequences.addAll(sampledSequences());
        // Blocks start after the look-back, one width apart; the last one ends at the input's end.
        int width = VectorUtf8.bits() / 8;
        List<Integer> boundaries = new ArrayList<>();
        for (int start = Utf8Validator.LOOK_BACK; start + width <= LENGTH; start += width) {
            boundaries.add(start);
        }
        boundaries.add(LENGTH - width);
        SortedSet<Integer> places = new TreeSet<>();
        for (int boundary : boundaries) {
            // from is 0, 1 or 3: every block start shifts by as much.
            for (int at = Math.max(0, boundary - 5); at <= boundary + 6 && at < LENGTH; at++) {
                places.add(at);
            }
        }
        for (int at = 0; at <= 4; at++) {
            places.add(at); // the look-back, which the DFA checks
            places.add(LENGTH - 1 - at); // the end, cut sequences included
        }
        for (byte[] background : BACKGROUNDS) {
            for (byte[] sequence : sequences) {
                for (int at : places) {
                    byte[] input = Arrays.copyOf(background, LENGTH);
                    System.arraycopy(sequence, 0, input, at, Math.min(sequence.length, LENGTH - at));
                    for (int from : new int[] {0, 1, 3}) {
                        int scalar = Utf8Validator.scalarValidPrefixEnd(input, from, LENGTH);
                        int vector = VectorUtf8.validPrefixEnd(input, from, LENGTH);
                        if (vector != scalar) {
                            throw new AssertionError("from " + from + ": vector " + vector + ", scalar " + scalar
                                    + " on " + Hex.hex(input));
                        }
                    }
                }
            }
        }
    }

    @Test
    void theShortestInputsTheVectorPathTakesAgreeWithTheSequenceAtEveryPlace() {
        assumeTrue(MODULE && VectorUtf8.supported(), "no jdk.incubator.vector in this JVM");
        List<byte[]> sequences = sampledSequences();
        int shortest = VectorUtf8.minimumLength(); // the first block is the last one
        for (byte[] background : BACKGROUNDS) {
            for (int length = shortest; length <= shortest + 3; length++) {
                for (byte[] sequence : sequences) {
                    for (int at = 0; at < length; at++) {
                        byte[] input = Arrays.copyOf(background, length);
                        System.arraycopy(sequence, 0, input, at, Math.min(sequence.length, length - at));
                        int scalar = Utf8Validator.scalarValidPrefixEnd(input, 0, length);
                        int vector = VectorUtf8.validPrefixEnd(input, 0, length);
                        if (vector != scalar) {
                            throw new AssertionError("length " + length + ": vector " + vector + ", scalar " + scalar
                                    + " on " + Hex.hex(input));
                        }
                    }
                }
            }
        }
    }

    /** Every byte, and sequences of two to four bytes from every lead byte with Table 3-7's edges after it. */
    private static List<byte[]> sampledSequences() {
        List<byte[]> sequences = new ArrayList<>();
        for (int a = 0; a < 256; a++) {
            sequences.add(new byte[] {(byte) a});
        }
        int[] edges = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF};
        for (int lead = 0xC0; lead <= 0xFF; lead++) {
            for (int second : edges) {
                sequences.add(new byte[] {(byte) lead, (byte) second});
                for (int third : edges) {
                    sequences.add(new byte[] {(byte) lead, (byte) second, (byte) third});
                    for (int fourth : edges) {
                        sequences.add(new byte[] {(byte) lead, (byte) second, (byte) third, (byte) fourth});
                    }
                }
            }
        }
        return sequences;
    }

    @Provide
    Arbitrary<byte[]> longDamagedText() {
        return Utf8Inputs.damagedUtf8().list().ofMinSize(2).ofMaxSize(12).map(Utf8Inputs::concat);
    }

    @Property(tries = 3000)
    void longDamagedTextGetsTheReferencesErrors(@ForAll("longDamagedText") byte[] input) {
        assertThat(Utf8Validator.errors(input)).isEqualTo(ReferenceUtf8.errors(input));
        assertThat(Utf8Validator.isWellFormed(input)).isEqualTo(ReferenceUtf8.isWellFormed(input));
        if (MODULE && VectorUtf8.supported() && input.length >= VectorUtf8.minimumLength()) {
            assertThat(VectorUtf8.validPrefixEnd(input, 0, input.length))
                    .isEqualTo(Utf8Validator.scalarValidPrefixEnd(input, 0, input.length));
        }
    }

    @Property(tries = 1000)
    void longWellFormedTextIsWellFormed(@ForAll("longWellFormedText") byte[] input) {
        assertThat(Utf8Validator.isWellFormed(input)).isTrue();
        assertThat(Utf8Validator.firstError(input)).isEmpty();
    }

    @Provide
    Arbitrary<byte[]> longWellFormedText() {
        return Utf8Inputs.wellFormedUtf8().list().ofMinSize(2).ofMaxSize(20).map(Utf8Inputs::concat);
    }
}
