package dev.utf8sanitiser.config;

import java.util.Collection;
import java.util.Optional;

/**
 * What a mistyped name most likely meant: the candidate within a few edits (Levenshtein distance),
 * for "did you mean ...?" in messages about configuration keys and command-line values. Written
 * here rather than taken from a library: it is twenty lines, and the published modules would
 * otherwise carry a text library for a message.
 */
public final class Nearest {
    private Nearest() {}

    /** The candidate nearest to {@code name} within {@code maxEdits} edits; the first of equals wins. */
    public static Optional<String> to(String name, Collection<String> candidates, int maxEdits) {
        String closest = null;
        int best = maxEdits + 1;
        for (String candidate : candidates) {
            int distance = editDistance(name, candidate);
            if (distance < best) {
                best = distance;
                closest = candidate;
            }
        }
        return Optional.ofNullable(closest);
    }

    /** Levenshtein distance, for suggestions only. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
