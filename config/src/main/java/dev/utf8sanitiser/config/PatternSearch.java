package dev.utf8sanitiser.config;

import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Looks for a topic name that an input pattern matches and that has some property, such as "the
 * pattern also matches its output topic", shortest first. Names are grown a character at a time,
 * and a name is grown further only while the pattern could still match it ({@link
 * Matcher#hitEnd()}), so the search follows the pattern rather than trying every string.
 *
 * <p>What it finds is certain: the pattern matches it, and the property was checked. What it does
 * not find may still exist: the search tries the characters of the pattern itself and one of each
 * kind ({@code a A 0 . _ -}), and stops after {@link #STEPS} characters read by the regular
 * expression engine (which also bounds a pattern that backtracks catastrophically). Deterministic:
 * the same pattern gives the same answer on every machine.
 */
final class PatternSearch {
    /** The most characters the engine may read in one search. */
    static final long STEPS = 250_000;

    private static final String KINDS = "a0A._-";

    private final Pattern pattern;
    private long steps;

    PatternSearch(Pattern pattern) {
        this.pattern = pattern;
    }

    /**
     * The shortest legal topic name found that the pattern matches and {@code wanted} accepts, or
     * empty. {@code wanted} may call {@link #matches}, which counts against the same budget.
     */
    Optional<String> find(Predicate<String> wanted) {
        Set<Character> alphabet = alphabet(pattern.pattern());
        Queue<String> prefixes = new ArrayDeque<>();
        prefixes.add("");
        try {
            while (!prefixes.isEmpty()) {
                String prefix = prefixes.remove();
                for (char c : alphabet) {
                    String name = prefix + c;
                    Matcher matcher = pattern.matcher(new Counted(name));
                    boolean match = matcher.matches();
                    if (match && TopicNames.problem(name).isEmpty() && wanted.test(name)) {
                        return Optional.of(name);
                    }
                    // After a match the engine may not have looked past the end, so grow it anyway.
                    if ((match || matcher.hitEnd()) && name.length() < TopicNames.MAX_LENGTH) {
                        prefixes.add(name);
                    }
                }
            }
        } catch (OutOfSteps e) {
            // Inconclusive: nothing found within the budget.
        }
        return Optional.empty();
    }

    /** Whether the pattern matches the whole of {@code name}, within the search's budget. */
    boolean matches(String name) {
        return pattern.matcher(new Counted(name)).matches();
    }

    /** The legal topic characters of the pattern's text, in order, then one of each kind. */
    private static Set<Character> alphabet(String regex) {
        Set<Character> alphabet = new LinkedHashSet<>();
        for (char c : (regex + KINDS).toCharArray()) {
            if (TopicNames.illegalCharacter(String.valueOf(c)).isEmpty()) {
                alphabet.add(c);
            }
        }
        return alphabet;
    }

    /** A name whose every character read counts against the budget. */
    private final class Counted implements CharSequence {
        private final String text;

        Counted(String text) {
            this.text = text;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            if (++steps > STEPS) {
                throw new OutOfSteps();
            }
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Counted(text.substring(start, end));
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private static final class OutOfSteps extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OutOfSteps() {
            super(null, null, false, false);
        }
    }
}
