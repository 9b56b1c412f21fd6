package dev.utf8sanitiser.serdes.avro;

/**
 * Internal, for the benchmarks only; not part of the library's API, and it may change or go in any
 * release. Runs the walker's fast scan ({@link StringScan}) on its own, as {@link AvroFormat} runs it
 * before the one validation of a value's strings, so that {@code AvroBenchmark} can measure it
 * apart. One per thread.
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
