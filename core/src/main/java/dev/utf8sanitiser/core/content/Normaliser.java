package dev.utf8sanitiser.core.content;

import com.ibm.icu.text.Normalizer2;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The one place that calls a normalisation library: ICU4J's {@link Normalizer2}, ICU 78.1, which
 * implements Unicode 17.0.
 *
 * <p>Chosen over the JDK's {@code java.text.Normalizer} by measurement (docs/benchmarks.md,
 * "Normalisation: JDK vs ICU4J"): on the corpora the two are equally fast, quick check and full
 * normalisation alike, but the JDK's answer depends on the JVM that runs it (JDK 17 implements
 * Unicode 13.0, JDK 25 Unicode 16.0). JDK 17 normalises 20 code points differently from Unicode
 * 17.0 under NFD, 158 under NFKC and 178 under NFKD; under NFC, 34 code points change the result
 * when put between a letter and U+0301 (combining marks and compositions added since 13.0). With the version pinned in the build, every host (processor, Connect worker, command
 * line) gives the same answer about {@link ContentRule#NOT_NORMALISED}.
 */
final class Normaliser {
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Normaliser() {}

    /**
     * The smallest lead byte of a character that may be affected by {@code form} (UAX #15 §9,
     * "Detecting Normalization Forms": below it every character has quick check Yes and canonical
     * combining class 0, and none composes with a neighbour): {@code CC} (U+0300, the first
     * combining mark) for NFC; {@code C3} (U+00C0, the first canonical decomposition) for NFD;
     * {@code C2} (U+00A0, the first compatibility decomposition) for NFKC and NFKD. Text whose bytes
     * are all below it is in the form; {@code NormaliserTest} checks every pair of such characters.
     */
    static int firstAffectedLeadByte(Normalisation form) {
        switch (form) {
            case NFC:
                return 0xCC;
            case NFD:
                return 0xC3;
            case NFKC:
            case NFKD:
                return 0xC2;
            default:
                throw new IllegalArgumentException("no form: " + form);
        }
    }

    /** Whether {@code utf8} may not be in {@code form}: false when every byte is below its first affected lead. */
    static boolean mayChange(byte[] utf8, Normalisation form) {
        int limit = firstAffectedLeadByte(form);
        int n = utf8.length;
        int i = 0;
        for (; n - i >= 8; i += 8) {
            if (((long) LONGS.get(utf8, i) & HIGH_BITS) != 0) {
                for (int k = i; k < i + 8; k++) {
                    if ((utf8[k] & 0xFF) >= limit) {
                        return true;
                    }
                }
            }
        }
        for (; i < n; i++) {
            if ((utf8[i] & 0xFF) >= limit) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code text} is in {@code form}: ICU's quick check (UAX #15 §9), and where that says
     * "maybe" a full check of the rest. Faster on normalised text than normalising and comparing.
     */
    static boolean isNormalised(String text, Normalisation form) {
        return icu(form).isNormalized(text);
    }

    /** {@code text} in {@code form}. */
    static String normalise(String text, Normalisation form) {
        return icu(form).normalize(text);
    }

    /** ICU's instances are immutable, cached by ICU and thread-safe. */
    private static Normalizer2 icu(Normalisation form) {
        switch (form) {
            case NFC:
                return Normalizer2.getNFCInstance();
            case NFD:
                return Normalizer2.getNFDInstance();
            case NFKC:
                return Normalizer2.getNFKCInstance();
            case NFKD:
                return Normalizer2.getNFKDInstance();
            default:
                throw new IllegalArgumentException("no form: " + form);
        }
    }
}
