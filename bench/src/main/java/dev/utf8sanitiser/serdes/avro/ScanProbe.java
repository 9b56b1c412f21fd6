package dev.utf8sanitiser.serdes.avro;

/**
 * The walker's fast scan ({@link StringScan}), which is package-private in serdes, opened to the
 * benchmarks: in the same package, on the class path only.
 */
public final class ScanProbe {
    private final StringBatch batch = new StringBatch();

    /** Scans {@code bytes[from, to)}, noting in this probe's batch the bytes to blank. */
    public boolean scan(SchemaWalker walker, byte[] bytes, int from, int to) {
        batch.start(bytes, from, to);
        return walker.scan(bytes, from, to, batch);
    }

    /**
     * The value scanned last ({@code bytes[from, to)}), as the one validation sees it: copied with
     * what is not a string and not ASCII blanked.
     */
    public byte[] view() {
        return batch.view();
    }
}
