package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.HexView;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A page being written. Every string that came from Kafka or from a request goes in through {@link
 * #text} or {@link #attr}, which escape it (and spell control and format characters, as the
 * terminal commands do); {@link #raw} is for the console's own markup only. The pages also carry a
 * Content-Security-Policy that allows no inline script, should anything slip through.
 */
final class Html {
    private final StringBuilder out = new StringBuilder(4096);

    /** The console's own markup, never anything from a record or a request. */
    Html raw(String markup) {
        out.append(markup);
        return this;
    }

    /** Text content, escaped. */
    Html text(Object value) {
        out.append(escape(String.valueOf(value)));
        return this;
    }

    /** {@code name="value"}, the value escaped, with a space before it. */
    Html attr(String name, Object value) {
        out.append(' ')
                .append(name)
                .append("=\"")
                .append(escape(String.valueOf(value)))
                .append('"');
        return this;
    }

    /** An element with escaped text: {@code <tag class="cls">text</tag>}. */
    Html element(String tag, String cls, Object value) {
        out.append('<').append(tag);
        if (cls != null) {
            attr("class", cls);
        }
        out.append('>');
        text(value);
        out.append("</").append(tag).append('>');
        return this;
    }

    /** An {@code <option>} of a {@code <select>}, its value and text escaped. */
    Html option(String value, String text, boolean selected) {
        return raw("<option")
                .attr("value", value)
                .raw(selected ? " selected>" : ">")
                .text(text)
                .raw("</option>");
    }

    /** A link whose target and text are escaped. */
    Html link(String href, Object value) {
        raw("<a").attr("href", href).raw(">").text(value).raw("</a>");
        return this;
    }

    /**
     * {@code s} safe as HTML text and as a quoted attribute value: the five markup characters as
     * entities, control and format characters spelt {@code \\uXXXX}.
     */
    static String escape(String s) {
        String spelt = HexView.spelt(s);
        StringBuilder escaped = new StringBuilder(spelt.length() + 16);
        for (int i = 0; i < spelt.length(); i++) {
            char c = spelt.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /** A path with its query: {@code path?name=value&...}, names and values URL-encoded; null values left out. */
    static String url(String path, String... namesAndValues) {
        StringBuilder url = new StringBuilder(path);
        char separator = '?';
        for (int i = 0; i < namesAndValues.length; i += 2) {
            String value = namesAndValues[i + 1];
            if (value == null || value.isEmpty()) {
                continue;
            }
            url.append(separator)
                    .append(URLEncoder.encode(namesAndValues[i], StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
            separator = '&';
        }
        return url.toString();
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
