package dev.utf8sanitiser.app.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code --since}: a duration back from now ({@code 90s}, {@code 15m}, {@code 2h}, {@code 7d}, {@code PT2H}) or an instant. */
final class Since {
    private static final Pattern SHORT = Pattern.compile("(\\d+)([smhd])");

    private Since() {}

    /** @throws IllegalArgumentException with a message that says what is accepted */
    static Instant parse(String text, Instant now) {
        String t = text.trim();
        Matcher m = SHORT.matcher(t.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d =
                    switch (m.group(2)) {
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofDays(n);
                    };
            return now.minus(d);
        }
        try {
            if (t.startsWith("P") || t.startsWith("p")) {
                return now.minus(Duration.parse(t));
            }
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--since " + text + " is neither a duration (90s, 15m, 2h, 7d, PT2H)"
                    + " nor an instant (2026-11-24T10:00:00Z)");
        }
    }
}
