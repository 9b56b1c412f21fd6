package dev.utf8sanitiser.app.console;

import java.time.Duration;
import java.time.Instant;

/** A record's time as the pages show it: ISO-8601 in UTC, and how long ago ("3 min ago"). */
final class Times {
    private Times() {}

    /** {@code <time datetime="ISO">ISO (3 min ago)</time>}; "no timestamp" for a negative one. */
    static void write(Html html, long millis, Instant now) {
        if (millis < 0) {
            html.text("no timestamp");
            return;
        }
        Instant at = Instant.ofEpochMilli(millis);
        html.raw("<time")
                .attr("datetime", at)
                .raw(">")
                .text(at)
                .raw("</time> <span class=\"ago\">(")
                .text(ago(at, now))
                .raw(")</span>");
    }

    /** "just now", "42 s ago", "3 min ago", "5 h ago", "12 d ago", or "in 2 min" for a time ahead. */
    static String ago(Instant at, Instant now) {
        Duration d = Duration.between(at, now);
        boolean ahead = d.isNegative();
        long s = Math.abs(d.toSeconds());
        String span;
        if (s < 5) {
            return "just now";
        } else if (s < 60) {
            span = s + " s";
        } else if (s < 3600) {
            span = s / 60 + " min";
        } else if (s < 86_400) {
            span = s / 3600 + " h";
        } else {
            span = s / 86_400 + " d";
        }
        return ahead ? "in " + span : span + " ago";
    }
}
