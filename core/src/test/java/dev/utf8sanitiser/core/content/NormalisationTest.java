package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Normalisation, the NOT_NORMALISED rule, and how the two combine (ContentPolicy's table). */
class NormalisationTest {

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void composesDecomposedTextIntoNfcAndReportsTheRewrittenBytes() {
        // "Ame\u0301lie": the finding covers e + U+0301 (bytes 2..5), in input offsets.
        ContentResult result =
                ContentPolicy.of(ContentRules.none(), Normalisation.NFC).apply(utf8("Ame\u0301lie"));
        assertThat(text(result.output())).isEqualTo("Am\u00e9lie");
        assertThat(result.findings())
                .containsExactly(new ContentFinding(2, 3, ContentRule.NOT_NORMALISED, ContentAction.REPLACE));
        assertThat(result.changed()).isTrue();
        assertThat(result.rejected()).isFalse();
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                // form | input (Java escapes)      | output          | finding offset,length
                "NFC    | x\\u212B                  | x\\u00C5        | 1,3",
                "NFC    | a\\u0301\\u0316           | \\u00E1\\u0316  | 0,3",
                "NFC    | \\u1100\\u1161\\u11A8     | \\uAC01         | 0,9",
                "NFD    | caf\\u00E9                | cafe\\u0301     | 3,2",
                "NFD    | \\uAC01                   | \\u1100\\u1161\\u11A8 | 0,3",
                "NFKC   | \\uFB01x                  | fix             | 0,3",
                "NFKC   | \\u2460\\u00BD            | 11\\u20442      | 0,5",
                "NFKD   | \\u00C5\\uFF21            | A\\u030AA       | 0,5",
            })
    void bringsTextIntoEachForm(Normalisation form, String input, String output, String finding) {
        ContentResult result = ContentPolicy.of(ContentRules.none(), form).apply(utf8(unescape(input)));
        assertThat(text(result.output())).isEqualTo(unescape(output));
        String[] f = finding.split(",");
        assertThat(result.findings())
                .containsExactly(new ContentFinding(
                        Long.parseLong(f[0]),
                        Integer.parseInt(f[1]),
                        ContentRule.NOT_NORMALISED,
                        ContentAction.REPLACE));
    }

    /** ContentPolicy's table: normalisation × NOT_NORMALISED, on text not in the form and on text in it. */
    @ParameterizedTest(name = "normalisation={0}, NOT_NORMALISED:{1}")
    @CsvSource({
        // normalisation, action, decomposed "e\u0301" becomes, finding action
        "NONE, allow, e\u0301, ",
        "NONE, reject, e\u0301, REJECT",
        "NONE, replace, \u00e9, REPLACE",
        "NFC, allow, \u00e9, REPLACE",
        "NFC, reject, e\u0301, REJECT",
        "NFC, replace, \u00e9, REPLACE",
        "NFD, allow, e\u0301, ",
        "NFD, reject, e\u0301, ",
    })
    void normalisationAndNotNormalisedCombineAsDocumented(
            Normalisation normalisation, String action, String output, ContentAction finding) {
        ContentPolicy policy =
                ContentPolicy.of(ContentRules.parse(action.isEmpty() ? "" : "NOT_NORMALISED:" + action), normalisation);
        byte[] input = utf8("e\u0301");
        ContentResult result = policy.apply(input);
        assertThat(text(result.output())).isEqualTo(output);
        if (finding == null) {
            assertThat(result.findings()).isEmpty();
            assertThat(result.output()).isSameAs(input);
        } else {
            assertThat(result.findings())
                    .containsExactly(new ContentFinding(0, 3, ContentRule.NOT_NORMALISED, finding));
        }
        // Text already in the form is never a finding, whatever the combination.
        byte[] composed = utf8(normalisation == Normalisation.NFD ? "e\u0301" : "\u00e9");
        assertThat(policy.apply(composed).findings()).isEmpty();
        assertThat(policy.apply(composed).output()).isSameAs(composed);
    }

    @Test
    void rejectingTextNotInTheFormLeavesItAsItIs() {
        ContentPolicy policy = ContentPolicy.of(ContentRules.parse("NOT_NORMALISED:reject"), Normalisation.NFKC);
        byte[] input = utf8("\uFB01ne");
        ContentResult result = policy.apply(input);
        assertThat(result.rejected()).isTrue();
        assertThat(result.changed()).isFalse();
        assertThat(result.output()).isSameAs(input);
    }

    @Test
    void normalisesWhatTheCodePointRulesLeft() {
        // e NUL U+0301 is in NFC (NUL blocks the composition); with NUL stripped it is not.
        ContentPolicy policy = ContentPolicy.of(ContentRules.parse("NUL:strip"), Normalisation.NFC);
        ContentResult result = policy.apply(utf8("xe\u0000\u0301"));
        assertThat(text(result.output())).isEqualTo("x\u00e9");
        assertThat(result.findings())
                .containsExactly(
                        new ContentFinding(1, 4, ContentRule.NOT_NORMALISED, ContentAction.REPLACE),
                        new ContentFinding(2, 1, ContentRule.NUL, ContentAction.STRIP));
    }

    @Test
    void theNotNormalisedFindingMapsBackThroughReplacementsOfOtherLengths() {
        // U+0085 (2 bytes) becomes U+FFFD (3 bytes) before the decomposed letter: the finding is in
        // input offsets all the same.
        ContentPolicy policy = ContentPolicy.of(ContentRules.parse("C1_CONTROL:replace,CR:replace"), Normalisation.NFC);
        byte[] input = utf8("\u0085\r\nA\u030A\r\n");
        ContentResult result = policy.apply(input);
        assertThat(text(result.output())).isEqualTo("\uFFFD\n\u00C5\n");
        assertThat(result.findings())
                .extracting(f -> f.rule() + "@" + f.offset() + "+" + f.length())
                .containsExactly("C1_CONTROL@0+2", "CR@2+1", "NOT_NORMALISED@4+3", "CR@7+1");
    }

    @Test
    void realTextInNfcComesBackAsTheSameArray() throws Exception {
        ContentPolicy policy = ContentPolicy.of(ContentRules.parse("NOT_NORMALISED:reject"), Normalisation.NFC);
        List<String> notNfc = new ArrayList<>();
        for (Path file : Corpora.utf8Files()) {
            byte[] bytes = Files.readAllBytes(file);
            ContentResult result = policy.apply(bytes);
            assertThat(result.output()).isSameAs(bytes);
            if (!result.findings().isEmpty()) {
                notNfc.add(file.getFileName().toString());
            }
        }
        // Both Hindi texts spell U+095E (and the article U+095C) precomposed; they are composition
        // exclusions (UAX #15 §5), so NFC writes them as U+092B U+093C and U+0921 U+093C. Every
        // other corpus file (25 of 27) is in NFC already: the clean path for real text.
        assertThat(notNfc).containsExactly("Hindi-Lipsum.utf8.txt", "hindi.utf8.txt");
    }

    @Test
    void compositionExclusionsAreDecomposedByNfc() {
        ContentResult result =
                ContentPolicy.of(ContentRules.none(), Normalisation.NFC).apply(utf8("ड़फ़"));
        assertThat(text(result.output())).isEqualTo("ड़फ़");
        assertThat(result.findings())
                .containsExactly(new ContentFinding(0, 6, ContentRule.NOT_NORMALISED, ContentAction.REPLACE));
    }

    @ParameterizedTest
    @EnumSource(value = Normalisation.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
    void asciiIsInEveryForm(Normalisation form) {
        byte[] ascii = new byte[128];
        for (int i = 0; i < 128; i++) {
            ascii[i] = (byte) i;
        }
        ContentResult result = ContentPolicy.of(ContentRules.parse("NOT_NORMALISED:reject"), form)
                .apply(ascii);
        assertThat(result.output()).isSameAs(ascii);
        assertThat(result.findings()).isEmpty();
        assertThat(Normaliser.mayChange(ascii, form)).isFalse();
    }

    /** Unescapes {@code \\uXXXX} in CSV cells. */
    static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            if (s.startsWith("\\u", i)) {
                out.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                out.append(s.charAt(i));
            }
        }
        return out.toString();
    }
}
