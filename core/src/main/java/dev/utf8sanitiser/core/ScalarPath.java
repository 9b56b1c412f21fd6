package dev.utf8sanitiser.core;

/**
 * Internal, for the benchmarks only; not part of the library's API, and it may change or go in any
 * release. The scalar validation path, whatever path this JVM takes by default ({@link
 * VectorSupport}): {@code ValidationBenchmark.utf8SanitiserScalar} measures it beside the vector
 * path in the same fork. Applications use {@link Utf8Validator}, and
 * {@code -Dutf8sanitiser.validator=scalar} to force the scalar path.
 */
public final class ScalarPath {
    private ScalarPath() {}

    /** What {@link Utf8Validator#isWellFormed(byte[], int, int)} answers, on the scalar path. */
    public static boolean isWellFormed(byte[] bytes, int offset, int length) {
        return Utf8Validator.scalarValidPrefixEnd(bytes, offset, offset + length) == offset + length;
    }
}
