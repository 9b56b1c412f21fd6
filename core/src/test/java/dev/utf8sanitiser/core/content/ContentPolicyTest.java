package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each action on each code point rule, with offsets; the line-end cases; the clean path. */
class ContentPolicyTest {

    static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").withUpperCase().formatHex(bytes);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String findings(ContentResult result) {
        StringBuilder s = new StringBuilder();
        for (ContentFinding f : result.findings()) {
            s.append(s.length() == 0 ? "" : " ").append(f.offset()).append(',').append(f.length());
        }
        return s.toString();
    }

    /**
     * One row per rule and action. The input puts the match after a multi-byte character, so the
     * offsets are byte offsets, not character indexes.
     */
    @ParameterizedTest(name = "{0}:{1} on {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                // rule            | action  | input                 | findings | output
                "NUL               | reject  | C3 A9 00 41           | 2,1      | C3 A9 00 41",
                "NUL               | strip   | C3 A9 00 41           | 2,1      | C3 A9 41",
                "NUL               | replace | C3 A9 00 41           | 2,1      | C3 A9 EF BF BD 41",
                "C0_CONTROL        | reject  | C3 A9 1B 5B 41        | 2,1      | C3 A9 1B 5B 41",
                "C0_CONTROL        | strip   | C3 A9 1B 5B 41        | 2,1      | C3 A9 5B 41",
                "C0_CONTROL        | replace | C3 A9 1B 5B 41        | 2,1      | C3 A9 EF BF BD 5B 41",
                "C0_CONTROL        | strip   | 09 0A 0D 7F           | ''       | 09 0A 0D 7F",
                "C1_CONTROL        | reject  | C3 A9 C2 85 41        | 2,2      | C3 A9 C2 85 41",
                "C1_CONTROL        | strip   | C3 A9 C2 85 41        | 2,2      | C3 A9 41",
                "C1_CONTROL        | replace | C3 A9 C2 85 41        | 2,2      | C3 A9 EF BF BD 41",
                "C1_CONTROL        | strip   | C2 A0 C2 9F           | 2,2      | C2 A0",
                "NONCHARACTER      | reject  | C3 A9 EF B7 90 41     | 2,3      | C3 A9 EF B7 90 41",
                "NONCHARACTER      | strip   | C3 A9 EF BF BF 41     | 2,3      | C3 A9 41",
                "NONCHARACTER      | replace | C3 A9 F4 8F BF BE 41  | 2,4      | C3 A9 EF BF BD 41",
                "NONCHARACTER      | strip   | F0 9F BF BF F0 9F 98 80 | 0,4    | F0 9F 98 80",
                "BYTE_ORDER_MARK   | reject  | EF BB BF 41           | 0,3      | EF BB BF 41",
                "BYTE_ORDER_MARK   | strip   | EF BB BF 41           | 0,3      | 41",
                "BYTE_ORDER_MARK   | replace | EF BB BF 41           | 0,3      | EF BF BD 41",
                "BYTE_ORDER_MARK   | strip   | 41 EF BB BF           | ''       | 41 EF BB BF",
                "BYTE_ORDER_MARK   | strip   | EF BB BF EF BB BF     | 0,3      | EF BB BF",
                "PRIVATE_USE       | reject  | C3 A9 EE 80 80 41     | 2,3      | C3 A9 EE 80 80 41",
                "PRIVATE_USE       | strip   | C3 A9 F3 B0 80 80 41  | 2,4      | C3 A9 41",
                "PRIVATE_USE       | replace | C3 A9 F4 8F BF BD 41  | 2,4      | C3 A9 EF BF BD 41",
                "PRIVATE_USE       | strip   | EF A3 BF EF A4 80     | 0,3      | EF A4 80",
                "LINE_SEPARATOR    | reject  | C3 A9 E2 80 A8 41     | 2,3      | C3 A9 E2 80 A8 41",
                "LINE_SEPARATOR    | strip   | C3 A9 E2 80 A9 41     | 2,3      | C3 A9 41",
                "LINE_SEPARATOR    | replace | C3 A9 E2 80 A8 41     | 2,3      | C3 A9 0A 41",
                "LINE_SEPARATOR    | replace | E2 80 A7 E2 80 AA     | ''       | E2 80 A7 E2 80 AA",
                "CR                | reject  | C3 A9 0D 0A 41        | 2,1      | C3 A9 0D 0A 41",
                "CR                | strip   | C3 A9 0D 0A 41 0D     | 2,1 5,1  | C3 A9 0A 41",
                "CR                | replace | C3 A9 0D 0A 41        | 2,1      | C3 A9 0A 41",
                "CR                | replace | C3 A9 0D 41           | 2,1      | C3 A9 0A 41",
                "CR                | replace | 0D 0D 0A 0A 0D        | 0,1 1,1 4,1 | 0A 0A 0A 0A",
            })
    void eachActionOnEachRule(String rule, String action, String input, String findings, String output) {
        ContentPolicy policy = ContentPolicy.of(ContentRules.parse(rule + ":" + action));
        byte[] in = hex(input);
        ContentResult result = policy.apply(in);
        assertThat(findings(result)).isEqualTo(findings);
        assertThat(hex(result.output())).isEqualTo(output);
        ContentAction expected = ContentAction.valueOf(action.toUpperCase(Locale.ROOT));
        assertThat(result.findings())
                .allSatisfy(f -> assertThat(f.rule()).isEqualTo(ContentRule.valueOf(rule)))
                .allSatisfy(f -> assertThat(f.action()).isEqualTo(expected));
        assertThat(result.rejected()).isEqualTo(expected == ContentAction.REJECT && !findings.isEmpty());
        assertThat(result.changed()).isEqualTo(!output.equals(input));
        if (!result.changed()) {
            assertThat(result.output()).isSameAs(in);
        }
    }

    @Test
    void cleanTextComesBackAsTheSameArrayWithNoFindings() {
        ContentPolicy policy = ContentPolicy.of(
                ContentRules.parse("NUL:reject,C0_CONTROL:strip,C1_CONTROL:strip,NONCHARACTER:replace,"
                        + "BYTE_ORDER_MARK:strip,PRIVATE_USE:replace,LINE_SEPARATOR:replace,CR:replace"),
                Normalisation.NFC);
        byte[] text = utf8("Mars est la quatrième planète\tpar ordre de distance ☉.\n火星是太阳系中的第四颗行星 😀\n");
        ContentResult result = policy.apply(text);
        assertThat(result.output()).isSameAs(text);
        assertThat(result.findings()).isEmpty();
        assertThat(result.rejected()).isFalse();
        assertThat(result.changed()).isFalse();
    }

    @Test
    void noPolicyReturnsItsInput() {
        byte[] text = utf8("\u0000\r\n\u0085\uFEFF\u2028e\u0301");
        ContentResult result = ContentPolicy.none().apply(text);
        assertThat(result.output()).isSameAs(text);
        assertThat(result.findings()).isEmpty();
    }

    @Test
    void rejectKeepsTheTextAndOtherActionsStillApply() {
        ContentPolicy policy = ContentPolicy.of(ContentRules.parse("NUL:reject,C1_CONTROL:strip"));
        ContentResult result = policy.apply(utf8("a\u0000b\u0085c"));
        assertThat(result.findings())
                .containsExactly(
                        new ContentFinding(1, 1, ContentRule.NUL, ContentAction.REJECT),
                        new ContentFinding(3, 2, ContentRule.C1_CONTROL, ContentAction.STRIP));
        assertThat(result.output()).isEqualTo(utf8("a\u0000bc"));
        assertThat(result.rejected()).isTrue();
        assertThat(result.changed()).isTrue();
    }

    @Test
    void findingsAreInInputOrderWithInputOffsets() {
        ContentPolicy policy = ContentPolicy.of(EveryRule.stripping());
        // 😀 is 4 bytes, 火 3, é 2: the offsets count bytes of the input, not of the output.
        byte[] input = utf8("\uFEFF😀\u0000火\r\né\u0085\uE000\u2029\uFDD0x");
        ContentResult result = policy.apply(input);
        assertThat(result.findings())
                .extracting(f -> f.rule() + "@" + f.offset() + "+" + f.length())
                .containsExactly(
                        "BYTE_ORDER_MARK@0+3",
                        "NUL@7+1",
                        "CR@11+1",
                        "C1_CONTROL@15+2",
                        "PRIVATE_USE@17+3",
                        "LINE_SEPARATOR@20+3",
                        "NONCHARACTER@23+3");
        assertThat(result.output()).isEqualTo(utf8("😀火\néx"));
    }

    @Test
    void emptyInputIsClean() {
        byte[] empty = new byte[0];
        ContentResult result =
                ContentPolicy.of(EveryRule.rejecting(), Normalisation.NFKD).apply(empty);
        assertThat(result.output()).isSameAs(empty);
        assertThat(result.findings()).isEmpty();
    }

    @Test
    void longAsciiRunsAroundMatchesAreScannedEightBytesAtATime() {
        // The ASCII skip must stop at a control in any of the 8 lanes of a block.
        ContentPolicy policy = ContentPolicy.of(ContentRules.parse("C0_CONTROL:strip"));
        for (int at = 0; at < 40; at++) {
            byte[] input = utf8("x".repeat(at) + "\u0007" + "y".repeat(40 - at));
            ContentResult result = policy.apply(input);
            assertThat(result.findings())
                    .containsExactly(new ContentFinding(at, 1, ContentRule.C0_CONTROL, ContentAction.STRIP));
            assertThat(result.output()).isEqualTo(utf8("x".repeat(at) + "y".repeat(40 - at)));
        }
    }

    @Test
    void aNoncharacterInEveryPlaneIsFound() {
        ContentPolicy policy = ContentPolicy.of(ContentRules.parse("NONCHARACTER:replace"));
        for (int plane = 0; plane <= 16; plane++) {
            int cp = plane << 16 | 0xFFFE;
            String s = "a" + Character.toString(cp) + Character.toString(cp + 1) + Character.toString(cp - 1);
            ContentResult result = policy.apply(utf8(s));
            assertThat(result.findings()).hasSize(2);
            assertThat(new String(result.output(), StandardCharsets.UTF_8))
                    .isEqualTo("a\uFFFD\uFFFD" + Character.toString(cp - 1));
        }
    }

    @Test
    void findingsCannotBeAllowOrMeaningless() {
        assertThatThrownBy(() -> new ContentFinding(0, 1, ContentRule.NUL, ContentAction.ALLOW))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ContentFinding(0, 1, ContentRule.NOT_NORMALISED, ContentAction.STRIP))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ContentFinding(-1, 1, ContentRule.NUL, ContentAction.STRIP))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ContentFinding(0, 0, ContentRule.NUL, ContentAction.STRIP))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void illFormedInputFailsTheAssertion() {
        // Surefire runs with -ea: the precondition is asserted, not silently ignored.
        assertThatThrownBy(() -> ContentPolicy.of(EveryRule.rejecting()).apply(hex("61 C0 AF")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("well-formed");
    }

    @Test
    void policiesAreValuesAndPrintTheirConfiguration() {
        ContentPolicy a = ContentPolicy.of(ContentRules.parse("NUL:reject"), Normalisation.NFC);
        ContentPolicy b = ContentPolicy.of(ContentRules.parse("nul:REJECT"), Normalisation.NFC);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).hasToString("ContentPolicy[rules=NUL:reject, normalisation=NFC]");
        assertThat(ContentPolicy.of(ContentRules.none(), Normalisation.NONE)).isSameAs(ContentPolicy.none());
        assertThat(a.form()).isEqualTo(Normalisation.NFC);
        assertThat(ContentPolicy.of(ContentRules.parse("NOT_NORMALISED:reject")).form())
                .isEqualTo(Normalisation.NFC);
        assertThat(ContentPolicy.of(ContentRules.none(), Normalisation.NFKD).form())
                .isEqualTo(Normalisation.NFKD);
    }

    @Test
    void resultsCompareByContent() {
        ContentResult one = new ContentResult(utf8("ab"), List.of());
        ContentResult two = new ContentResult(utf8("ab"), List.of());
        assertThat(one).isEqualTo(two).hasSameHashCodeAs(two);
        assertThat(one.toString()).contains("2 bytes");
    }
}
