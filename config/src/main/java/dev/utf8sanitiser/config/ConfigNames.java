package dev.utf8sanitiser.config;

import dev.utf8sanitiser.core.content.Normalisation;
import java.util.Locale;
import java.util.Optional;

/**
 * How enum constants of the core (policies, content rules and actions, normalisation forms) are spelt in
 * configuration files: lower case ({@code strict}, {@code replace}), read ignoring case. The
 * enums themselves live in core, once; this is only their spelling.
 */
public final class ConfigNames {
    private ConfigNames() {}

    public static String of(Enum<?> constant) {
        // Normalisation forms keep the Unicode Standard's spelling: none, NFC, NFD, NFKC, NFKD.
        if (constant instanceof Normalisation && constant != Normalisation.NONE) {
            return constant.name();
        }
        return constant.name().toLowerCase(Locale.ROOT);
    }

    public static <E extends Enum<E>> Optional<E> parse(Class<E> type, String name) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(name)) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }
}
