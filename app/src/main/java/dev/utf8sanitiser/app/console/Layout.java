package dev.utf8sanitiser.app.console;

import java.util.function.Consumer;

/** The frame every console page shares: head, navigation, and the console's own CSS and script. */
final class Layout {
    static final String ROOT = "/console";

    private static final String MAIN = "<main>";

    private Layout() {}

    /** {@code page} with the banner of a console that only reads, at the top of its content. */
    static String readOnly(String page) {
        int at = page.indexOf(MAIN); // the layout's own: anything from a record or request is escaped
        if (at < 0) {
            return page;
        }
        int after = at + MAIN.length();
        return page.substring(0, after)
                + "<p class=\"banner\" role=\"note\" id=\"read-only\">Read-only: this console has no token"
                + " (sanitiser.console.token), so it shows, previews and exports but does not replay.</p>"
                + page.substring(after);
    }

    static String page(String title, Consumer<Html> body) {
        Html html = new Html();
        html.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .raw("<title>")
                .text(title)
                .raw(" · utf8-sanitiser DLQ console</title>")
                .raw("<link rel=\"stylesheet\" href=\"" + ROOT + "/static/console.css\">")
                .raw("<script src=\"" + ROOT + "/static/console.js\" defer></script></head><body>")
                .raw("<header><a class=\"brand\" href=\"" + ROOT + "/\">utf8-sanitiser · DLQ console</a>")
                .raw("<nav><a href=\"" + ROOT + "/\">Overview</a> <a href=\"" + ROOT + "/records\">Records</a>")
                .raw(" <a href=\"" + ROOT + "/replay\">Replay</a></nav>")
                .raw("</header>" + MAIN)
                .raw("<h1>")
                .text(title)
                .raw("</h1>");
        body.accept(html);
        html.raw("</main></body></html>\n");
        return html.toString();
    }
}
