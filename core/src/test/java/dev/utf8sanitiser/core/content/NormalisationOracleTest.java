package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.lang.UCharacter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * ICU4J, which {@link Normaliser} calls, against the JDK's {@link Normalizer} as an independent
 * oracle, on text both know: characters assigned in the running JDK's Unicode version (13.0 on JDK
 * 17). Unicode's stability policy fixes the decomposition and combining class of a character once
 * assigned, so on such text the two must agree exactly.
 */
class NormalisationOracleTest {

    static Normalizer.Form jdk(Normalisation form) {
        return Normalizer.Form.valueOf(form.name());
    }

    @Test
    void normalisesWithUnicode17() {
        // Normaliser's Javadoc, core/pom.xml and docs/benchmarks.md name this version.
        assertThat(UCharacter.getUnicodeVersion().getMajor()).isEqualTo(17);
    }

    @ParameterizedTest
    @EnumSource(value = Normalisation.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void everyAssignedCodePointNormalisesAsTheJdkSays(Normalisation form) {
        List<String> wrong = new ArrayList<>();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (!Character.isDefined(cp) || Character.getType(cp) == Character.SURROGATE) {
                continue;
            }
            // Alone, and after a letter with a mark behind it, where composition and reordering act.
            for (String s : new String[] {Character.toString(cp), "a" + Character.toString(cp) + "\u0301"}) {
                if (!Normaliser.normalise(s, form).equals(Normalizer.normalize(s, jdk(form)))
                        || Normaliser.isNormalised(s, form) != Normalizer.isNormalized(s, jdk(form))) {
                    wrong.add(String.format("U+%04X", cp));
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Provide
    Arbitrary<String> assignedText() {
        // Marks of many combining classes, Hangul jamo, letters that compose with them, and any
        // assigned character; long runs of marks exercise canonical reordering.
        Arbitrary<Integer> marks = Arbitraries.integers().between(0x0300, 0x036F);
        Arbitrary<Integer> indic = Arbitraries.integers().between(0x0900, 0x0DFF);
        Arbitrary<Integer> jamo = Arbitraries.integers().between(0x1100, 0x11FF);
        Arbitrary<Integer> latin = Arbitraries.integers().between(0x0041, 0x024F);
        Arbitrary<Integer> any = Arbitraries.integers().between(0, 0x10FFFF);
        return Arbitraries.oneOf(marks, indic, jamo, latin, any)
                .filter(cp -> Character.isDefined(cp) && Character.getType(cp) != Character.SURROGATE)
                .list()
                .ofMaxSize(25)
                .map(cps -> cps.stream().map(Character::toString).reduce("", String::concat));
    }

    @Property(tries = 2000)
    void agreesWithTheJdkOnTextItKnows(@ForAll("assignedText") String text) {
        for (Normalisation form :
                List.of(Normalisation.NFC, Normalisation.NFD, Normalisation.NFKC, Normalisation.NFKD)) {
            String expected = Normalizer.normalize(text, jdk(form));
            byte[] input = text.getBytes(StandardCharsets.UTF_8);
            byte[] output =
                    ContentPolicy.of(ContentRules.none(), form).apply(input).output();
            assertThat(new String(output, StandardCharsets.UTF_8)).isEqualTo(expected);
            assertThat(output == input).isEqualTo(expected.equals(text));
        }
    }

    @Test
    void decomposedCorporaComposeAsTheJdkComposesThem() throws Exception {
        ContentPolicy nfc = ContentPolicy.of(ContentRules.none(), Normalisation.NFC);
        for (Path file : Corpora.utf8Files()) {
            String nfd = Normalizer.normalize(Files.readString(file), Normalizer.Form.NFD);
            byte[] output = nfc.apply(nfd.getBytes(StandardCharsets.UTF_8)).output();
            assertThat(new String(output, StandardCharsets.UTF_8))
                    .as(file.getFileName().toString())
                    .isEqualTo(Normalizer.normalize(nfd, Normalizer.Form.NFC));
        }
    }
}
