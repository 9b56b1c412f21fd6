package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.Selection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.header.Header;

/**
 * Which records of a dead-letter topic a list, an export or a replay shows: the criteria of {@code
 * dlq replay} ({@link Selection}: rule, source, field), the dead-letter partition, a time range of
 * the dead-letter record's timestamp, and regular expressions found in the key (as UTF-8, an
 * ill-formed byte read as U+FFFD) or in a header ({@code name=value}). A request's fields are
 * checked by {@link #of}: a value that cannot be meant is refused, never ignored.
 *
 * @param since records from this time on; the read starts at the first offset of each partition
 *     whose timestamp reaches it (the broker's time index, as {@code dlq replay --since})
 * @param until records before this time
 */
record RecordFilter(
        Selection selection,
        OptionalInt partition,
        Optional<Instant> since,
        Optional<Instant> until,
        Optional<Pattern> key,
        Optional<Pattern> header) {

    /** The longest text a criterion may have. */
    static final int MAX_TEXT = 200;

    static final RecordFilter ALL = new RecordFilter(
            Selection.ALL, OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    private static final Pattern AGO = Pattern.compile("(\\d{1,6})\\s*(s|m|min|h|d)");

    /** A field of a request that cannot be meant: the message says which and why. */
    static final class BadFilterException extends IllegalArgumentException {
        BadFilterException(String message) {
            super(message);
        }
    }

    /**
     * The filter a request's fields ask for; blank fields ask for nothing.
     *
     * @throws BadFilterException a field is too long, not a number, time or regular expression
     */
    static RecordFilter of(Map<String, String> fields, Instant now) {
        Optional<String> rule = text(fields, "rule");
        Optional<Selection.Source> source;
        try {
            source = text(fields, "source").map(Selection.Source::parse);
        } catch (IllegalArgumentException e) {
            throw new BadFilterException("source: " + e.getMessage());
        }
        Selection selection = new Selection(rule, source, text(fields, "field"));
        OptionalInt partition = OptionalInt.empty();
        Optional<String> p = text(fields, "partition");
        if (p.isPresent()) {
            try {
                int n = Integer.parseInt(p.get());
                if (n < 0) {
                    throw new NumberFormatException();
                }
                partition = OptionalInt.of(n);
            } catch (NumberFormatException e) {
                throw new BadFilterException("partition: '" + p.get() + "' is not a partition number");
            }
        }
        Optional<Instant> since = time(fields, "since", now);
        Optional<Instant> until = time(fields, "until", now);
        if (since.isPresent() && until.isPresent() && !since.get().isBefore(until.get())) {
            throw new BadFilterException("since (" + since.get() + ") must be before until (" + until.get() + ")");
        }
        return new RecordFilter(selection, partition, since, until, pattern(fields, "key"), pattern(fields, "header"));
    }

    /** The request fields that give this filter back through {@link #of} (times as ISO-8601). */
    String[] fields() {
        return new String[] {
            "rule", selection.rule().orElse(""),
            "source", selection.source().map(RecordFilter::spell).orElse(""),
            "field", selection.field().orElse(""),
            "partition", partition.isPresent() ? Integer.toString(partition.getAsInt()) : "",
            "since", since.map(Instant::toString).orElse(""),
            "until", until.map(Instant::toString).orElse(""),
            "key", key.map(Pattern::pattern).orElse(""),
            "header", header.map(Pattern::pattern).orElse("")
        };
    }

    static String spell(Selection.Source s) {
        return s.topic()
                + (s.partition().isPresent() ? "-" + s.partition().getAsInt() : "")
                + (s.offset().isPresent() ? "@" + s.offset().getAsLong() : "");
    }

    /**
     * Whether {@code record} is chosen. The regular expressions see the text through {@code
     * budget}, so that an expression that backtracks without end stops at the request's deadline.
     *
     * @throws ScanBudget.Exhausted the request's time is up while matching
     */
    boolean matches(DeadLetter record, ScanBudget budget) {
        if (partition.isPresent() && partition.getAsInt() != record.partition()) {
            return false;
        }
        if (since.isPresent() && record.timestamp() < since.get().toEpochMilli()) {
            return false;
        }
        if (until.isPresent() && record.timestamp() >= until.get().toEpochMilli()) {
            return false;
        }
        if (!selection.matches(record)) {
            return false;
        }
        if (key.isPresent()
                && (record.key() == null
                        || !find(key.get(), new String(record.key(), StandardCharsets.UTF_8), budget))) {
            return false;
        }
        if (header.isPresent()) {
            for (Header h : record.headers()) {
                String value = h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
                if (find(header.get(), h.key() + "=" + value, budget)) {
                    return true;
                }
            }
            return false;
        }
        return true;
    }

    private static boolean find(Pattern pattern, String text, ScanBudget budget) {
        Matcher m = pattern.matcher(budget.watch(text));
        return m.find();
    }

    private static Optional<String> text(Map<String, String> fields, String name) {
        String value = fields.getOrDefault(name, "").strip();
        if (value.length() > MAX_TEXT) {
            throw new BadFilterException(name + ": at most " + MAX_TEXT + " characters");
        }
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static Optional<Pattern> pattern(Map<String, String> fields, String name) {
        Optional<String> text = text(fields, name);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Pattern.compile(text.get()));
        } catch (PatternSyntaxException e) {
            throw new BadFilterException(
                    name + ": not a regular expression (" + e.getDescription() + " at index " + e.getIndex() + ")");
        }
    }

    /**
     * An ISO-8601 instant ({@code 2026-11-27T10:00:00Z}), a local date-time taken as UTC ({@code
     * 2026-11-27T10:00}, as a browser's date-time field sends it), or a time ago ({@code 15m},
     * {@code 2h}, {@code 7d}).
     */
    static Optional<Instant> time(Map<String, String> fields, String name, Instant now) {
        Optional<String> text = text(fields, name);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String t = text.get();
        Matcher ago = AGO.matcher(t);
        if (ago.matches()) {
            long n = Long.parseLong(ago.group(1));
            Duration unit =
                    switch (ago.group(2)) {
                        case "s" -> Duration.ofSeconds(1);
                        case "m", "min" -> Duration.ofMinutes(1);
                        case "h" -> Duration.ofHours(1);
                        default -> Duration.ofDays(1);
                    };
            return Optional.of(now.minus(unit.multipliedBy(n)));
        }
        try {
            return Optional.of(Instant.parse(t));
        } catch (DateTimeParseException notAnInstant) {
            try {
                return Optional.of(LocalDateTime.parse(t).toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException e) {
                throw new BadFilterException(name + ": '" + t + "' is not an ISO-8601 time (2026-11-27T10:00:00Z)"
                        + " nor a time ago (15m, 2h, 7d)");
            }
        }
    }
}
