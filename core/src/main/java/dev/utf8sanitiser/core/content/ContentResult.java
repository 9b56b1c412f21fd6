package dev.utf8sanitiser.core.content;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link ContentPolicy#apply(byte[])} made of some well-formed UTF-8.
 *
 * <p>The findings are kept up to a limit the caller chose ({@link ContentPolicy#apply(byte[],
 * boolean, int)}), while the count, the first rejected finding and what the actions did are exact:
 * a record of a million NUL bytes must not need a million objects to be judged.
 *
 * @param output the text after every STRIP and REPLACE (normalisation included): well-formed
 *     UTF-8, and the input array itself, not a copy, when nothing was stripped or replaced
 * @param findings the matches of rules whose action is not ALLOW, in order of input offset (the
 *     one {@link ContentRule#NOT_NORMALISED} finding, which spans other characters, after the
 *     findings that start at or before its offset); the first ones only when more were found
 *     than kept; empty for clean text
 * @param count how many findings there were, kept or not
 * @param firstRejected the first finding (in the order above) whose action is REJECT, or null
 * @param stripped whether some finding's action was STRIP
 * @param replaced whether some finding of a code point rule had action REPLACE
 * @param normalised whether normalisation replaced the text (a NOT_NORMALISED finding, REPLACE)
 */
public record ContentResult(
        byte[] output,
        List<ContentFinding> findings,
        int count,
        ContentFinding firstRejected,
        boolean stripped,
        boolean replaced,
        boolean normalised) {
    public ContentResult {
        Objects.requireNonNull(output, "output");
        findings = List.copyOf(findings);
        if (count < findings.size()) {
            throw new IllegalArgumentException("count " + count + " < " + findings.size() + " findings kept");
        }
    }

    /** Every finding kept: the rest is worked out from them. */
    public ContentResult(byte[] output, List<ContentFinding> findings) {
        this(
                output,
                findings,
                findings.size(),
                findings.stream()
                        .filter(f -> f.action() == ContentAction.REJECT)
                        .findFirst()
                        .orElse(null),
                findings.stream().anyMatch(f -> f.action() == ContentAction.STRIP),
                findings.stream()
                        .anyMatch(f -> f.action() == ContentAction.REPLACE && f.rule() != ContentRule.NOT_NORMALISED),
                findings.stream()
                        .anyMatch(f -> f.action() == ContentAction.REPLACE && f.rule() == ContentRule.NOT_NORMALISED));
    }

    /** The first rejected finding, if any. */
    public Optional<ContentFinding> rejection() {
        return Optional.ofNullable(firstRejected);
    }

    /**
     * Whether some finding's action is {@link ContentAction#REJECT}: the caller should refuse the
     * text as a whole (the output still shows what the other actions did).
     */
    public boolean rejected() {
        return firstRejected != null;
    }

    /**
     * Whether the output differs from the input: some finding's action is STRIP or REPLACE. Each
     * such finding changes the text, so this is also {@code output != input}.
     */
    public boolean changed() {
        return stripped || replaced || normalised;
    }

    /** Equal outputs (by content), findings, counts, first rejections and actions. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ContentResult other
                && Arrays.equals(output, other.output)
                && count == other.count
                && findings.equals(other.findings)
                && Objects.equals(firstRejected, other.firstRejected)
                && stripped == other.stripped
                && replaced == other.replaced
                && normalised == other.normalised;
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(output) + findings.hashCode();
    }

    @Override
    public String toString() {
        return "ContentResult[output=" + output.length + " bytes, count=" + count + ", findings=" + findings + "]";
    }
}
