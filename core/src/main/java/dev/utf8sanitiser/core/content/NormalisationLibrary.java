package dev.utf8sanitiser.core.content;

/**
 * Whether ICU4J, which {@link Normaliser} calls, is on the class path. It is an optional dependency
 * of the core: only normalisation and the {@link ContentRule#NOT_NORMALISED} rule need it, and it is
 * 14 MB. Asked without loading {@link Normaliser}, whose first use would fail with a bare {@code
 * NoClassDefFoundError} where this lets the configuration say what to add.
 */
public final class NormalisationLibrary {
    /** The Maven coordinates to add, for messages. */
    public static final String COORDINATES = "com.ibm.icu:icu4j";

    private NormalisationLibrary() {}

    public static boolean isPresent() {
        try {
            Class.forName("com.ibm.icu.text.Normalizer2", false, NormalisationLibrary.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
