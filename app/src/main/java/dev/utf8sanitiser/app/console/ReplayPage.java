package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.Replay;
import dev.utf8sanitiser.app.dlq.ReplayRun;
import java.util.List;

/**
 * Replay from the page, in three steps: the form (which records, to where, under which policy), the
 * preview (a dry run: what would be sent and what not, and why), and after confirming with the
 * token, the result.
 */
final class ReplayPage {
    /** How many records a preview or a result lists one by one. */
    static final int LISTED = 200;

    private ReplayPage() {}

    static String form(ReplayRequest request, List<String> topics, List<String> targets, String problem) {
        return Layout.page("Replay dead letters", html -> {
            if (problem != null) {
                html.raw("<p class=\"problem\" role=\"alert\">").text(problem).raw("</p>");
            }
            String[] f = request.filter().fields();
            html.raw("<form class=\"replay\" method=\"get\" action=\"" + Layout.ROOT + "/replay\">");
            html.raw("<label>from <select name=\"topic\">");
            for (String topic : topics) {
                html.option(topic, topic, topic.equals(request.topic()));
            }
            html.raw("</select></label>");
            field(html, "rule", "rule", value(f, "rule"), "SURROGATE");
            field(html, "source", "source", value(f, "source"), "TOPIC[-P[@OFFSET]]");
            field(html, "field", "field", value(f, "field"), "customer.name");
            // The rest of a list's filter, and the ticked records, go on as they were chosen.
            List<String> kept = request.chosenFields();
            for (int i = 0; i < kept.size(); i += 2) {
                String name = kept.get(i);
                if (!List.of("topic", "rule", "source", "field").contains(name)) {
                    hidden(html, name, kept.get(i + 1));
                }
            }
            if (!request.picks().isEmpty() || !request.describe().equals("every record")) {
                html.raw("<p class=\"note\">")
                        .text("Chosen: " + request.describe() + ".")
                        .raw("</p>");
            }
            html.raw("<label>policy <select name=\"policy\">");
            for (String policy : List.of(ReplayRequest.AS_IS, "strict", "replace", "repair")) {
                html.option(
                        policy,
                        policy.equals(ReplayRequest.AS_IS) ? "as it is" : policy,
                        policy.equals(request.policy()));
            }
            html.raw("</select></label>");
            html.raw("<label>to topic <select name=\"to\">");
            html.option("", "(choose)", request.to().isEmpty());
            html.option(ReplayRequest.TO_SOURCE, "each record's source topic (--to-source)", request.toSource());
            if (!request.to().isEmpty() && !request.toSource() && !targets.contains(request.to())) {
                html.option(request.to(), request.to(), true);
            }
            for (String target : targets) {
                html.option(target, target, target.equals(request.to()));
            }
            html.raw("</select></label>");
            html.raw("<label><input type=\"checkbox\" name=\"allowRepeat\"")
                    .raw(request.allowRepeat() ? " checked" : "")
                    .raw("> send records replayed before again (--allow-repeat)</label>");
            html.raw("<button type=\"submit\" id=\"preview\">Preview</button></form>");
        });
    }

    static String preview(ReplayRequest request, ReplayRun.Tally tally, List<Replay.Result> results, boolean writable) {
        return Layout.page("Replay preview", html -> {
            summary(html, request, tally, true);
            results(html, results, tally, true, request.toSource());
            if (!writable) {
                html.element(
                        "p",
                        "note",
                        "This console only reads: set sanitiser.console.token to replay from here, or run the dlq"
                                + " replay command.");
                return;
            }
            if (tally.sent() == 0) {
                html.element("p", "note", "Nothing to send.");
                return;
            }
            html.raw("<form class=\"confirm\" method=\"post\" action=\"" + Layout.ROOT + "/replay\">");
            List<String> kept = request.chosenFields();
            for (int i = 0; i < kept.size(); i += 2) {
                hidden(html, kept.get(i), kept.get(i + 1));
            }
            hidden(html, "to", request.to());
            hidden(html, "policy", request.policy());
            if (request.allowRepeat()) {
                hidden(html, "allowRepeat", "on");
            }
            html.raw("<label>token <input type=\"password\" name=\"token\" id=\"token\" autocomplete=\"off\""
                            + " required></label> ")
                    .raw("<button type=\"submit\" id=\"confirm\">")
                    .text("Replay " + tally.sent() + " records to " + request.where())
                    .raw("</button></form>");
        });
    }

