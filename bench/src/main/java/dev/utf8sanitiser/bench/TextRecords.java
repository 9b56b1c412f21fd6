package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.core.Utf8Validator;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Record values of one fixed size cut from the real corpora: well-formed multilingual text (every
 * {@code *.utf8.txt} corpus, Wikipedia's "Mars" in 18 languages and lorem ipsum in nine scripts),
 * and, with a given probability, an ill-formed value cut from the {@code *.latin1.txt} corpora,
 * which read as UTF-8 fail the way mislabelled real data does (a stray Latin-1 byte).
 *
 * <p>A value is a window of the text that starts and ends on a character boundary, padded with
 * spaces to exactly the size, so both kinds are the same size and a run's byte count is exact. The
 * sequence depends only on the seed: two generators with the same arguments give the same values,
 * which is how the pass-through and the sanitiser see the same records.
 */
final class TextRecords {
    /** How many windows of Latin-1 text to try before forcing an error into one. */
    private static final int ILL_FORMED_ATTEMPTS = 100;

    private static byte[] wellFormedText;
    private static byte[] latin1Text;

    private final int size;
    private final double illFormedFraction;
    private final Random random;
    private final byte[] good;
    private final byte[] bad;
    private boolean lastIllFormed;

    TextRecords(int size, double illFormedFraction, long seed) {
        if (size < 1) {
            throw new IllegalArgumentException("record size must be positive: " + size);
        }
        if (illFormedFraction < 0 || illFormedFraction > 1) {
            throw new IllegalArgumentException("ill-formed fraction must be in [0, 1]: " + illFormedFraction);
        }
        this.size = size;
        this.illFormedFraction = illFormedFraction;
        this.random = new Random(seed ^ size);
        this.good = wellFormedText();
        this.bad = latin1Text();
        if (good.length <= size || bad.length <= size) {
            throw new IllegalArgumentException("record size larger than the corpora: " + size);
        }
    }

    /** The next value: {@code size} bytes, ill-formed with the configured probability. */
    byte[] next() {
        lastIllFormed = random.nextDouble() < illFormedFraction;
        return lastIllFormed ? illFormed() : wellFormed();
    }

    /** Whether the value {@link #next()} returned last is ill-formed. */
    boolean lastIllFormed() {
        return lastIllFormed;
    }

    private byte[] wellFormed() {
        int start = random.nextInt(good.length - size);
        while ((good[start] & 0xC0) == 0x80) { // not in the middle of a character
            start++;
        }
        int end = Corpus.boundaryAtOrBefore(good, start + size);
        return padded(good, start, end);
    }

    private byte[] illFormed() {
        for (int attempt = 0; attempt < ILL_FORMED_ATTEMPTS; attempt++) {
            int start = random.nextInt(bad.length - size);
            byte[] value = padded(bad, start, start + size);
            if (!Utf8Validator.isWellFormed(value)) {
                return value;
            }
        }
        // Pure ASCII in every window tried (possible for tiny sizes): break one byte instead.
        byte[] value = wellFormed();
        value[random.nextInt(size)] = (byte) 0xFF;
        return value;
    }

    private byte[] padded(byte[] text, int start, int end) {
        byte[] value = Arrays.copyOfRange(text, start, start + size);
        Arrays.fill(value, end - start, size, (byte) ' ');
        return value;
    }

    private static synchronized byte[] wellFormedText() {
        if (wellFormedText == null) {
            wellFormedText = joined(Corpus.realNames(".utf8.txt"));
        }
        return wellFormedText;
    }

    private static synchronized byte[] latin1Text() {
        if (latin1Text == null) {
            latin1Text = joined(Corpus.realNames(".latin1.txt"));
        }
        return latin1Text;
    }

    /** The corpora one after another, a newline between them (so no character spans two). */
    private static byte[] joined(List<String> names) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (String name : names) {
            all.writeBytes(Corpus.load(name));
            all.write('\n');
        }
        return all.toByteArray();
    }
}
