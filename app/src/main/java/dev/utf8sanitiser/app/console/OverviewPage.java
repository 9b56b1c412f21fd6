package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.RuleDocs;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's first page: each dead-letter topic with its counts by rule, source and field, the
 * rate over the last hour or day, and the newest records, each linked to its record page.
 */
final class OverviewPage {
    /** How many rows a count table shows, most first. */
    static final int ROWS = 20;

    private OverviewPage() {}

    static String render(List<TopicView> views, Optional<String> problem, RateChart.Range range, Instant now) {
        return Layout.page("Dead-letter topics", html -> {
            problem.ifPresent(p -> html.element("p", "problem", "The counts may be out of date: " + p));
            html.raw("<p class=\"controls\">Rate over the ")
                    .raw(range == RateChart.Range.HOUR ? "<b>last hour</b>" : "<a href=\"?range=hour\">last hour</a>")
                    .raw(" · ")
                    .raw(range == RateChart.Range.DAY ? "<b>last day</b>" : "<a href=\"?range=day\">last day</a>")
                    .raw(" · <label><input type=\"checkbox\" id=\"auto-refresh\"> refresh every 10 s</label></p>");
            if (views.isEmpty()) {
                html.element(
                        "p",
                        "empty",
                        "No dead-letter topics to show: the configuration names no input topic, or no"
                                + " topic matches its pattern yet.");
            }
            for (TopicView view : views) {
                topic(html, view, range, now);
            }
        });
    }

    private static void topic(Html html, TopicView view, RateChart.Range range, Instant now) {
        html.raw("<section class=\"topic\"").attr("data-topic", view.topic()).raw(">");
        html.element("h2", null, view.topic());
        html.raw("<p class=\"summary\"><span class=\"total\">")
                .text(view.records())
                .raw("</span> dead letters");
        view.firstSeen().ifPresent(t -> html.text(" · first " + t));
        view.lastSeen().ifPresent(t -> html.text(" · last " + t));
        if (!view.exists()) {
            html.text(" · the topic does not exist yet (created with the first dead letter)");
        } else if (view.behind() > 0) {
            html.text(" · still reading: " + view.behind() + " behind");
        }
        html.raw(" · ")
                .link(Html.url(Layout.ROOT + "/records", "topic", view.topic()), "every record…")
                .raw(" · ")
                .link(Html.url(Layout.ROOT + "/replay", "topic", view.topic()), "replay…")
                .raw("</p>");
        RateChart.draw(html, view, range, now);
        html.raw("<div class=\"counts\">");
        counts(
                html,
                view,
                "rule",
                view.byRule(),
                rule -> Html.url(Layout.ROOT + "/replay", "topic", view.topic(), "rule", rule));
        counts(html, view, "source", view.bySource(), source -> null);
        if (!view.byField().isEmpty()) {
            counts(html, view, "field", view.byField(), field -> null);
        }
        html.raw("</div>");
        newest(html, view, now);
        html.raw("</section>");
    }

    private interface Link {
        String to(String key);
    }

    private static void counts(Html html, TopicView view, String what, Map<String, Long> counts, Link link) {
        html.raw("<table class=\"by-" + what + "\"><thead><tr><th>")
                .text(what)
                .raw("</th><th class=\"n\">count</th></tr></thead><tbody>");
        List<Map.Entry<String, Long>> rows = counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .toList();
        for (Map.Entry<String, Long> row : rows.subList(0, Math.min(ROWS, rows.size()))) {
            html.raw("<tr").attr("data-key", row.getKey()).raw("><td>");
            if (what.equals("rule")) {
                html.raw("<a")
                        .attr("href", RuleDocs.PUBLISHED + RuleDocs.of(row.getKey()))
                        .raw(" class=\"rule\"")
                        .attr("title", RuleDocs.description(row.getKey()).orElse(row.getKey()))
                        .raw(">")
                        .text(row.getKey())
                        .raw("</a>");
            } else {
                html.text(row.getKey());
            }
            html.raw("</td><td class=\"n count\">").text(row.getValue()).raw("</td></tr>");
        }
        if (rows.size() > ROWS) {
            html.raw("<tr><td colspan=\"2\">")
                    .text("and " + (rows.size() - ROWS) + " more")
                    .raw("</td></tr>");
        }
        html.raw("</tbody></table>");
    }

    private static void newest(Html html, TopicView view, Instant now) {
        if (view.newest().isEmpty()) {
            return;
        }
        html.raw("<h3>Newest</h3><table class=\"newest\"><thead><tr><th>time</th><th>record</th><th>rule</th>")
                .raw("<th>source</th><th>field</th></tr></thead><tbody>");
        for (TopicView.Summary s : view.newest()) {
            html.raw("<tr><td>");
            Times.write(html, s.timestamp(), now);
            html.raw("</td><td>")
                    .link(
                            Html.url(
                                    Layout.ROOT + "/record",
                                    "topic",
                                    s.topic(),
                                    "partition",
                                    Integer.toString(s.partition()),
                                    "offset",
                                    Long.toString(s.offset())),
                            s.partition() + "@" + s.offset())
                    .raw("</td><td>")
                    .text(s.rule())
                    .raw("</td><td>")
                    .text(s.source())
                    .raw("</td><td>")
                    .text(s.field())
                    .raw("</td></tr>");
        }
        html.raw("</tbody></table>");
    }
}
