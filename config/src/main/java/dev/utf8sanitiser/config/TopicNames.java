package dev.utf8sanitiser.config;

import java.util.Optional;

/**
 * Kafka's rule for a legal topic name, as the broker applies it: 1 to 249 of the characters {@code
 * a-z A-Z 0-9 . _ -}, and neither {@code .} nor {@code ..}. Checked here so that a typo is reported
 * at start-up, not when the first record is routed.
 */
public final class TopicNames {
    /** The longest legal topic name. */
    static final int MAX_LENGTH = 249;

    private TopicNames() {}

    /** Why {@code name} is not a legal topic name, or empty when it is. */
    public static Optional<String> problem(String name) {
        if (name.isEmpty()) {
            return Optional.of("a topic name cannot be empty");
        }
        if (name.equals(".") || name.equals("..")) {
            return Optional.of("a topic name cannot be '.' or '..'");
        }
        if (name.length() > MAX_LENGTH) {
            return Optional.of("a topic name has at most " + MAX_LENGTH + " characters, not " + name.length());
        }
        return illegalCharacter(name);
    }

    /** Why {@code part} of a topic name holds a character no topic name may hold, or empty. */
    static Optional<String> illegalCharacter(String part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (!isLegal(c)) {
                return Optional.of("'" + c + "' cannot appear in a topic name (only a-z A-Z 0-9 . _ -)");
            }
        }
        return Optional.empty();
    }

    private static boolean isLegal(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '.'
                || c == '_'
                || c == '-';
    }
}
