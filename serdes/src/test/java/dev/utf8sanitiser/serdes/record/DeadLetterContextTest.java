package dev.utf8sanitiser.serdes.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * {@code __utf8.context}: up to {@code sanitiser.dlq.context.bytes} either side, and in brackets the
 * run of adjacent ill-formed subparts from the first error, in whole subparts and at most 16 bytes.
 */
class DeadLetterContextTest {
    private final DeadLetterAnnotation annotation = new DeadLetterAnnotation(8);

    private static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }

    private static Finding first(byte[] bytes) {
        return finding(Utf8Validator.firstError(bytes).orElseThrow(), bytes);
    }

    /** An ill-formed place in a text value; the bracket holds the run of adjacent ill-formed subparts. */
    private static Finding finding(Utf8Error error, byte[] bytes) {
        int from = (int) error.offset();
        int runEnd = DeadLetterAnnotation.illFormedRunEnd(bytes, from, bytes.length);
        return new Finding(
                Part.VALUE, DeadLetterRule.of(error.rule()), error.offset(), error.length(), runEnd - from, bytes);
    }

    private static String repeat(String spaced, int times) {
        return String.join(" ", Collections.nCopies(times, spaced));
    }

    @Test
    void aCesuPairIsShownWhole() {
        assertThat(annotation.context(first(hex("6F 6B ED A0 BD ED B8 80")))).isEqualTo("6F 6B [ED A0 BD ED B8 80]");
    }

    @Test
    void aRunOfExactly16BytesIsShownWhole() {
        byte[] bytes = hex("61 " + repeat("80", 16) + " 7A");
        assertThat(annotation.context(first(bytes))).isEqualTo("61 [" + repeat("80", 16) + "] 7A");
    }

    @Test
    void aLongerRunIsCutAt16BytesAndTheRestIsContext() {
        byte[] bytes = hex("61 " + repeat("80", 40));
        assertThat(annotation.context(first(bytes))).isEqualTo("61 [" + repeat("80", 16) + "] " + repeat("80", 8));
    }

    @Test
    void theRunIsCutBeforeASubpartThatWouldCross16Bytes() {
        // F1 80 80 is a maximal subpart of 3 bytes (TRUNCATED): five of them are 15 bytes, a sixth 18.
        byte[] bytes = hex(repeat("F1 80 80", 8));
        assertThat(annotation.context(first(bytes)))
                .isEqualTo("[" + repeat("F1 80 80", 5) + "] " + repeat("F1 80 80", 2) + " F1 80");
        assertThat(DeadLetterAnnotation.message(first(bytes)))
                .isEqualTo("TRUNCATED at value byte 0 (" + repeat("F1 80 80", 5) + ")");
    }

    @Test
    void aLongFindingOfAnotherKindIsCutAt16Bytes() {
        byte[] text = new byte[1000];
        Arrays.fill(text, (byte) 'a');
        Finding wide = new Finding(Part.VALUE, DeadLetterRule.NOT_NORMALISED, 10, 900, 900, text);
        assertThat(annotation.context(wide))
                .isEqualTo(repeat("61", 8) + " [" + repeat("61", 16) + "] " + repeat("61", 8));
        assertThat(DeadLetterAnnotation.message(wide))
                .isEqualTo("NOT_NORMALISED at value byte 10 (" + repeat("61", 16) + ")");
    }

    @Test
    void theHeaderIsBoundedWhateverTheRecord() {
        byte[] bytes = new byte[1 << 20];
        Arrays.fill(bytes, (byte) 0x80);
        DeadLetterAnnotation widest = new DeadLetterAnnotation(64);
        Finding middle = finding(new Utf8Error(500_000, 1, Rule.UNEXPECTED_CONTINUATION), bytes);
        // 64 + 16 + 64 bytes, three characters each, and the brackets.
        assertThat(widest.context(middle)).hasSize(144 * 3 + 1);
    }
}
