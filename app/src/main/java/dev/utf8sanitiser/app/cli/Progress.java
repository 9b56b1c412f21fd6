package dev.utf8sanitiser.app.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on a terminal's stderr, redrawn at most five times a second. Drawn only
 * for inputs large enough to make a user wonder (see {@link #THRESHOLD}) and of known size.
 */
final class Progress {
    static final long THRESHOLD = 256L << 20;
    private static final long REDRAW_NANOS = 200_000_000L;
    private static final int WIDTH = 30;

    private final PrintStream err;
    private final String name;
    private final long total;
    private long lastDraw;
    private boolean drawn;

    private Progress(PrintStream err, String name, long total) {
        this.err = err;
        this.name = name;
        this.total = total;
    }

    /** A bar, or null when none should be drawn. */
    static Progress forInput(Io io, Input input) {
        if (!io.stderrIsTerminal()) {
            return null;
        }
        long size = input.size().orElse(0);
        return size >= THRESHOLD ? new Progress(io.err(), input.name(), size) : null;
    }

    void update(long done) {
        long now = System.nanoTime();
        if (drawn && now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        drawn = true;
        int filled = (int) (WIDTH * Math.min(done, total) / total);
        err.print(String.format(
                Locale.ROOT,
                "\r%s [%s%s] %3d%% %,d MiB",
                name,
                "#".repeat(filled),
                ".".repeat(WIDTH - filled),
                100 * Math.min(done, total) / total,
                done >> 20));
        err.flush();
    }

    void clear() {
        if (drawn) {
            err.print("\r\033[K");
            err.flush();
        }
    }
}
