package dev.utf8sanitiser.app.console;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a list goes on: the next offset to read of one partition of a dead-letter topic, spelt
 * {@code P@OFFSET}. Records are listed by partition, then offset, so a cursor stays valid however
 * many records are added after it.
 */
record Cursor(int partition, long offset) {
    private static final Pattern SPELLING = Pattern.compile("(\\d{1,9})@(\\d{1,18})");

    /**
     * @throws RecordFilter.BadFilterException {@code text} is not {@code P@OFFSET}
     */
    static Cursor parse(String text) {
        Matcher m = SPELLING.matcher(text);
        if (!m.matches()) {
            throw new RecordFilter.BadFilterException("cursor: '"
                    + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "' is not PARTITION@OFFSET");
        }
        return new Cursor(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
    }

    @Override
    public String toString() {
        return partition + "@" + offset;
    }
}
