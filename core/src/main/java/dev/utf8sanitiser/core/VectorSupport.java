package dev.utf8sanitiser.core;

import java.util.Locale;

/**
 * Whether validation takes the vector path ({@link VectorUtf8}), decided once: when the JVM was
 * started with {@code --add-modules jdk.incubator.vector} and the CPU's vectors are 128 bits or
 * wider. Otherwise the scalar path, silently: a user's class path without the flag still works.
 *
 * <p>The system property {@code utf8sanitiser.validator} forces a path: {@code scalar}, or {@code
 * vector} (which fails at start-up, naming the flag, when the module is missing); {@code auto} is
 * the default.
 */
public final class VectorSupport {
    /** The system property that forces a path. */
    public static final String PROPERTY = "utf8sanitiser.validator";

    private static final String MODULE = "jdk.incubator.vector";

    static final boolean ENABLED = decide(System.getProperty(PROPERTY, "auto"));

    private VectorSupport() {}

    /** Whether this JVM validates with vectors. */
    public static boolean enabled() {
        return ENABLED;
    }

    /** The path in words, for logs and benchmark reports: {@code vector (512-bit)} or {@code scalar}. */
    public static String describe() {
        return ENABLED ? "vector (" + VectorUtf8.bits() + "-bit)" : "scalar";
    }

    private static boolean decide(String setting) {
        String choice = setting.trim().toLowerCase(Locale.ROOT);
        switch (choice) {
            case "scalar":
                return false;
            case "auto":
                return available();
            case "vector":
                if (!available()) {
                    throw new IllegalStateException(PROPERTY + "=vector, but the JVM has no usable " + MODULE
                            + ": start it with --add-modules " + MODULE + " on a CPU with 128-bit vectors or wider");
                }
                return true;
            default:
                throw new IllegalStateException(PROPERTY + " must be auto, vector or scalar, not '" + setting + "'");
        }
    }

    private static boolean available() {
        if (ModuleLayer.boot().findModule(MODULE).isEmpty()) {
            return false;
        }
        try {
            return VectorUtf8.supported();
        } catch (LinkageError e) { // the module is there but unusable here
            return false;
        }
    }
}
