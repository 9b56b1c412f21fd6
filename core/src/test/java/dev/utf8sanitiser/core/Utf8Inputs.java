package dev.utf8sanitiser.core;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * Byte strings that look like real damaged UTF-8: well-formed characters of every length mixed
 * with the bytes and prefixes that break it, so random inputs hit every rule often.
 */
final class Utf8Inputs {
    private Utf8Inputs() {}

    private static final int[] INTERESTING = {
        0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5,
        0xF7, 0xF8, 0xFE, 0xFF
    };

    static Arbitrary<byte[]> damagedUtf8() {
        Arbitrary<byte[]> ascii =
                Arbitraries.strings().ascii().ofMaxLength(20).map(s -> s.getBytes(StandardCharsets.US_ASCII));
        Arbitrary<byte[]> character = Arbitraries.integers()
                .between(0, 0x10FFFF)
                .filter(cp -> cp < 0xD800 || cp > 0xDFFF)
                .map(cp -> new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
        Arbitrary<byte[]> truncated = character.map(b -> Arrays.copyOf(b, Math.max(1, b.length - 1)));
        Arbitrary<byte[]> interesting =
                Arbitraries.integers().between(0, INTERESTING.length - 1).map(k -> new byte[] {(byte) INTERESTING[k]});
        Arbitrary<byte[]> anyByte = Arbitraries.bytes().map(v -> new byte[] {v});
        Arbitrary<byte[]> fragment = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, ascii),
                net.jqwik.api.Tuple.of(4, character),
                net.jqwik.api.Tuple.of(1, truncated),
                net.jqwik.api.Tuple.of(1, interesting),
                net.jqwik.api.Tuple.of(1, anyByte));
        return fragment.list().ofMaxSize(40).map(Utf8Inputs::concat);
    }

    static Arbitrary<byte[]> wellFormedUtf8() {
        return Arbitraries.strings()
                .all()
                .ofMaxLength(60)
                .filter(s -> !hasLoneSurrogate(s))
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }
}
