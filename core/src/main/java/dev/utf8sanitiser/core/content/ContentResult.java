package dev.utf8sanitiser.core.content;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What {@link ContentPolicy#apply(byte[])} made of some well-formed UTF-8.
 *
 * @param output the text after every STRIP and REPLACE (normalisation included): well-formed
 *     UTF-8, and the input array itself, not a copy, when nothing was stripped or replaced
 * @param findings every match of a rule whose action is not ALLOW, in order of input offset (the
 *     one {@link ContentRule#NOT_NORMALISED} finding, which spans other characters, after the
 *     findings that start at or before its offset); empty for clean text
 */
public record ContentResult(byte[] output, List<ContentFinding> findings) {
    public ContentResult {
        Objects.requireNonNull(output, "output");
        findings = List.copyOf(findings);
    }

    /**
     * Whether some finding's action is {@link ContentAction#REJECT}: the caller should refuse the
     * text as a whole (the output still shows what the other actions did).
     */
    public boolean rejected() {
        for (ContentFinding f : findings) {
            if (f.action() == ContentAction.REJECT) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the output differs from the input: some finding's action is STRIP or REPLACE. Each
     * such finding changes the text, so this is also {@code output != input}.
     */
    public boolean changed() {
        for (ContentFinding f : findings) {
            if (f.action() != ContentAction.REJECT) {
                return true;
            }
        }
        return false;
    }

    /** Equal outputs (by content) and equal findings. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ContentResult other
                && Arrays.equals(output, other.output)
                && findings.equals(other.findings);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(output) + findings.hashCode();
    }

    @Override
    public String toString() {
        return "ContentResult[output=" + output.length + " bytes, findings=" + findings + "]";
    }
}
