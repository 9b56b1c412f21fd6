package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Utf8Validator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class ContentPropertiesTest {

    @Provide
    Arbitrary<byte[]> text() {
        return ContentInputs.text();
    }

    @Provide
    Arbitrary<ContentPolicy> policy() {
        return ContentInputs.policies();
    }

    /**
     * Keeping fewer findings changes the list only: the output, the count, the first rejection and
     * what the actions did are those the whole list says, and the whole list's own bookkeeping
     * agrees with it too.
     */
    @Property(tries = 2000)
    void keepingFewerFindingsKeepsEverythingElseExact(
            @ForAll("text") byte[] input,
            @ForAll("policy") ContentPolicy policy,
            @ForAll @IntRange(min = 0, max = 3) int kept) {
        ContentResult all = policy.apply(input, true);
        ContentResult some = policy.apply(input, true, kept);
        ContentResult fromTheList = new ContentResult(all.output(), all.findings());
        for (ContentResult result : List.of(all, some)) {
            assertThat(result.output()).isEqualTo(all.output());
            assertThat(result.count()).isEqualTo(all.findings().size());
            assertThat(result.firstRejected()).isEqualTo(fromTheList.firstRejected());
            assertThat(result.stripped()).isEqualTo(fromTheList.stripped());
            assertThat(result.replaced()).isEqualTo(fromTheList.replaced());
            assertThat(result.normalised()).isEqualTo(fromTheList.normalised());
            assertThat(result.changed()).isEqualTo(fromTheList.changed());
        }
        assertThat(some.findings())
                .isEqualTo(
                        all.findings().subList(0, Math.min(kept, all.findings().size())));
    }

    /**
     * Reporting finds what applying finds, in the same order, for text anywhere in a larger array
     * (with bytes around it that would match if they were read), at the start of the input or not.
     */
    @Property(tries = 2000)
    void reportingGivesApplysFindingsInOrder(
            @ForAll("text") byte[] input,
            @ForAll("policy") ContentPolicy policy,
            @ForAll boolean startOfInput,
            @ForAll @IntRange(min = 0, max = 5) int before,
            @ForAll @IntRange(min = 0, max = 5) int after) {
        byte[] around = new byte[before + input.length + after]; // NUL bytes, which NUL matches
        System.arraycopy(input, 0, around, before, input.length);
        List<ContentFinding> reported = new ArrayList<>();
        long count = policy.report(
                around,
                before,
                before + input.length,
                startOfInput,
                (offset, length, rule, action) -> reported.add(new ContentFinding(offset, length, rule, action)));

        ContentResult applied = policy.apply(input, startOfInput);
        assertThat(reported).isEqualTo(applied.findings());
        assertThat(count).isEqualTo(applied.count());
    }

    @Property(tries = 2000)
    void outputIsAlwaysWellFormed(@ForAll("text") byte[] input, @ForAll("policy") ContentPolicy policy) {
        assertThat(Utf8Validator.isWellFormed(policy.apply(input).output())).isTrue();
    }

    /**
     * A second apply changes nothing and rejects what the first rejected, with one exception that
     * docs/content-rules.md forces: BYTE_ORDER_MARK looks at input offset 0 only, so when stripping exposes a
     * U+FEFF at the start of the output, the next apply treats that one as a byte order mark.
     */
    @Property(tries = 2000)
    void applyIsIdempotent(@ForAll("text") byte[] input, @ForAll("policy") ContentPolicy policy) {
        ContentResult once = policy.apply(input);
        ContentResult twice = policy.apply(once.output());
        ContentAction bom = policy.rules().actionFor(ContentRule.BYTE_ORDER_MARK);
        boolean exposedBom = bom != ContentAction.ALLOW
                && startsWithBom(once.output())
                && !(bom == ContentAction.REJECT && startsWithBom(input));
        if (exposedBom) {
            assertThat(twice.findings())
                    .filteredOn(f -> f.action() != ContentAction.REJECT)
                    .isSubsetOf(new ContentFinding(0, 3, ContentRule.BYTE_ORDER_MARK, bom));
            assertThat(twice.rejected()).isEqualTo(once.rejected() || bom == ContentAction.REJECT);
        } else {
            assertThat(twice.changed()).isFalse();
            assertThat(twice.output()).isSameAs(once.output());
            assertThat(twice.rejected()).isEqualTo(once.rejected());
        }
    }

    @Property(tries = 2000)
    void changedMeansADifferentArrayAndCleanMeansTheSameOne(
            @ForAll("text") byte[] input, @ForAll("policy") ContentPolicy policy) {
        ContentResult result = policy.apply(input);
        if (result.changed()) {
            assertThat(result.output()).isNotEqualTo(input);
        } else {
            assertThat(result.output()).isSameAs(input);
        }
        assertThat(result.rejected())
                .isEqualTo(result.findings().stream().anyMatch(f -> f.action() == ContentAction.REJECT));
    }

    @Property(tries = 2000)
    void findingsAreInOrderInsideTheInputAndOnCharacterBoundaries(
            @ForAll("text") byte[] input, @ForAll("policy") ContentPolicy policy) {
        long previous = -1;
        for (ContentFinding f : policy.apply(input).findings()) {
            assertThat(f.offset()).isGreaterThanOrEqualTo(f.rule() == ContentRule.NOT_NORMALISED ? 0 : previous);
            assertThat(f.offset() + f.length()).isLessThanOrEqualTo(input.length);
            assertThat(isBoundary(input, (int) f.offset())).isTrue();
            assertThat(isBoundary(input, (int) (f.offset() + f.length()))).isTrue();
            assertThat(policy.rules().actionFor(f.rule()) == f.action() || f.rule() == ContentRule.NOT_NORMALISED)
                    .isTrue();
            if (f.rule() != ContentRule.NOT_NORMALISED) {
                previous = f.offset();
            }
        }
    }

    /**
     * Without normalisation, findings and output are exactly what decoding the input character by
     * character and classifying each with the independent definitions gives.
     */
    @Property(tries = 2000)
    void codePointRulesAgreeWithACharacterByCharacterOracle(
            @ForAll("text") byte[] input, @ForAll("policy") ContentPolicy policy) {
        ContentRules rules = policy.rules();
        if (policy.normalisation() != Normalisation.NONE
                || rules.actionFor(ContentRule.NOT_NORMALISED) == ContentAction.REPLACE) {
            return;
        }
        List<ContentFinding> expectedFindings = new ArrayList<>();
        ByteArrayOutputStream expectedOutput = new ByteArrayOutputStream();
        String text = new String(input, StandardCharsets.UTF_8);
        int offset = 0;
        for (int k = 0; k < text.length(); ) {
            int cp = text.codePointAt(k);
            byte[] bytes = Character.toString(cp).getBytes(StandardCharsets.UTF_8);
            ContentRule rule = null;
            for (ContentRule r : ContentRule.values()) {
                if (r != ContentRule.NOT_NORMALISED
                        && ExhaustiveContentRuleTest.definition(r).test(cp)) {
                    rule = r;
                }
            }
            if (cp == 0xFEFF && offset == 0) {
                rule = ContentRule.BYTE_ORDER_MARK;
            }
            ContentAction action = rule == null ? ContentAction.ALLOW : rules.actionFor(rule);
            if (action != ContentAction.ALLOW) {
                expectedFindings.add(new ContentFinding(offset, bytes.length, rule, action));
            }
            if (action == ContentAction.ALLOW || action == ContentAction.REJECT) {
                expectedOutput.writeBytes(bytes);
            } else if (action == ContentAction.REPLACE) {
                boolean crlf = cp == '\r' && k + 1 < text.length() && text.charAt(k + 1) == '\n';
                boolean lineEnd = cp == '\r' || cp == 0x2028 || cp == 0x2029;
                expectedOutput.writeBytes(
                        crlf ? new byte[0] : lineEnd ? new byte[] {'\n'} : "\uFFFD".getBytes(StandardCharsets.UTF_8));
            }
            offset += bytes.length;
            k += Character.charCount(cp);
        }
        ContentResult result = policy.apply(input);
        assertThat(result.findings())
                .filteredOn(f -> f.rule() != ContentRule.NOT_NORMALISED)
                .isEqualTo(expectedFindings);
        assertThat(result.output()).isEqualTo(expectedOutput.toByteArray());
    }

    /** With a form, the output is in it (the library's own check), whatever the rules did first. */
    @Property(tries = 2000)
    void normalisingPoliciesOutputTextInTheirForm(
            @ForAll("text") byte[] input, @ForAll("policy") ContentPolicy policy) {
        ContentResult result = policy.apply(input);
        boolean normalising = policy.normalisation() != Normalisation.NONE
                || policy.rules().actionFor(ContentRule.NOT_NORMALISED) == ContentAction.REPLACE;
        boolean rejecting = policy.rules().actionFor(ContentRule.NOT_NORMALISED) == ContentAction.REJECT;
        String output = new String(result.output(), StandardCharsets.UTF_8);
        boolean inForm = Normaliser.isNormalised(output, policy.form());
        if (normalising && !rejecting) {
            assertThat(inForm).isTrue();
        }
        if (rejecting) {
            boolean foundNotNormalised =
                    result.findings().stream().anyMatch(f -> f.rule() == ContentRule.NOT_NORMALISED);
            assertThat(foundNotNormalised).isEqualTo(!inForm);
        }
    }

    private static boolean startsWithBom(byte[] b) {
        return b.length >= 3 && Arrays.equals(b, 0, 3, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, 0, 3);
    }

    private static boolean isBoundary(byte[] b, int i) {
        return i == b.length || (b[i] & 0xC0) != 0x80;
    }
}
