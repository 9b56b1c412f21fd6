package dev.utf8sanitiser.app.dlq;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A hex dump of the bytes around an ill-formed place, 16 a line with the offset and the bytes as
 * ASCII beside them, the ill-formed run marked: in reverse video on a terminal, in brackets
 * otherwise. The run is the one {@code __utf8.context} brackets (adjacent ill-formed subparts, at
 * most 16 bytes).
 */
public final class HexView {
    private static final int PER_LINE = 16;
    private static final String MARK_ON = "\033[7;31m";
    private static final String MARK_OFF = "\033[0m";

    private final boolean colour;

    public HexView(boolean colour) {
        this.colour = colour;
    }

    /** Where the marked run lies in {@code bytes}: {@code [from, to)}, empty when from == to. */
    public record Marked(int from, int to) {
        public static Marked of(byte[] bytes, long offset, int length) {
            if (offset < 0 || offset >= bytes.length || length <= 0) {
                return new Marked(0, 0);
            }
            int from = (int) offset;
            int to = Math.max(
                    Math.min(bytes.length, from + length),
                    DeadLetterAnnotation.illFormedRunEnd(bytes, from, bytes.length));
            return new Marked(from, to);
        }
    }

    /**
     * The bytes shown: {@code around} bytes either side of the marked run, the start moved back to a
     * line's start, everything when {@code around} is negative.
     */
    public record Window(int start, int end) {
        public static Window of(byte[] bytes, Marked marked, int around) {
            int start = around < 0 ? 0 : Math.max(0, marked.from() - around) / PER_LINE * PER_LINE;
            int end = around < 0 ? bytes.length : Math.min(bytes.length, marked.to() + around);
            return new Window(start, end);
        }
    }

    /**
     * The dump of {@code bytes} from {@code around} bytes before the marked run to {@code around}
     * after it, in whole lines; every line when {@code around} is negative.
     */
    public List<String> lines(byte[] bytes, Marked marked, int around) {
        Window window = Window.of(bytes, marked, around);
        int start = window.start();
        int end = window.end();
        List<String> lines = new ArrayList<>();
        for (int line = start; line < end; line += PER_LINE) {
            // Each byte takes three columns, the one before its digits being a space or, without
            // colour, the bracket that opens or closes the marked run: every line is as wide as an
            // unmarked one, and the text column stays where it is.
            StringBuilder hex = new StringBuilder(String.format("%08x ", line));
            StringBuilder ascii = new StringBuilder();
            boolean previousCloses = false;
            for (int i = line; i < line + PER_LINE; i++) {
                if (i >= end) {
                    hex.append(previousCloses ? ']' : ' ').append("  ");
                    previousCloses = false;
                    continue;
                }
                boolean in = i >= marked.from() && i < marked.to();
                boolean opens = in && (i == marked.from() || i == line);
                String digits = String.format("%02x", bytes[i] & 0xFF);
                if (colour) {
                    hex.append(' ').append(in ? MARK_ON + digits + MARK_OFF : digits);
                } else {
                    hex.append(previousCloses ? ']' : opens ? '[' : ' ').append(digits);
                }
                previousCloses = !colour && in && (i == marked.to() - 1 || i == line + PER_LINE - 1 || i == end - 1);
                int b = bytes[i] & 0xFF;
                char c = b >= 0x20 && b < 0x7F ? (char) b : '.';
                ascii.append(colour && in ? MARK_ON + c + MARK_OFF : String.valueOf(c));
            }
            hex.append(previousCloses ? ']' : ' ');
            lines.add(hex.append(" |").append(ascii).append('|').toString());
        }
        return lines;
    }

    /**
     * The same window as text: what decodes shown as it is, each ill-formed subpart as U+FFFD, and
     * control and format characters as {@code \\uXXXX}, so that nothing in the record can move the terminal.
     */
    public static String text(byte[] bytes, Marked marked, int around) {
        int start = around < 0 ? 0 : Math.max(0, marked.from() - around);
        int end = around < 0 ? bytes.length : Math.min(bytes.length, marked.to() + around);
        return text(bytes, start, end);
    }

    /** Bytes {@code [start, end)} as text, each ill-formed subpart as U+FFFD, {@link #spelt}. */
    public static String text(byte[] bytes, int start, int end) {
        byte[] replaced = Utf8Sanitiser.sanitise(bytes, start, end - start, Policy.REPLACE, 0)
                .output();
        return spelt(new String(replaced, StandardCharsets.UTF_8));
    }

    /**
     * {@code decoded} with control and format characters, and the line and paragraph separators,
     * spelt {@code \\uXXXX}: what a terminal or a page shows of text from a record cannot move the
     * cursor, reorder the line (bidi overrides) or hide characters.
     */
    public static String spelt(String decoded) {
        StringBuilder s = new StringBuilder();
        decoded.codePoints().forEach(cp -> {
            // Control and format characters (bidi overrides among them) could rewrite what the
            // terminal shows; they are spelt out instead.
            if (Character.isISOControl(cp)
                    || Character.getType(cp) == Character.FORMAT
                    || cp == 0x2028
                    || cp == 0x2029) {
                s.append(String.format("\\u%04X", cp));
            } else {
                s.appendCodePoint(cp);
            }
        });
        return s.toString();
    }
}
