package dev.utf8sanitiser.serdes.avro;

/**
 * The walker's fast scan ({@link StringScan}), which is package-private in serdes, opened to the
 * benchmarks: in the same package, on the class path only.
 */
public final class ScanProbe {
    private final StringBatch batch = new StringBatch();

    /** Scans {@code bytes[from, to)}, copying its strings into this probe's batch. */
    public boolean scan(SchemaWalker walker, byte[] bytes, int from, int to) {
        batch.start(to - from);
        return walker.scan(bytes, from, to, batch);
    }

    /** The strings of the value scanned last, each followed by a space, as the one validation sees them. */
    public byte[] joined() {
        return batch.joined();
    }
}
