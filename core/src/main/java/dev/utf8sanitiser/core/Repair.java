package dev.utf8sanitiser.core;

import java.util.Objects;

/**
 * One irregular sequence that {@link Policy#REPAIR} turned into its well-formed equivalent. The
 * Unicode 3.0.1 Corrigendum #1 ("UTF-8 Shortest Form") allows a process to "transform irregular code unit
 * sequences into the equivalent well-formed" ones where that causes no security problem; these two
 * transforms are the only ones done, because they are what real systems (databases, Java's
 * Modified UTF-8) write, and neither can turn a byte into ASCII that a filter did not see.
 *
 * @param offset where the irregular sequence starts in the input
 * @param length its length in the input (6 for a pair, 2 for NUL)
 * @param kind which repair
 * @param codePoint the code point it now stands for
 */
public record Repair(long offset, int length, Kind kind, int codePoint) {
    public enum Kind {
        /** {@code ED A0..AF 80..BF ED B0..BF 80..BF}: a UTF-16 surrogate pair, each half 3 bytes. */
        CESU8_SURROGATE_PAIR,
        /** {@code C0 80}: Modified UTF-8's NUL, so that strings hold no zero byte. */
        MODIFIED_UTF8_NUL
    }

    public Repair {
        Objects.requireNonNull(kind, "kind");
    }
}
