package dev.utf8sanitiser.bench;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.text.Normalizer2;
import java.text.Normalizer;

/**
 * Where the running JDK's {@link Normalizer} and ICU4J disagree: for each form, the code points
 * that normalise differently alone, and the code points that change the result when put between a
 * letter and U+0301 (where canonical reordering and composition act). The JDK implements the
 * Unicode version of its release, ICU4J the version of the build; the counts measure the cost of
 * letting the JVM decide.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.NormalisationDifferences}
 */
public final class NormalisationDifferences {
    private NormalisationDifferences() {}

    public static void main(String[] args) {
        System.out.println(
                "JDK " + System.getProperty("java.version") + ", ICU4J Unicode " + UCharacter.getUnicodeVersion());
        Normalizer.Form[] jdk = {Normalizer.Form.NFC, Normalizer.Form.NFD, Normalizer.Form.NFKC, Normalizer.Form.NFKD};
        Normalizer2[] icu = {
            Normalizer2.getNFCInstance(),
            Normalizer2.getNFDInstance(),
            Normalizer2.getNFKCInstance(),
            Normalizer2.getNFKDInstance()
        };
        for (int f = 0; f < jdk.length; f++) {
            int alone = 0;
            int inContext = 0;
            StringBuilder examples = new StringBuilder();
            for (int cp = 0; cp <= 0x10FFFF; cp++) {
                if (cp >= 0xD800 && cp <= 0xDFFF) {
                    continue;
                }
                String s = Character.toString(cp);
                if (!Normalizer.normalize(s, jdk[f]).equals(icu[f].normalize(s))) {
                    alone++;
                    if (alone <= 5) {
                        examples.append(String.format(" U+%04X", cp));
                    }
                }
                String t = "a" + s + "\u0301";
                if (!Normalizer.normalize(t, jdk[f]).equals(icu[f].normalize(t))) {
                    inContext++;
                }
            }
            System.out.printf(
                    "%s: %d code points differ alone, %d between 'a' and U+0301; e.g.%s%n",
                    jdk[f], alone, inContext, examples);
        }
    }
}
