package dev.utf8sanitiser.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Undefined keys in the sanitiser's own namespaces, and what they most likely meant: a key that
 * starts with {@code sanitiser.}, {@code schema.registry.} or {@code sanitizer.} is a typo, not a
 * setting for Kafka, and is reported with the nearest defined key ("did you mean ...?").
 */
final class MisspeltKeys {
    private MisspeltKeys() {}

    /** Adds a problem for each undefined key of {@code props} in the sanitiser's namespaces. */
    static void check(Map<?, ?> props, List<ConfigProblem> problems) {
        for (Object name : props.keySet()) {
            if (name instanceof String key
                    && isOwnNamespace(key)
                    && !SanitiserConfig.definedKeys().contains(key)) {
                problems.add(new ConfigProblem(key, unknownKey(key)));
            }
        }
    }

    /**
     * Whether an undefined {@code key} is most likely a typo of one of the sanitiser's: it starts
     * with {@code sanitiser.}, {@code schema.registry.}, or {@code sanitizer.}, which would
     * otherwise pass through to Kafka and be ignored ({@code sanitizer.policy=repair} left the
     * policy strict).
     */
    private static boolean isOwnNamespace(String key) {
        return key.startsWith(SanitiserConfig.PREFIX)
                || key.startsWith(SchemaRegistryKeys.SCHEMA_REGISTRY_PREFIX)
                || key.startsWith(SanitiserConfig.AMERICAN_PREFIX);
    }

    /** The message for an undefined key of the sanitiser's spelt the American way. */
    private static String unknownAmericanKey(String key) {
        return "Unknown configuration " + key
                + closestKey(SanitiserConfig.PREFIX + key.substring(SanitiserConfig.AMERICAN_PREFIX.length()))
                        .map(closest -> "; did you mean " + closest + "?")
                        .orElse("; the sanitiser's keys start with " + SanitiserConfig.PREFIX
                                + ", with an s (docs/configuration.md)");
    }

    private static String unknownKey(String key) {
        if (key.startsWith(SanitiserConfig.AMERICAN_PREFIX)) {
            return unknownAmericanKey(key);
        }
        return "Unknown configuration " + key
                + closestKey(key)
                        .map(closest -> "; did you mean " + closest + "?")
                        .orElse(
                                key.startsWith(SanitiserConfig.PREFIX)
                                        ? "; the sanitiser defines no such key (docs/configuration.md)"
                                        : "; the sanitiser's Schema Registry client has no such setting"
                                                + " (docs/schema-registry.md)");
    }

    /** The defined key nearest to {@code key}, within three edits: what a typo most likely meant. */
    static Optional<String> closestKey(String key) {
        return Nearest.to(key, SanitiserConfig.definedKeys(), 3);
    }
}
