package dev.utf8sanitiser.serdes.json;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.core.Utf8Validator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The member names of a JSON document's objects, compared before and after a fix: replacing
 * ill-formed bytes or lone surrogate escapes (or repairing, or a content rule) can make two names of
 * one object equal, and a reader would then keep one member and drop the other. Names that were
 * equal as they came are the writer's doing and are left as they are.
 *
 * <p>Both documents are valid JSON of the same shape (a fix changes only the insides of strings),
 * so their objects and names come in the same order. A name is compared by what it means: escapes
 * decoded, well-formed UTF-8 decoded, each ill-formed byte kept as itself. The scan keeps its own
 * stack, so no nesting overflows the thread's.
 */
final class JsonKeys {
    private JsonKeys() {}

    /** A member name: where its text lies (inside the quotes) and what it means. */
    private record Name(int start, int end, String meaning) {}

    /**
     * Where, in {@code before}, the text of a name lies that the fix made equal to another name of
     * its object; empty when the fix kept every object's names apart.
     */
    static Optional<int[]> collision(byte[] before, byte[] after) {
        List<List<Name>> was = objects(before);
        List<List<Name>> now = objects(after);
        for (int o = 0; o < was.size() && o < now.size(); o++) {
            List<Name> in = was.get(o);
            List<Name> out = now.get(o);
            Set<String> seenIn = new HashSet<>();
            Map<String, Name> seenOut = new HashMap<>();
            for (int i = 0; i < in.size() && i < out.size(); i++) {
                Name original = in.get(i);
                Name fixed = out.get(i);
                boolean newIn = seenIn.add(original.meaning());
                Name earlier = seenOut.putIfAbsent(fixed.meaning(), original);
                if (newIn && earlier != null) {
                    // Two names apart before, one now: describe the one the fix changed.
                    Name changed = original.meaning().equals(fixed.meaning()) ? earlier : original;
                    return Optional.of(new int[] {changed.start(), changed.end()});
                }
            }
        }
        return Optional.empty();
    }

    /** Each object's names, objects in the order they open. */
    private static List<List<Name>> objects(byte[] doc) {
        List<List<Name>> objects = new ArrayList<>();
        Deque<List<Name>> open = new ArrayDeque<>(); // an array is an empty marker list, never named
        List<Name> array = List.of();
        boolean nameNext = false;
        for (int i = 0; i < doc.length; i++) {
            byte b = doc[i];
            switch (b) {
                case '{' -> {
                    List<Name> names = new ArrayList<>();
                    objects.add(names);
                    open.push(names);
                    nameNext = true;
                }
                case '[' -> open.push(array);
                case '}', ']' -> open.pop();
                case ':' -> nameNext = false;
                case ',' -> nameNext = !open.isEmpty() && open.peek() != array;
                case '"' -> {
                    int end = stringEnd(doc, i);
                    if (nameNext && !open.isEmpty() && open.peek() != array) {
                        open.peek().add(new Name(i + 1, end, meaning(doc, i + 1, end)));
                    }
                    i = end;
                }
                default -> {}
            }
        }
        return objects;
    }

    /** The closing quote of the string whose opening quote is at {@code quote}. */
    private static int stringEnd(byte[] doc, int quote) {
        int i = quote + 1;
        while (i < doc.length && doc[i] != '"') {
            i += doc[i] == '\\' ? 2 : 1;
        }
        return Math.min(i, doc.length);
    }

    /**
     * What {@code doc[from, to)} means, as a string only equal to another's when the two texts
     * mean the same: NUL, which only an escape can write, is doubled, and each ill-formed byte is
     * a NUL followed by one char of its own.
     */
    private static String meaning(byte[] doc, int from, int to) {
        StringBuilder s = new StringBuilder(to - from);
        int i = from;
        while (i < to) {
            int b = doc[i] & 0xFF;
            if (b == '\\' && i + 1 < to) {
                char c = (char) doc[i + 1];
                if (c == 'u' && i + 6 <= to) {
                    append(s, (char) Integer.parseInt(new String(doc, i + 2, 4, UTF_8), 16));
                    i += 6;
                } else {
                    append(
                            s,
                            switch (c) {
                                case 'b' -> '\b';
                                case 'f' -> '\f';
                                case 'n' -> '\n';
                                case 'r' -> '\r';
                                case 't' -> '\t';
                                default -> c; // \" \\ \/
                            });
                    i += 2;
                }
            } else if (b < 0x80) {
                s.append((char) b);
                i++;
            } else {
                var error = Utf8Validator.firstError(doc, i, Math.min(4, to - i));
                if (error.isPresent() && error.get().offset() == 0) {
                    for (int k = 0; k < error.get().length(); k++) {
                        s.append('\0').append((char) (1 + (doc[i + k] & 0xFF)));
                    }
                    i += error.get().length();
                } else {
                    int length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
                    s.append(new String(doc, i, length, UTF_8));
                    i += length;
                }
            }
        }
        return s.toString();
    }

    private static void append(StringBuilder s, char c) {
        if (c == '\0') {
            s.append('\0').append('\0');
        } else {
            s.append(c);
        }
    }
}
