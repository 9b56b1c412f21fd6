package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every code point U+0000..U+10FFFF but the surrogates, through {@link ContentPolicy#apply}, against
 * definitions of each rule's set written independently of the implementation: from the JDK's
 * General_Category ({@link Character#getType}) where the set is one, and the noncharacters
 * enumerated plane by plane (Unicode §23.7).
 */
class ExhaustiveContentRuleTest {

    /** The 66 noncharacters, listed: 32 in the Arabic Presentation Forms-A block, two per plane. */
    private static final BitSet NONCHARACTERS = new BitSet();

    static {
        NONCHARACTERS.set(0xFDD0, 0xFDEF + 1);
        for (int plane = 0; plane <= 16; plane++) {
            NONCHARACTERS.set(plane * 0x10000 + 0xFFFE);
            NONCHARACTERS.set(plane * 0x10000 + 0xFFFF);
        }
    }

    /** Each rule's code points, anywhere but offset 0. */
    static IntPredicate definition(ContentRule rule) {
        switch (rule) {
            case NUL:
                return cp -> cp == 0;
            case C0_CONTROL:
                return cp -> Character.getType(cp) == Character.CONTROL
                        && cp < 0x20
                        && cp != 0
                        && cp != '\t'
                        && cp != '\n'
                        && cp != '\r';
            case C1_CONTROL:
                return cp -> Character.getType(cp) == Character.CONTROL && cp >= 0x80;
            case NONCHARACTER:
                return NONCHARACTERS::get;
            case BYTE_ORDER_MARK:
                return cp -> false; // only at offset 0: see everyCodePointAtOffsetZero
            case PRIVATE_USE:
                return cp -> Character.getType(cp) == Character.PRIVATE_USE;
            case LINE_SEPARATOR:
                return cp -> Character.getType(cp) == Character.LINE_SEPARATOR
                        || Character.getType(cp) == Character.PARAGRAPH_SEPARATOR;
            case CR:
                return cp -> cp == '\r';
            default:
                throw new IllegalArgumentException(rule.toString());
        }
    }

    static boolean isScalarValue(int cp) {
        return cp < 0xD800 || cp > 0xDFFF;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theIndependentDefinitionsHaveTheSizesUnicodeGives() {
        Map<ContentRule, Integer> sizes = new EnumMap<>(ContentRule.class);
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            for (ContentRule rule : ContentRule.values()) {
                if (rule != ContentRule.NOT_NORMALISED && definition(rule).test(cp)) {
                    sizes.merge(rule, 1, Integer::sum);
                }
            }
        }
        assertThat(sizes)
                .containsEntry(ContentRule.NUL, 1)
                .containsEntry(ContentRule.C0_CONTROL, 28)
                .containsEntry(ContentRule.C1_CONTROL, 32)
                .containsEntry(ContentRule.NONCHARACTER, 66)
                .containsEntry(ContentRule.PRIVATE_USE, 6400 + 65534 + 65534)
                .containsEntry(ContentRule.LINE_SEPARATOR, 2)
                .containsEntry(ContentRule.CR, 1);
    }

    /**
     * Every code point after an 'a', with every rule rejected at once, and with each rule checked
     * alone (each policy skips different lead bytes, so each is its own scan).
     */
    @ParameterizedTest
    @EnumSource(
            value = ContentRule.class,
            names = {"NOT_NORMALISED"},
            mode = EnumSource.Mode.EXCLUDE)
    void eachRuleAloneMatchesExactlyItsDefinition(ContentRule rule) {
        ContentPolicy alone = ContentPolicy.of(ContentRules.none().with(rule, ContentAction.REJECT));
        IntPredicate definition = definition(rule);
        List<String> wrong = new ArrayList<>();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (!isScalarValue(cp)) {
                continue;
            }
            byte[] input = utf8("a" + Character.toString(cp) + "b");
            ContentResult result = alone.apply(input);
            boolean expected = definition.test(cp);
            List<ContentFinding> want =
                    expected ? List.of(new ContentFinding(1, input.length - 2, rule, ContentAction.REJECT)) : List.of();
            if (!result.findings().equals(want) || result.output() != input) {
                wrong.add(String.format("U+%04X: %s", cp, result.findings()));
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void withEveryRuleCheckedEachCodePointMatchesAtMostItsOwnRule() {
        ContentPolicy all = ContentPolicy.of(EveryRule.with(ContentAction.REJECT));
        List<String> wrong = new ArrayList<>();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (!isScalarValue(cp)) {
                continue;
            }
            byte[] input = utf8("\u00e9" + Character.toString(cp) + "\u00e9");
            List<ContentFinding> want = new ArrayList<>();
            for (ContentRule rule : ContentRule.values()) {
                if (rule != ContentRule.NOT_NORMALISED && definition(rule).test(cp)) {
                    want.add(new ContentFinding(2, input.length - 4, rule, ContentAction.REJECT));
                }
            }
            if (!all.apply(input).findings().equals(want)) {
                wrong.add(String.format("U+%04X: %s", cp, all.apply(input).findings()));
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void atOffsetZeroOnlyU_FEFFIsAByteOrderMark() {
        ContentPolicy bom = ContentPolicy.of(ContentRules.parse("BYTE_ORDER_MARK:reject"));
        List<String> wrong = new ArrayList<>();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (!isScalarValue(cp)) {
                continue;
            }
            byte[] input = utf8(Character.toString(cp) + "\uFEFF");
            List<ContentFinding> want = cp == 0xFEFF
                    ? List.of(new ContentFinding(0, 3, ContentRule.BYTE_ORDER_MARK, ContentAction.REJECT))
                    : List.of();
            if (!bom.apply(input).findings().equals(want)) {
                wrong.add(String.format("U+%04X", cp));
            }
        }
        assertThat(wrong).isEmpty();
    }

    /** STRIP leaves 'a' 'b'; REPLACE writes U+FFFD, or LF for the line ends; for every code point. */
    @Test
    void stripAndReplaceRewriteEveryMatchingCodePoint() {
        ContentPolicy strip = ContentPolicy.of(EveryRule.with(ContentAction.STRIP));
        ContentPolicy replace = ContentPolicy.of(EveryRule.with(ContentAction.REPLACE));
        List<String> wrong = new ArrayList<>();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (!isScalarValue(cp)) {
                continue;
            }
            String s = Character.toString(cp);
            byte[] input = utf8("a" + s + "b");
            boolean matches = false;
            boolean lineEnd = cp == '\r' || cp == 0x2028 || cp == 0x2029;
            for (ContentRule rule : ContentRule.values()) {
                matches |=
                        rule != ContentRule.NOT_NORMALISED && definition(rule).test(cp);
            }
            String stripped = new String(strip.apply(input).output(), StandardCharsets.UTF_8);
            String replaced = new String(replace.apply(input).output(), StandardCharsets.UTF_8);
            String wantStripped = matches ? "ab" : "a" + s + "b";
            String wantReplaced = matches ? (lineEnd ? "a\nb" : "a\uFFFDb") : "a" + s + "b";
            if (!stripped.equals(wantStripped) || !replaced.equals(wantReplaced)) {
                wrong.add(String.format("U+%04X", cp));
            }
        }
        assertThat(wrong).isEmpty();
    }
}
