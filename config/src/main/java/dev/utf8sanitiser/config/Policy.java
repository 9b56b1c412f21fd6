package dev.utf8sanitiser.config;

import java.util.Locale;
import java.util.Optional;

/** What the sanitiser does with a record that is not well-formed UTF-8 ({@code sanitiser.policy}). */
public enum Policy {
    /** Send the record, unchanged, to the dead-letter topic. The default. */
    STRICT,
    /** Replace each maximal ill-formed subpart with U+FFFD and send the record on. */
    REPLACE,
    /**
     * Repair CESU-8 surrogate pairs and Modified UTF-8 {@code C0 80}, replace everything else as
     * {@link #REPLACE} does, and send the record on. Opt-in only (RULES.md, "Repair").
     */
    REPAIR;

    /** The name in configuration files: {@code strict}, {@code replace}, {@code repair}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy with this configuration name, ignoring case. */
    public static Optional<Policy> fromConfigName(String name) {
        for (Policy policy : values()) {
            if (policy.configName().equalsIgnoreCase(name)) {
                return Optional.of(policy);
            }
        }
        return Optional.empty();
    }
}
