package dev.utf8sanitiser.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The benchmark inputs: the real-text corpora of the repository's testdata/ (the ones the published UTF-8
 * validation benchmarks use) and three generated ones for what they lack. Names are {@code
 * dir/file} for real files and {@code gen/NAME} for generated ones.
 */
final class Corpus {
    /** Generated corpora are this long; real ones are used whole. */
    static final int GENERATED_SIZE = 1 << 20;

    private Corpus() {}

    static byte[] load(String name) {
        if (name.startsWith("gen/")) {
            return generate(name.substring(4));
        }
        try {
            return Files.readAllBytes(directory().resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "corpus " + name + " (run from the repository root, or set -Dtestdata.dir=REPO/testdata)", e);
        }
    }

    /**
     * The names ({@code dir/file}) of every real corpus whose file name ends with {@code suffix}
     * ({@code ".utf8.txt"}, {@code ".latin1.txt"}), sorted, so a seeded choice among them repeats.
     */
    static List<String> realNames(String suffix) {
        Path root = directory();
        try (Stream<Path> files = Files.walk(root, 2)) {
            List<String> names = files.filter(Files::isRegularFile)
                    .filter(file -> file.getFileName().toString().endsWith(suffix))
                    .map(file -> root.relativize(file).toString().replace('\\', '/'))
                    .sorted()
                    .collect(Collectors.toList());
            if (names.isEmpty()) {
                throw new IllegalStateException("no corpus *" + suffix + " under " + root);
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "corpora under " + root + " (run from the repository root, or set -Dtestdata.dir=REPO/testdata)",
                    e);
        }
    }

    private static Path directory() {
        return Path.of(System.getProperty("testdata.dir", "testdata"), "corpora");
    }

    private static byte[] generate(String kind) {
        Random random = new Random(20261123);
        switch (kind) {
            case "ascii":
                return text(random, 0.0);
            case "mixed":
                return text(random, 0.05);
            case "mixed-bad":
                return damage(text(random, 0.05), random, 0.01);
            default:
                throw new IllegalArgumentException("no generated corpus " + kind);
        }
    }

    /** Words of ASCII letters, each character non-ASCII with the given probability. */
    private static byte[] text(Random random, double nonAscii) {
        int[][] ranges = {{0x00C0, 0x017F}, {0x0391, 0x03C9}, {0x0410, 0x044F}, {0x4E00, 0x9FFF}, {0x1F600, 0x1F64F}};
        StringBuilder s = new StringBuilder(GENERATED_SIZE);
        while (s.length() < GENERATED_SIZE) {
            if (random.nextInt(7) == 0) {
                s.append(' ');
            } else if (random.nextDouble() < nonAscii) {
                int[] r = ranges[random.nextInt(ranges.length)];
                s.appendCodePoint(r[0] + random.nextInt(r[1] - r[0] + 1));
            } else {
                s.append((char) ('a' + random.nextInt(26)));
            }
        }
        byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(utf8, boundaryAtOrBefore(utf8, GENERATED_SIZE));
    }

    /** Overwrites a fraction of bytes with bytes that break UTF-8 (stray continuation, FF, C0). */
    private static byte[] damage(byte[] bytes, Random random, double fraction) {
        byte[] bad = {(byte) 0x80, (byte) 0xFF, (byte) 0xC0, (byte) 0xE9, (byte) 0xED};
        int count = (int) (bytes.length * fraction);
        for (int i = 0; i < count; i++) {
            bytes[random.nextInt(bytes.length)] = bad[random.nextInt(bad.length)];
        }
        return bytes;
    }

    /**
     * The corpus cut into records of about {@code size} bytes, on character boundaries so that
     * well-formed text stays well-formed: {offset, length} pairs. {@code size=0} is one record.
     */
    static int[][] records(byte[] bytes, int size) {
        List<int[]> records = new ArrayList<>();
        if (size == 0) {
            records.add(new int[] {0, bytes.length});
        } else {
            for (int at = 0; at < bytes.length; ) {
                int end = boundaryAtOrBefore(bytes, at + size);
                if (end <= at) {
                    end = Math.min(bytes.length, at + size);
                }
                records.add(new int[] {at, end - at});
                at = end;
            }
        }
        return records.toArray(int[][]::new);
    }

    /** Whether the corpus is ill-formed on purpose (validation then stops at each first error). */
    static boolean illFormed(String name) {
        return name.contains("latin1") || name.endsWith("-bad");
    }

    /** The largest index at or before {@code end} that is not a UTF-8 continuation byte. */
    static int boundaryAtOrBefore(byte[] bytes, int end) {
        int i = Math.min(end, bytes.length);
        for (int back = 0; back < 3 && i < bytes.length && i > 0 && (bytes[i] & 0xC0) == 0x80; back++) {
            i--;
        }
        return i;
    }
}
