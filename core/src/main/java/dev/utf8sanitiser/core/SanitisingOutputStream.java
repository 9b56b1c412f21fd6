package dev.utf8sanitiser.core;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Writes through to another stream, applying {@link Policy#REPLACE} or {@link Policy#REPAIR}, in
 * constant memory. Well-formed input comes out byte-identical. {@link #close()} (or {@link
 * #finish()}) decides what a cut at the end of the input left open.
 */
public final class SanitisingOutputStream extends FilterOutputStream {
    private final SanitisingStream stream;
    private long replacements;
    private long repairs;
    private boolean finished;

    public SanitisingOutputStream(OutputStream out, Policy policy) {
        super(out);
        if (policy == Policy.STRICT) {
            throw new IllegalArgumentException("STRICT changes no bytes; validate with Utf8StreamValidator");
        }
        this.stream = new SanitisingStream(policy, new SanitisingStream.Sink() {
            private final byte[] encoded = new byte[4];

            @Override
            public void wellFormed(byte[] bytes, int from, int to) {
                writeThrough(bytes, from, to - from);
            }

            @Override
            public void illFormed(long offset, int length, Rule rule) {
                replacements++;
                writeThrough(Utf8Replacement.REPLACEMENT_CHARACTER, 0, Utf8Replacement.REPLACEMENT_CHARACTER.length);
            }

            @Override
            public void repaired(long offset, int length, Repair.Kind kind, int codePoint) {
                repairs++;
                writeThrough(encoded, 0, Utf8Sanitiser.encode(codePoint, encoded, 0));
            }
        });
    }

    private void writeThrough(byte[] bytes, int offset, int length) {
        try {
            out.write(bytes, offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // unwrapped again in write() and finish()
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (finished) {
            throw new IOException("stream finished");
        }
        try {
            stream.feed(bytes, offset, length);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Ends the input without closing the underlying stream; idempotent. */
    public void finish() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        try {
            stream.finish();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        out.flush();
    }

    @Override
    public void close() throws IOException {
        try {
            finish();
        } finally {
            out.close();
        }
    }

    /** U+FFFD written so far, one per ill-formed maximal subpart left after repairs. */
    public long replacements() {
        return replacements;
    }

    /** Repairs made so far (REPAIR only). */
    public long repairs() {
        return repairs;
    }

    /** Bytes of input taken so far. */
    public long bytesIn() {
        return stream.position();
    }
}
