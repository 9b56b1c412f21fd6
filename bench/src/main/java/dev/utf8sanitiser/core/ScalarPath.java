package dev.utf8sanitiser.core;

/**
 * The scalar validation path, whatever path this JVM takes by default: for {@code
 * ValidationBenchmark.utf8SanitiserScalar}, which measures it beside the vector path in the same
 * fork. In the core's package (on the class path, not a module) to reach the package-private loop
 * without making it public API.
 */
public final class ScalarPath {
    private ScalarPath() {}

    public static boolean isWellFormed(byte[] bytes, int offset, int length) {
        return Utf8Validator.scalarValidPrefixEnd(bytes, offset, offset + length) == offset + length;
    }
}
