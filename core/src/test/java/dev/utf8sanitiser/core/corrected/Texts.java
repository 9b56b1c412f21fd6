package dev.utf8sanitiser.core.corrected;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/** Generators of text in both encodings, weighted towards the boundaries of the proposal's table. */
final class Texts {
    private Texts() {}

    /** Code points next to every boundary of either encoding. */
    private static final List<Integer> EDGES = List.of(
            0x00, 0x0A, 0x7F, 0x80, 0x9F, 0xA0, 0xCF, 0x7FF, 0x800, 0x89F, 0x8A0, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF,
            0x10000, 0x10E7D, 0x1109F, 0x110A0, 0x10FFFF);

    /** Any Unicode scalar value, C1 controls included. */
    static Arbitrary<Integer> scalarValues() {
        return Arbitraries.frequencyOf(
                        Tuple.of(4, Arbitraries.integers().between(0, 0x7F)),
                        Tuple.of(2, Arbitraries.integers().between(0x80, 0x7FF)),
                        Tuple.of(2, Arbitraries.integers().between(0x800, 0xFFFF)),
                        Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)),
                        Tuple.of(2, Arbitraries.of(EDGES)))
                .filter(c -> c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE);
    }

    /** Any scalar value Corrected UTF-8 encodes: not a C1 control. */
    static Arbitrary<Integer> encodableScalarValues() {
        return scalarValues().filter(c -> c < 0x80 || c > 0x9F);
    }

    /** Any code point Corrected UTF-8 encodes, above U+10FFFF too. */
    static Arbitrary<Long> encodableCodePoints() {
        return Arbitraries.oneOf(
                encodableScalarValues().map(Integer::longValue),
                Arbitraries.longs().between(0x110000, CorrectedUtf8.MAX_CODE_POINT),
                Arbitraries.of(0x110000L, 0x21109FL, 0x2110A0L, 0x421109FL, 0x42110A0L, CorrectedUtf8.MAX_CODE_POINT));
    }

    /** Well-formed standard UTF-8 that Corrected UTF-8 can carry: no C1 controls. */
    static Arbitrary<byte[]> utf8Text(int maxCodePoints) {
        return encodableScalarValues().list().ofMaxSize(maxCodePoints).map(Texts::utf8);
    }

    /** Corrected UTF-8 that standard UTF-8 can carry: no code points above U+10FFFF. */
    static Arbitrary<byte[]> correctedText(int maxCodePoints) {
        return encodableScalarValues()
                .map(Integer::longValue)
                .list()
                .ofMaxSize(maxCodePoints)
                .map(codePoints -> CorrectedUtf8.encode(
                        codePoints.stream().mapToLong(Long::longValue).toArray()));
    }

    static byte[] utf8(List<Integer> codePoints) {
        int[] array = codePoints.stream().mapToInt(Integer::intValue).toArray();
        return new String(array, 0, array.length).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] utf8(int... codePoints) {
        return new String(codePoints, 0, codePoints.length).getBytes(StandardCharsets.UTF_8);
    }

    /** The code points of well-formed UTF-8, as the JDK decodes them. */
    static long[] codePoints(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8)
                .codePoints()
                .asLongStream()
                .toArray();
    }

    /**
     * One piece of noise: a random byte, a sequence of either encoding cut short, a C1 control in
     * UTF-8, a Corrected sequence above U+10FFFF, or a magic number.
     */
    static Arbitrary<byte[]> noise() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().map(b -> new byte[] {b}),
                scalarValues().map(c -> utf8(c)).map(Texts::withoutLastByte),
                encodableCodePoints().map(CorrectedUtf8::encode).map(Texts::withoutLastByte),
                Arbitraries.integers().between(0x80, 0x9F).map(c -> utf8(c)),
                Arbitraries.longs()
                        .between(0x110000, CorrectedUtf8.MAX_CODE_POINT)
                        .map(CorrectedUtf8::encode),
                Arbitraries.just(CorrectedUtf8.magicNumber()));
    }

    private static byte[] withoutLastByte(byte[] bytes) {
        return Arrays.copyOf(bytes, Math.max(1, bytes.length - 1));
    }

    /**
     * Short pieces of {@code text}, sometimes noise, concatenated: what matters to a stream is where
     * the cuts fall, not how long the input is, and short lists keep generation fast.
     */
    static Arbitrary<byte[]> mostly(Arbitrary<byte[]> text) {
        return Arbitraries.frequencyOf(Tuple.of(30, text), Tuple.of(1, noise()))
                .list()
                .ofMaxSize(16)
                .map(pieces -> Hex.concat(pieces.toArray(byte[][]::new)));
    }
}
