package dev.utf8sanitiser.app.console;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Every record of a dead-letter topic, a page at a time: the filter form, the page's records with a
 * box to tick each, and the ticked records or every record the filter chooses sent on to a replay
 * preview or an export. Paging follows a {@link Cursor}, so a page is as quick at the 40,000th
 * record as at the first.
 */
final class RecordsPage {
    static final List<Integer> SIZES = List.of(25, 50, 100, 200);

    private RecordsPage() {}

    /** What the page shows. */
    record Shown(
            String topic,
            List<String> topics,
            RecordFilter filter,
            Optional<TopicView> view,
            int size,
            Optional<Cursor> at,
            Pager.Page<RecordRow> page,
            Map<String, String> replayed,
            boolean showPayload) {}

    static String render(Shown s, Instant now) {
        return Layout.page("Records of " + s.topic(), html -> {
            filterForm(html, s);
            results(html, s, now);
        });
    }

    /** The filter form alone, with a problem (a bad field) above it. */
    static String refused(Shown s, String problem) {
        return Layout.page("Records of " + s.topic(), html -> {
            html.raw("<p class=\"problem\" role=\"alert\">").text(problem).raw("</p>");
            filterForm(html, s);
        });
    }

    private static void filterForm(Html html, Shown s) {
        String[] f = s.filter().fields();
        html.raw("<form class=\"filter\" method=\"get\" action=\"" + Layout.ROOT + "/records\" role=\"search\">");
        html.raw("<label>dead-letter topic <select name=\"topic\">");
        for (String topic : s.topics()) {
            html.option(topic, topic, topic.equals(s.topic()));
        }
        html.raw("</select></label>");
        List<String> rules = new ArrayList<>(
                new TreeSet<>(s.view().map(v -> v.byRule().keySet()).orElse(java.util.Set.of())));
        select(html, "rule", "rule", value(f, "rule"), rules);
        TreeSet<String> sources = new TreeSet<>();
        s.view().ifPresent(v -> v.bySource().keySet().forEach(tp -> {
            sources.add(tp);
            int dash = tp.lastIndexOf('-');
            if (dash > 0) {
                sources.add(tp.substring(0, dash));
            }
        }));
        select(html, "source", "source topic or partition", value(f, "source"), new ArrayList<>(sources));
        input(html, "field", "field path", value(f, "field"), "customer.name", "text");
        input(html, "partition", "dead-letter partition", value(f, "partition"), "any", "number");
        input(html, "since", "since", value(f, "since"), "2026-11-27T10:00:00Z or 2h", "text");
        input(html, "until", "until", value(f, "until"), "2026-11-27T12:00:00Z or 15m", "text");
        input(html, "key", "key matches", value(f, "key"), "regular expression", "text");
        input(html, "header", "header matches", value(f, "header"), "traceparent=00-4bf9.*", "text");
        html.raw("<label>per page <select name=\"size\">");
        for (int n : SIZES) {
            html.option(Integer.toString(n), Integer.toString(n), n == s.size());
        }
        html.raw("</select></label> <button type=\"submit\" id=\"search\">Search</button></form>");
    }

