package dev.utf8sanitiser.config;

import java.util.Locale;
import java.util.Optional;

/** What to do where a {@link ContentRule} matches. */
public enum ContentAction {
    /** Nothing: the rule is not checked. The action of every rule not configured. */
    ALLOW,
    /** Send the record to the dead-letter topic, as an ill-formed record under {@code strict}. */
    REJECT,
    /** Remove the matching characters and send the record on. */
    STRIP,
    /** Replace each matching character with U+FFFD and send the record on. */
    REPLACE;

    /** The name in configuration files: {@code allow}, {@code reject}, {@code strip}, {@code replace}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The action with this configuration name, ignoring case. */
    public static Optional<ContentAction> fromConfigName(String name) {
        for (ContentAction action : values()) {
            if (action.configName().equalsIgnoreCase(name)) {
                return Optional.of(action);
            }
        }
        return Optional.empty();
    }
}
