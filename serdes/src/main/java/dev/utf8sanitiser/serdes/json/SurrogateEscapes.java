package dev.utf8sanitiser.serdes.json;

import java.util.Arrays;

/**
 * Escapes of a surrogate without its partner in the strings of a JSON document: {@code \uD800} not
 * followed at once by a low-surrogate escape, or {@code \uDC00} not preceded by a high one. Valid
 * JSON grammar, but they name no character (RFC 8259 section 8.2). The scan is lenient, so it also
 * runs on a document Jackson refused: it looks at bytes after a backslash only where they exist.
 */
final class SurrogateEscapes {
    /** What a lone escape becomes, of the same length: {@code \uFFFD}. */
    static final byte[] REPLACEMENT = {'\\', 'u', 'F', 'F', 'F', 'D'};

    static final int LENGTH = 6;

    private SurrogateEscapes() {}

    /** The offsets of the lone surrogate escapes, in order. */
    static int[] lone(byte[] document) {
        Offsets found = new Offsets();
        boolean inString = false;
        int pendingHigh = -1; // a high-surrogate escape not yet matched
        for (int i = 0; i < document.length; i++) {
            byte b = document[i];
            if (!inString) {
                inString = b == '"';
            } else if (b == '"') {
                found.add(pendingHigh);
                pendingHigh = -1;
                inString = false;
            } else if (b == '\\') {
                int unit = i + LENGTH <= document.length && document[i + 1] == 'u' ? hex4(document, i + 2) : -1;
                boolean high = unit >= 0xD800 && unit <= 0xDBFF;
                boolean low = unit >= 0xDC00 && unit <= 0xDFFF;
                if (low && pendingHigh >= 0 && pendingHigh == i - LENGTH) {
                    pendingHigh = -1; // a pair
                } else {
                    found.add(pendingHigh);
                    pendingHigh = high ? i : -1;
                    found.add(low ? i : -1);
                }
                i += unit >= 0 ? LENGTH - 1 : 1;
            }
        }
        return found.toArray();
    }

    /** A copy of {@code document} with {@link #REPLACEMENT} at each of {@code lone}. */
    static byte[] replaced(byte[] document, int[] lone) {
        byte[] copy = document.clone();
        for (int at : lone) {
            System.arraycopy(REPLACEMENT, 0, copy, at, LENGTH);
        }
        return copy;
    }

    /** The value of 4 hex digits at {@code at}, or -1 if they are not 4 hex digits. */
    private static int hex4(byte[] b, int at) {
        int value = 0;
        for (int i = at; i < at + 4; i++) {
            int digit = Character.digit(b[i], 16);
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    /** A growing list of offsets; -1 is no offset. */
    private static final class Offsets {
        private int[] values = new int[0];
        private int count;

        void add(int at) {
            if (at < 0) {
                return;
            }
            if (count == values.length) {
                values = Arrays.copyOf(values, Math.max(8, 2 * count));
            }
            values[count++] = at;
        }

        int[] toArray() {
            return Arrays.copyOf(values, count);
        }
    }
}