    private static void results(Html html, Shown s, Instant now) {
        Pager.Page<RecordRow> page = s.page();
        String[] f = s.filter().fields();
        html.raw("<p class=\"tally\" id=\"page-tally\" role=\"status\">")
                .text(page.rows().size() + " records on this page"
                        + s.at().map(c -> ", from " + c).orElse(", from the start") + "; " + page.scanned()
                        + " read.")
                .raw("</p>");
        if (page.budgetSpent()) {
            html.element(
                    "p",
                    "note",
                    "This page stopped after reading " + page.scanned() + " records (the most one request reads);"
                            + " the next page goes on from there.");
        }
        html.raw("<form class=\"chosen\" method=\"get\" action=\"" + Layout.ROOT + "/replay\">");
        hidden(html, "topic", s.topic());
        for (int i = 0; i < f.length; i += 2) {
            hidden(html, f[i], f[i + 1]);
        }
        if (page.rows().isEmpty()) {
            html.element("p", "empty", "No record on this page matches.");
        } else {
            html.raw("<table class=\"records\"><caption>Dead letters, by partition and offset</caption>")
                    .raw("<thead><tr><th scope=\"col\">choose</th><th scope=\"col\">record</th>")
                    .raw("<th scope=\"col\">time</th><th scope=\"col\">rule</th><th scope=\"col\">source</th>")
                    .raw("<th scope=\"col\">field</th>")
                    .raw(s.showPayload() ? "<th scope=\"col\">key</th>" : "")
                    .raw("<th scope=\"col\">traceparent</th><th scope=\"col\">replayed</th></tr></thead><tbody>");
            for (RecordRow row : page.rows()) {
                String coordinates = s.topic() + "-" + row.place();
                html.raw("<tr")
                        .attr("data-place", row.place())
                        .raw("><td><input type=\"checkbox\" name=\"pick\"")
                        .attr("value", row.place())
                        .attr("aria-label", "choose " + coordinates)
                        .raw("></td><td>")
                        .link(
                                Html.url(
                                        Layout.ROOT + "/record",
                                        "topic",
                                        s.topic(),
                                        "partition",
                                        Integer.toString(row.partition()),
                                        "offset",
                                        Long.toString(row.offset())),
                                row.place())
                        .raw("</td><td>");
                Times.write(html, row.timestamp(), now);
                html.raw("</td><td>")
                        .text(row.rule())
                        .raw("</td><td>")
                        .text(row.source())
                        .raw("</td><td>");
                html.text(row.field()).raw("</td>");
                if (s.showPayload()) {
                    html.raw("<td class=\"key\">").text(row.key().orElse("")).raw("</td>");
                }
                html.raw("<td class=\"trace\">")
                        .text(row.traceparent().orElse(""))
                        .raw("</td><td class=\"replayed\">");
                String to = s.replayed().get(coordinates);
                html.text(to == null ? "" : "to " + to).raw("</td></tr>");
            }
            html.raw("</tbody></table>");
        }
        html.raw("<p class=\"actions\">")
                .raw("<button type=\"submit\" name=\"scope\" value=\"picked\" id=\"replay-picked\">")
                .raw("Replay ticked…</button> ")
                .raw("<button type=\"submit\" name=\"scope\" value=\"filter\" id=\"replay-filter\">")
                .raw("Replay every match…</button> ")
                .raw("<label>bytes as <select name=\"encoding\"><option value=\"hex\">hex</option>")
                .raw("<option value=\"base64\">base64</option></select></label> ")
                .raw("<button type=\"submit\" name=\"scope\" value=\"picked\" id=\"export-picked\" formaction=\"")
                .raw(Layout.ROOT + "/export\">Export ticked (NDJSON)</button> ")
                .raw("<button type=\"submit\" name=\"scope\" value=\"filter\" id=\"export-filter\" formaction=\"")
                .raw(Layout.ROOT + "/export\">Export every match (NDJSON)</button></p></form>");
        List<String> link = new ArrayList<>(List.of("topic", s.topic()));
        link.addAll(List.of(f));
        link.addAll(List.of("size", Integer.toString(s.size())));
        html.raw("<nav class=\"pages\" aria-label=\"pages\">");
        if (s.at().isPresent()) {
            html.link(Html.url(Layout.ROOT + "/records", link.toArray(String[]::new)), "First page")
                    .raw(" ");
        }
        if (page.next().isPresent()) {
            link.addAll(List.of("cursor", page.next().get().toString()));
            html.raw("<a rel=\"next\" id=\"next-page\"")
                    .attr("href", Html.url(Layout.ROOT + "/records", link.toArray(String[]::new)))
                    .raw(">Next page</a>");
        } else {
            html.element("span", "note", "The end: every partition is read to its end.");
        }
        html.raw("</nav>");
    }

    private static String value(String[] fields, String name) {
        for (int i = 0; i < fields.length; i += 2) {
            if (fields[i].equals(name)) {
                return fields[i + 1];
            }
        }
        return "";
    }

    private static void select(Html html, String name, String label, String current, List<String> values) {
        html.raw("<label>").text(label).raw(" <select").attr("name", name).raw(">");
        html.option("", "any", current.isEmpty());
        if (!current.isEmpty() && !values.contains(current)) {
            html.option(current, current, true);
        }
        for (String v : values) {
            html.option(v, v, v.equals(current));
        }
        html.raw("</select></label>");
    }

    private static void input(Html html, String name, String label, String value, String placeholder, String type) {
        html.raw("<label>")
                .text(label)
                .raw(" <input")
                .attr("type", type)
                .attr("name", name)
                .attr("value", value)
                .attr("placeholder", placeholder)
                .raw(type.equals("number") ? " min=\"0\"" : "")
                .raw("></label>");
    }

    private static void hidden(Html html, String name, String value) {
        if (!value.isEmpty()) {
            html.raw("<input type=\"hidden\"")
                    .attr("name", name)
                    .attr("value", value)
                    .raw(">");
        }
    }
}
