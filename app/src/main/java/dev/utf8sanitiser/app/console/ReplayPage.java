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

    static String form(ReplayRequest request, List<String> topics, boolean writable, String problem) {
        return Layout.page("Replay dead letters", html -> {
            if (problem != null) {
                html.element("p", "problem", problem);
            }
            if (!writable) {
                html.element(
                        "p",
                        "note",
                        "This console only reads: set sanitiser.console.token (or sanitiser.console.token.file) to"
                                + " replay from here. A preview still shows what a replay would send.");
            }
            html.raw("<form class=\"replay\" method=\"get\" action=\"" + Layout.ROOT + "/replay\">");
            html.raw("<label>from <select name=\"topic\">");
            for (String topic : topics) {
                html.raw("<option")
                        .attr("value", topic)
                        .raw(topic.equals(request.topic()) ? " selected>" : ">")
                        .text(topic)
                        .raw("</option>");
            }
            html.raw("</select></label>");
            field(html, "rule", "rule", request.rule(), "SURROGATE");
            field(html, "source", "source", request.source(), "TOPIC[-P[@OFFSET]]");
            field(html, "field", "field", request.field(), "customer.name");
            html.raw("<label>policy <select name=\"policy\">");
            for (String policy : List.of(ReplayRequest.AS_IS, "strict", "replace", "repair")) {
                html.raw("<option")
                        .attr("value", policy)
                        .raw(policy.equals(request.policy()) ? " selected>" : ">")
                        .text(policy.equals(ReplayRequest.AS_IS) ? "as it is" : policy)
                        .raw("</option>");
            }
            html.raw("</select></label>");
            field(html, "to", "to topic", request.to(), "orders");
            html.raw("<button type=\"submit\" id=\"preview\">Preview</button></form>");
        });
    }

    static String preview(ReplayRequest request, ReplayRun.Tally tally, List<Replay.Result> results, boolean writable) {
        return Layout.page("Replay preview", html -> {
            summary(html, request, tally, true);
            results(html, results, tally, true);
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
            hidden(html, "topic", request.topic());
            hidden(html, "rule", request.rule());
            hidden(html, "source", request.source());
            hidden(html, "field", request.field());
            hidden(html, "to", request.to());
            hidden(html, "policy", request.policy());
            html.raw("<label>token <input type=\"password\" name=\"token\" id=\"token\" autocomplete=\"off\""
                            + " required></label> ")
                    .raw("<button type=\"submit\" id=\"confirm\">")
                    .text("Replay " + tally.sent() + " records to " + request.to())
                    .raw("</button></form>");
        });
    }

    static String result(ReplayRequest request, ReplayRun.Tally tally, List<Replay.Result> results) {
        return Layout.page("Replay done", html -> {
            summary(html, request, tally, false);
            results(html, results, tally, false);
        });
    }

    private static void summary(Html html, ReplayRequest request, ReplayRun.Tally tally, boolean dryRun) {
        html.raw("<p class=\"tally\" id=\"tally\">")
                .text((dryRun ? "Would send " : "Sent ") + tally.sent() + " of " + tally.chosen()
                        + " chosen records from " + request.topic() + " to " + request.to() + " ("
                        + (request.policy().equals(ReplayRequest.AS_IS) ? "as they are" : "under " + request.policy())
                        + "); " + tally.skipped(Replay.Why.REPLAYED_BEFORE) + " replayed before, "
                        + tally.skipped(Replay.Why.STILL_REJECTED) + " still rejected, "
                        + tally.skipped(Replay.Why.PLACEHOLDER) + " placeholders, "
                        + tally.skipped(Replay.Why.QUARANTINED) + " quarantined."
                        + (dryRun ? " Nothing has been sent." : ""))
                .raw("</p>");
    }

    private static void results(Html html, List<Replay.Result> results, ReplayRun.Tally tally, boolean dryRun) {
        if (results.isEmpty()) {
            return;
        }
        html.raw("<table class=\"results\"><thead><tr><th>record</th><th>")
                .text(dryRun ? "would be" : "was")
                .raw("</th></tr></thead><tbody>");
        for (Replay.Result result : results) {
            html.raw("<tr><td>").text(result.record().coordinates()).raw("</td><td>");
            if (result instanceof Replay.Send send) {
                html.text((dryRun ? "send " : "sent ") + send.what());
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

    private static void hidden(Html html, String name, String value) {
        html.raw("<input type=\"hidden\"")
                .attr("name", name)
                .attr("value", value)
                .raw(">");
    }
}
