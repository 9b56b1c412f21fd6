package dev.utf8sanitiser.app.console;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The dead letters over the last hour (a bar a minute) or the last day (a bar every 15 minutes), as
 * an inline SVG drawn on the server: no chart library and no script. Each bar has a title with its
 * time and count, which a browser shows on hover.
 */
final class RateChart {
    /** The two ranges a page offers. */
    enum Range {
        HOUR(Duration.ofMinutes(1), 60, "last hour, per minute"),
        DAY(Duration.ofMinutes(15), 96, "last day, per 15 minutes");

        final Duration width;
        final int buckets;
        final String caption;

        Range(Duration width, int buckets, String caption) {
            this.width = width;
            this.buckets = buckets;
            this.caption = caption;
        }

        static Range of(String name) {
            return "day".equalsIgnoreCase(name) ? DAY : HOUR;
        }
    }

    private static final int WIDTH = 720;
    private static final int HEIGHT = 120;
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private RateChart() {}

    static void draw(Html html, TopicView view, Range range, Instant now) {
        long[] counts = view.rate(now, range.width, range.buckets);
        long highest = 0;
        long total = 0;
        for (long c : counts) {
            highest = Math.max(highest, c);
            total += c;
        }
        long max = Math.max(1, highest);
        double bar = (double) WIDTH / counts.length;
        String caption = total + " dead letters, " + range.caption + " (highest bar " + highest + ")";
        // The image's name for a screen reader: what the caption says.
        html.raw("<figure class=\"chart\"><svg role=\"img\"")
                .attr("aria-label", "Rate chart: " + caption)
                .raw(" viewBox=\"0 0 " + WIDTH + " " + (HEIGHT + 14)
                        + "\" width=\"100%\" preserveAspectRatio=\"none\">");
        html.raw("<line x1=\"0\" y1=\"" + HEIGHT + "\" x2=\"" + WIDTH + "\" y2=\"" + HEIGHT + "\" class=\"axis\"/>");
        Instant first = now.minus(range.width.multipliedBy(counts.length - 1));
        for (int i = 0; i < counts.length; i++) {
            double h = counts[i] == 0 ? 0 : Math.max(2, (double) counts[i] * (HEIGHT - 4) / max);
            Instant start = first.plus(range.width.multipliedBy(i));
            html.raw(String.format(
                            Locale.ROOT,
                            "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>",
                            i * bar + 0.5,
                            HEIGHT - h,
                            Math.max(1, bar - 1),
                            h))
                    .text(TIME.format(start) + ": " + counts[i])
                    .raw("</title></rect>");
        }
        html.raw("<text x=\"0\" y=\"" + (HEIGHT + 12) + "\" class=\"tick\">")
                .text(TIME.format(first))
                .raw("</text><text x=\"" + WIDTH + "\" y=\"" + (HEIGHT + 12) + "\" class=\"tick\" text-anchor=\"end\">")
                .text(TIME.format(now))
                .raw("</text></svg><figcaption>")
                .text(caption)
                .raw("</figcaption></figure>");
    }
}
