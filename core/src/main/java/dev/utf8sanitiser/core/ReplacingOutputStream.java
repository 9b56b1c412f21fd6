package dev.utf8sanitiser.core;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Writes through to another stream, replacing each ill-formed maximal subpart with U+FFFD, in
 * constant memory. Well-formed input comes out byte-identical. {@link #close()} (or {@link
 * #finish()}) decides a sequence cut by the end of the input.
 */
public final class ReplacingOutputStream extends FilterOutputStream {
    private final Utf8Segmenter segmenter;
    private long replacements;
    private boolean finished;

    public ReplacingOutputStream(OutputStream out) {
        super(out);
        this.segmenter = new Utf8Segmenter(new Utf8Segmenter.Segments() {
            @Override
            public void wellFormed(byte[] bytes, int from, int to) {
                writeThrough(bytes, from, to - from);
            }

            @Override
            public void illFormed(long offset, int length, Rule rule) {
                replacements++;
                writeThrough(Utf8Replacement.REPLACEMENT_CHARACTER, 0, Utf8Replacement.REPLACEMENT_CHARACTER.length);
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
            segmenter.feed(bytes, offset, length);
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
            segmenter.finish();
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

    /** U+FFFD written so far, one per ill-formed maximal subpart. */
    public long replacements() {
        return replacements;
    }

    /** Bytes of input taken so far. */
    public long bytesIn() {
        return segmenter.position();
    }
}
