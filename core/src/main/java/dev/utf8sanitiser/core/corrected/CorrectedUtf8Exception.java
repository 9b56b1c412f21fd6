package dev.utf8sanitiser.core.corrected;

import java.nio.charset.CharacterCodingException;
import java.util.Objects;

/**
 * Input that cannot be decoded or transcoded, stopped at its first problem: the byte offset in the
 * input where the offending sequence starts, and the rule it breaks.
 *
 * <p>A {@link CharacterCodingException}, and so an {@code IOException}, like the JDK's {@code
 * MalformedInputException}: {@link TranscodingOutputStream#write} throws it through the ordinary
 * {@code OutputStream} signature, and a caller tells it from a failed read or write by its type.
 * {@link #getMessage()} is {@code OFFSET: RULE description}, so a command line prefixes the input's
 * name and prints it.
 */
public final class CorrectedUtf8Exception extends CharacterCodingException {
    private static final long serialVersionUID = 1L;

    private final long offset;
    private final CorrectedRule rule;

    CorrectedUtf8Exception(long offset, CorrectedRule rule) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset < 0: " + offset);
        }
        this.offset = offset;
        this.rule = Objects.requireNonNull(rule, "rule");
    }

    /** The byte index, from 0, in the input (a leading magic number included) of the problem. */
    public long offset() {
        return offset;
    }

    public CorrectedRule rule() {
        return rule;
    }

    /** {@code "17: C1_CONTROL C1 control (U+0080..U+009F), which Corrected UTF-8 does not encode"}. */
    @Override
    public String getMessage() {
        return offset + ": " + rule + " " + rule.description();
    }
}
