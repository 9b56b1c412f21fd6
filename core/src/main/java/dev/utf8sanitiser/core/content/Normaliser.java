package dev.utf8sanitiser.core.content;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
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

    /** The value of the {@code NF*_QUICK_CHECK} properties that means Yes (No is 0, Maybe 2). */
    private static final int QUICK_CHECK_YES = 1;

    /**
     * By form ordinal, a bitmap of the code points that may be affected by the form: quick check
     * not Yes, or a non-zero canonical combining class. 139 KB each, built from ICU's data when
     * this class is first used (about 20 ms a form).
     */
    private static final long[][] AFFECTED = {
        null,
        affected(UProperty.NFC_QUICK_CHECK),
        affected(UProperty.NFD_QUICK_CHECK),
        affected(UProperty.NFKC_QUICK_CHECK),
        affected(UProperty.NFKD_QUICK_CHECK)
    };

    private Normaliser() {}

    private static long[] affected(int quickCheckProperty) {
        long[] bits = new long[(0x10FFFF >>> 6) + 1];
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (UCharacter.getIntPropertyValue(cp, quickCheckProperty) != QUICK_CHECK_YES
                    || UCharacter.getCombiningClass(cp) != 0) {
                bits[cp >>> 6] |= 1L << cp;
            }
        }
        return bits;
    }

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

    /**
     * Whether {@code utf8} may not be in {@code form}, without decoding it into a {@code String}.
     * False when every character has quick check Yes for the form and canonical combining class 0:
     * such text is in the form (UAX #15 §9, "Detecting Normalization Forms": the quick check
     * answers YES). ASCII is skipped 32 and 8 bytes at a time, characters below the first affected
     * lead byte one byte at a time, and the others are looked up in a bitmap of ICU's data.
     * Ill-formed input answers true.
     */
    static boolean mayChange(byte[] utf8, Normalisation form) {
        int limit = firstAffectedLeadByte(form);
        long[] affected = AFFECTED[form.ordinal()];
        int n = utf8.length;
        int i = 0;
        while (i < n) {
            while (n - i >= 32
                    && (((long) LONGS.get(utf8, i)
                                            | (long) LONGS.get(utf8, i + 8)
                                            | (long) LONGS.get(utf8, i + 16)
                                            | (long) LONGS.get(utf8, i + 24))
                                    & HIGH_BITS)
                            == 0) {
                i += 32;
            }
            while (n - i >= 8 && ((long) LONGS.get(utf8, i) & HIGH_BITS) == 0) {
                i += 8;
            }
            // The block that stopped the skip, or the tail, a character at a time; then skip again.
            for (int end = Math.min(n, i + 8); i < end; ) {
                int b = utf8[i] & 0xFF;
                if (b < limit) {
                    i++; // ASCII, a trail byte, or a lead below the limit: none affected
                    continue;
                }
                int cp;
                if (b < 0xE0 && i + 1 < n) {
                    cp = (b & 0x1F) << 6 | (utf8[i + 1] & 0x3F);
                    i += 2;
                } else if (b < 0xF0 && i + 2 < n) {
                    cp = (b & 0x0F) << 12 | (utf8[i + 1] & 0x3F) << 6 | (utf8[i + 2] & 0x3F);
                    i += 3;
                } else if (b < 0xF5 && i + 3 < n) {
                    cp = (b & 0x07) << 18
                            | (utf8[i + 1] & 0x3F) << 12
                            | (utf8[i + 2] & 0x3F) << 6
                            | (utf8[i + 3] & 0x3F);
                    i += 4;
                } else {
                    return true; // cut short, or not UTF-8
                }
                if (cp > 0x10FFFF || (affected[cp >>> 6] & 1L << cp) != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code cp} is in the bitmap {@link #mayChange} uses for {@code form}. */
    static boolean mayBeAffected(int cp, Normalisation form) {
        return (AFFECTED[form.ordinal()][cp >>> 6] & 1L << cp) != 0;
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

    /**
     * Whether text in {@code form} can be cut before {@code cp} without changing what normalising
     * either side does (ICU's {@link Normalizer2#hasBoundaryBefore}): {@code cp} neither combines
     * with nor reorders against what precedes it.
     */
    static boolean hasBoundaryBefore(int cp, Normalisation form) {
        return icu(form).hasBoundaryBefore(cp);
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
