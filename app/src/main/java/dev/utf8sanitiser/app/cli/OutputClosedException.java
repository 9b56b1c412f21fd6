package dev.utf8sanitiser.app.cli;

import java.io.IOException;

/**
 * Standard output has no reader any more: the other end of a pipe was closed, as {@code head} does
 * once it has its lines. Not a failure: the command stops quietly, as Unix tools do.
 */
final class OutputClosedException extends IOException {
    private static final long serialVersionUID = 1L;

    OutputClosedException(IOException cause) {
        super(cause.getMessage(), cause);
    }

    /** Whether {@code e}, or an exception it was caused by, is an {@code OutputClosedException}. */
    static boolean isCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OutputClosedException) {
                return true;
            }
        }
        return false;
    }
}
