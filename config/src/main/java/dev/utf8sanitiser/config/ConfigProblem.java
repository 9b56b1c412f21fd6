package dev.utf8sanitiser.config;

import java.util.Objects;

/**
 * One thing wrong with a configuration, in one line that an operator can act on.
 *
 * @param key the configuration key the problem concerns (for a problem between keys, the key to
 *     change first), or the empty string when it concerns no key, such as an unreadable file
 * @param message one line that names the key, the bad value where it is safe to show, and what is
 *     expected: {@code Invalid value strikt for configuration sanitiser.policy: expected one of
 *     strict, replace, repair}
 */
public record ConfigProblem(String key, String message) {
    public ConfigProblem {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(message, "message");
    }

    /** The same problem, its message followed by {@code (note)}: where the value came from. */
    public ConfigProblem noting(String note) {
        return new ConfigProblem(key, message + " (" + note + ")");
    }

    @Override
    public String toString() {
        return message;
    }
}
