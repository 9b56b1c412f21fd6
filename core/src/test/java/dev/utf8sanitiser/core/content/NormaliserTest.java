package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The claims ContentPolicy's normalisation step rests on, checked over every code point. */
class NormaliserTest {

    /**
     * The shortcut: text whose bytes are all below the form's first affected lead byte is in the
     * form. Normalisation is context-sensitive only between neighbours (a starter and the marks or
     * jamo after it), so every single character and every pair below the limit is the whole proof.
     */
    @ParameterizedTest
    @EnumSource(value = Normalisation.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void belowTheFirstAffectedLeadByteEveryCharacterAndPairIsInTheForm(Normalisation form) {
        int lead = Normaliser.firstAffectedLeadByte(form);
        // The largest code point whose lead byte is below the limit.
        int last = ((lead - 0xC0) << 6) - 1;
        List<String> wrong = new ArrayList<>();
        for (int a = 0; a <= last; a++) {
            for (int b = 0; b <= last; b++) {
                String pair = Character.toString(a) + Character.toString(b);
                if (!Normaliser.isNormalised(pair, form)) {
                    wrong.add(pair);
                }
            }
        }
        assertThat(wrong).isEmpty();
        // And the limit is tight: the first character at it is affected.
        String affected = form == Normalisation.NFC ? "e\u0300" : form == Normalisation.NFD ? "\u00C0" : "\u00A0";
        assertThat(Normaliser.isNormalised(affected, form)).isFalse();
    }

    /**
     * Normalisation runs after the code point rules, so it must never bring in a character they
     * would match: for every code point, in every form, what it normalises to is either itself or
     * free of NUL, controls, noncharacters, private use, line separators, CR and U+FEFF.
     */
    @ParameterizedTest
    @EnumSource(value = Normalisation.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void normalisationNeverProducesACharacterARuleMatches(Normalisation form) {
        List<String> wrong = new ArrayList<>();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                continue;
            }
            String s = Character.toString(cp);
            String normalised = Normaliser.normalise(s, form);
            if (normalised.equals(s)) {
                continue;
            }
            normalised.codePoints().forEach(c -> {
                if (ContentPolicy.codePointRule(c) != null || c == 0xFEFF) {
                    wrong.add(String.format("U+%04X -> U+%04X", s.codePointAt(0), c));
                }
            });
        }
        assertThat(wrong).isEmpty();
    }

    /**
     * The bitmap behind the String-free quick check: a code point outside it leaves text in the
     * form alone, next to an unaffected letter and doubled; every code point below the first
     * affected lead byte is outside it; and it is not empty.
     */
    @ParameterizedTest
    @EnumSource(value = Normalisation.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void codePointsOutsideTheBitmapNeverChangeText(Normalisation form) {
        int lastBelowLimit = ((Normaliser.firstAffectedLeadByte(form) - 0xC0) << 6) - 1;
        List<String> wrong = new ArrayList<>();
        int affected = 0;
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                continue;
            }
            if (Normaliser.mayBeAffected(cp, form)) {
                affected++;
                if (cp <= lastBelowLimit) {
                    wrong.add(String.format("U+%04X is below the limit", cp));
                }
                continue;
            }
            String c = Character.toString(cp);
            for (String s : new String[] {c, "a" + c, c + "a", c + c}) {
                if (!Normaliser.isNormalised(s, form)) {
                    wrong.add(String.format("U+%04X in %s", cp, s));
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(affected).isGreaterThan(1000);
        // And the check agrees: text of unaffected characters is not decoded, an affected one is.
        assertThat(Normaliser.mayChange(
                        "\u4E2D\u6587 \uD55C\uAD6D\uC5B4 \u0420\u0443\u0441".getBytes(StandardCharsets.UTF_8), form))
                .isEqualTo(form == Normalisation.NFD || form == Normalisation.NFKD);
        assertThat(Normaliser.mayChange("x\u0301".getBytes(StandardCharsets.UTF_8), form))
                .isTrue();
    }
}
