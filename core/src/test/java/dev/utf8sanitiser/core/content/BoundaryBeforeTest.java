package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BoundaryBeforeTest {
    private static final ContentPolicy NFC_CHECK = ContentPolicy.of(ContentRules.parse("NOT_NORMALISED:reject"));

    @Test
    void aCombiningMarkHasNoBoundaryBeforeItWhenNormalisationIsChecked() {
        assertThat(NFC_CHECK.isBoundaryBefore('e')).isTrue();
        assertThat(NFC_CHECK.isBoundaryBefore(0x0301)).isFalse(); // COMBINING ACUTE ACCENT
        assertThat(NFC_CHECK.isBoundaryBefore(0x1161)).isFalse(); // a Hangul vowel jamo composes too
        assertThat(ContentPolicy.of(ContentRules.none(), Normalisation.NFD).isBoundaryBefore(0x0301))
                .isFalse();
    }

    @Test
    void withoutNormalisationEveryCodePointIsABoundary() {
        assertThat(ContentPolicy.of(ContentRules.parse("NUL:reject")).isBoundaryBefore(0x0301))
                .isTrue();
    }

    @Test
    void cuttingAtABoundaryKeepsTheFindingsOfTheWhole() {
        byte[] text = "ae\u0301b\u1100\u1161c".getBytes(StandardCharsets.UTF_8);
        String decoded = new String(text, StandardCharsets.UTF_8);
        for (int i = 1; i < decoded.length(); i++) { // all in the BMP: a char is a code point
            int at = decoded.substring(0, i).getBytes(StandardCharsets.UTF_8).length;
            boolean boundary = NFC_CHECK.isBoundaryBefore(decoded.codePointAt(i));
            boolean parts =
                    NFC_CHECK.apply(Arrays.copyOfRange(text, 0, at)).findings().isEmpty()
                            && NFC_CHECK
                                    .apply(Arrays.copyOfRange(text, at, text.length))
                                    .findings()
                                    .isEmpty();
            // The whole is not in NFC; at a boundary one of the parts must say so.
            assertThat(boundary && parts).as("cut at %d", i).isFalse();
        }
    }
}