    static String result(ReplayRequest request, ReplayRun.Tally tally, List<Replay.Result> results) {
        return Layout.page("Replay done", html -> {
            summary(html, request, tally, false);
            results(html, results, tally, false, request.toSource());
        });
    }

    private static void summary(Html html, ReplayRequest request, ReplayRun.Tally tally, boolean dryRun) {
        html.raw("<p class=\"tally\" id=\"tally\">")
                .text((dryRun ? "Would send " : "Sent ") + tally.sent() + " of " + tally.chosen()
                        + " chosen records from " + request.topic() + " to " + request.where() + " ("
                        + (request.policy().equals(ReplayRequest.AS_IS) ? "as they are" : "under " + request.policy())
                        + "); " + tally.skipped(Replay.Why.REPLAYED_BEFORE) + " replayed before, "
                        + tally.skipped(Replay.Why.STILL_REJECTED) + " still rejected, "
                        + tally.skipped(Replay.Why.PLACEHOLDER) + " placeholders, "
                        + tally.skipped(Replay.Why.QUARANTINED) + " quarantined, "
                        + (tally.skipped(Replay.Why.NO_SOURCE) + tally.skipped(Replay.Why.REFUSED))
                        + " refused."
                        + (dryRun ? " Nothing has been sent." : ""))
                .raw("</p>");
        html.raw("<p class=\"note\">")
                .text("Chosen: " + request.describe()
                        + (request.allowRepeat() ? "; records replayed before are sent again (--allow-repeat)." : "."))
                .raw("</p>");
    }

    /** @param toSource name each record's target: its own source topic */
    private static void results(
            Html html, List<Replay.Result> results, ReplayRun.Tally tally, boolean dryRun, boolean toSource) {
        if (results.isEmpty()) {
            return;
        }
        html.raw("<table class=\"results\"><thead><tr><th>record</th><th>")
                .text(dryRun ? "would be" : "was")
                .raw("</th></tr></thead><tbody>");
        for (Replay.Result result : results) {
            html.raw("<tr><td>").text(result.record().coordinates()).raw("</td><td>");
            if (result instanceof Replay.Send send) {
                html.text((dryRun ? "send " : "sent ")
                        + send.what()
                        + (toSource ? " to " + send.out().topic() : ""));
            } else if (result instanceof Replay.Skip skip) {
                html.text("skipped: " + skip.reason());
            }
            html.raw("</td></tr>");
        }
        if (tally.chosen() > results.size()) {
            html.raw("<tr><td colspan=\"2\">")
                    .text("and " + (tally.chosen() - results.size()) + " more")
                    .raw("</td></tr>");
        }
        html.raw("</tbody></table>");
    }

    private static void field(Html html, String name, String label, String value, String placeholder) {
        html.raw("<label>")
                .text(label)
                .raw(" <input type=\"text\"")
                .attr("name", name)
                .attr("value", value)
                .attr("placeholder", placeholder)
                .raw("></label>");
    }

    private static String value(String[] fields, String name) {
        for (int i = 0; i < fields.length; i += 2) {
            if (fields[i].equals(name)) {
                return fields[i + 1];
            }
        }
        return "";
    }

    private static void hidden(Html html, String name, String value) {
        if (value.isEmpty()) {
            return;
        }
        html.raw("<input type=\"hidden\"")
                .attr("name", name)
                .attr("value", value)
                .raw(">");
    }
}
