package dev.utf8sanitiser.app.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Turns the error of a write to a pipe whose reader has gone (EPIPE) into an {@link
 * OutputClosedException}. The JVM ignores SIGPIPE, so a Java program cannot die of it as {@code cat}
 * does; the write fails instead, and the only sign of the cause is the operating system's message.
 */
final class ClosedPipeDetector extends FilterOutputStream {
    ClosedPipeDetector(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw translated(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw translated(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw translated(e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } catch (IOException e) {
            throw translated(e);
        }
    }

    static IOException translated(IOException e) {
        return e instanceof OutputClosedException || !isClosedPipe(e) ? e : new OutputClosedException(e);
    }

    /** EPIPE as Linux and macOS word it; the pipe errors of Windows. */
    static boolean isClosedPipe(IOException e) {
        String message = e.getMessage();
        return message != null
                && (message.contains("Broken pipe")
                        || message.contains("The pipe is being closed")
                        || message.contains("The pipe has been ended"));
    }
}
