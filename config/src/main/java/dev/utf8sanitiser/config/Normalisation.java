package dev.utf8sanitiser.config;

import java.text.Normalizer;
import java.util.Optional;

/**
 * The Unicode normalisation form the sanitiser brings well-formed text into ({@code
 * sanitiser.normalisation}); Unicode Standard Annex #15.
 */
public enum Normalisation {
    /** Leave text as it is. The default. */
    NONE(null),
    /** Canonical decomposition, then canonical composition. */
    NFC(Normalizer.Form.NFC),
    /** Canonical decomposition. */
    NFD(Normalizer.Form.NFD),
    /** Compatibility decomposition, then canonical composition. */
    NFKC(Normalizer.Form.NFKC),
    /** Compatibility decomposition. */
    NFKD(Normalizer.Form.NFKD);

    private final Normalizer.Form form;

    Normalisation(Normalizer.Form form) {
        this.form = form;
    }

    /** The name in configuration files: {@code none}, {@code NFC}, {@code NFD}, {@code NFKC}, {@code NFKD}. */
    public String configName() {
        return this == NONE ? "none" : name();
    }

    /** The JDK's form, or empty for {@link #NONE}. */
    public Optional<Normalizer.Form> form() {
        return Optional.ofNullable(form);
    }

    /** The normalisation with this configuration name, ignoring case. */
    public static Optional<Normalisation> fromConfigName(String name) {
        for (Normalisation normalisation : values()) {
            if (normalisation.configName().equalsIgnoreCase(name)) {
                return Optional.of(normalisation);
            }
        }
        return Optional.empty();
    }
}
