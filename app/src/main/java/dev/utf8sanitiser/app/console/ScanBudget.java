package dev.utf8sanitiser.app.console;

import java.time.Duration;

/**
 * How much one request may read: a number of records and a time. A page, an export or a count
 * stops where its budget ends and says where to go on from, so that no request reads a large topic
 * whole or holds a thread for long.
 */
final class ScanBudget {
    private final long maxRecords;
    private final long deadline;
    private long scanned;
    private int reads;

    /** Thrown when the time is up in the middle of a record (a regular expression that backtracks). */
    static final class Exhausted extends RuntimeException {
        Exhausted() {
            super("the request's time is up", null, false, false);
        }
    }

    ScanBudget(long maxRecords, Duration time) {
        this.maxRecords = maxRecords;
        this.deadline = System.nanoTime() + time.toNanos();
    }

    /** Counts one record read; false when no more may be read. */
    boolean take() {
        if (scanned >= maxRecords || timeUp()) {
            return false;
        }
        scanned++;
        return true;
    }

    long scanned() {
        return scanned;
    }

    boolean timeUp() {
        return System.nanoTime() - deadline >= 0;
    }

    /** One character read by a regular expression: every 4096th looks at the clock. */
    private void read() {
        if ((++reads & 0xFFF) == 0 && timeUp()) {
            throw new Exhausted();
        }
    }

    /** {@code text} as a regular expression reads it, throwing {@link Exhausted} once the time is up. */
    CharSequence watch(CharSequence text) {
        return new Watched(text, this);
    }

    private record Watched(CharSequence text, ScanBudget budget) implements CharSequence {
        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            budget.read();
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Watched(text.subSequence(start, end), budget);
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }
}
