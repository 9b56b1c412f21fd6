package dev.utf8sanitiser.core.corrected;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Transcodes what is written to it between standard UTF-8 and Corrected UTF-8 and writes the result
 * through to another stream, in constant memory: a command line pipes any size of input through it.
 *
 * <p>Writes may cut the input anywhere, even inside a sequence or a magic number: the output, and
 * the offset and rule of a problem, equal those of {@link CorrectedUtf8#fromUtf8} or {@link
 * CorrectedUtf8#toUtf8} for the whole input in one array. At the first input that cannot be
 * transcoded, {@code write} (or {@link #finish()}, for a sequence cut by the end of the input)
 * writes out everything transcoded before that offset and throws {@link CorrectedUtf8Exception};
 * the stream is then stopped: a further {@code write} throws an {@code IOException}, {@link
 * #finish()} does nothing and {@link #close()} only closes the underlying stream.
 *
 * <p>Output is buffered; {@link #flush()} writes it out. Not thread-safe.
 */
public final class TranscodingOutputStream extends FilterOutputStream {
    private final Transcoder transcoder;
    private final byte[] single = new byte[1];
    private long bytesIn;
    private boolean finished;
    private CorrectedUtf8Exception stoppedBy;

    private TranscodingOutputStream(OutputStream out, Transcoder transcoder) {
        super(out);
        this.transcoder = transcoder;
    }

    /**
     * Standard UTF-8 in, Corrected UTF-8 out. Stops at ill-formed UTF-8, with the rule {@link
     * dev.utf8sanitiser.core.Utf8Validator} gives it, and at a C1 control ({@link
     * CorrectedRule#C1_CONTROL}). With {@link MagicNumber#LEADING} the output starts with the magic
     * number, even for empty input.
     */
    public static TranscodingOutputStream encoding(OutputStream out, MagicNumber magicNumber) {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(magicNumber, "magicNumber");
        return new TranscodingOutputStream(out, new Utf8ToCorrected(out, magicNumber));
    }

    /**
     * Corrected UTF-8 in, standard UTF-8 out. Stops at ill-formed Corrected UTF-8, at a reserved
     * sequence and at a code point above U+10FFFF. With {@link MagicNumber#LEADING} a magic number
     * at the start of the input is dropped.
     */
    public static TranscodingOutputStream decoding(OutputStream out, MagicNumber magicNumber) {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(magicNumber, "magicNumber");
        return new TranscodingOutputStream(out, new CorrectedToUtf8(out, magicNumber));
    }

    @Override
    public void write(int b) throws IOException {
        single[0] = (byte) b;
        write(single, 0, 1);
    }

    /** @throws CorrectedUtf8Exception at the first input that cannot be transcoded */
    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (stoppedBy != null) {
            throw new IOException("transcoding stopped at " + stoppedBy.getMessage(), stoppedBy);
        }
        if (finished) {
            throw new IOException("stream finished");
        }
        bytesIn += length;
        try {
            transcoder.feed(bytes, offset, length);
        } catch (CorrectedUtf8Exception e) {
            stoppedBy = e;
            throw e;
        }
    }

    /**
     * Ends the input without closing the underlying stream, and flushes it; does nothing the second
     * time or once stopped.
     *
     * @throws CorrectedUtf8Exception when the input ends inside a sequence ({@link
     *     CorrectedRule#TRUNCATED_AT_END})
     */
    public void finish() throws IOException {
        if (finished || stoppedBy != null) {
            return;
        }
        finished = true;
        try {
            transcoder.finish();
        } catch (CorrectedUtf8Exception e) {
            stoppedBy = e;
            throw e;
        }
        out.flush();
    }

    /** Writes out what is buffered (not a sequence held back for want of its last bytes). */
    @Override
    public void flush() throws IOException {
        transcoder.drain();
        out.flush();
    }

    /** Finishes, then closes the underlying stream even when finishing throws. */
    @Override
    public void close() throws IOException {
        try {
            finish();
        } finally {
            out.close();
        }
    }

    /** Bytes of input written so far. */
    public long bytesIn() {
        return bytesIn;
    }
}
