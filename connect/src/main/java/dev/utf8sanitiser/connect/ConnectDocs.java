package dev.utf8sanitiser.connect;

import dev.utf8sanitiser.config.ConfigurationDocs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;

/**
 * The reference part of docs/connect.md, generated from the plugins' own {@code CONFIG_DEF} and
 * {@code OVERVIEW_DOC}, between two marker lines; the guide around it is written by hand. A test
 * fails when the committed part differs from {@link #reference()}, and rewrites it with {@value
 * #REGENERATE_COMMAND}.
 */
public final class ConnectDocs {
    /** The command that rewrites the reference part of docs/connect.md. */
    public static final String REGENERATE_COMMAND = "./mvnw -B -q -pl connect -am test"
            + " -Dtest=ConnectDocsTest -Ddocs.regenerate=true -Dsurefire.failIfNoSpecifiedTests=false";

    /** How the first marker line starts, whatever follows. */
    private static final String BEGIN_PREFIX = "<!-- BEGIN GENERATED";

    static final String BEGIN = BEGIN_PREFIX + " from the plugins' CONFIG_DEF by dev.utf8sanitiser.connect.ConnectDocs:"
            + " do not edit by hand. Regenerate with " + REGENERATE_COMMAND + " -->";
    static final String END = "<!-- END GENERATED -->";

    private ConnectDocs() {}

    /** The generated part, markers included. */
    public static String reference() {
        StringBuilder md = new StringBuilder();
        md.append(BEGIN).append("\n\n");
        plugin(
                md,
                "`" + Utf8Sanitise.Value.class.getName() + "` and `" + Utf8Sanitise.Key.class.getName() + "`",
                Utf8Sanitise.OVERVIEW_DOC,
                "transforms",
                Utf8Sanitise.CONFIG_DEF,
                ConnectKeys.NOT_FOR_TRANSFORM);
        plugin(
                md,
                "`" + IsWellFormedUtf8.class.getName() + "`",
                IsWellFormedUtf8.OVERVIEW_DOC,
                "predicates",
                IsWellFormedUtf8.CONFIG_DEF,
                ConnectKeys.NOT_FOR_PREDICATE);
        md.append(END).append('\n');
        return md.toString();
    }

    /**
     * {@code document} with its reference part replaced by {@link #reference()}.
     *
     * @throws IllegalArgumentException when the markers are missing
     */
    public static String withReference(String document) {
        int begin = document.indexOf(BEGIN_PREFIX);
        int end = document.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException(
                    "docs/connect.md has no generated part between " + BEGIN + " and " + END);
        }
        int after = end + END.length();
        if (after < document.length() && document.charAt(after) == '\n') {
            after++;
        }
        return document.substring(0, begin) + reference() + document.substring(after);
    }

    private static void plugin(
            StringBuilder md,
            String title,
            String overview,
            String prefix,
            ConfigDef def,
            Map<String, String> notTaken) {
        md.append("### ").append(title).append("\n\n");
        md.append(markdown(overview)).append("\n\n");
        md.append("Keys, each after `").append(prefix).append(".<alias>.`:\n\n");
        List<ConfigKey> keys = new ArrayList<>();
        for (String group : def.groups()) {
            def.configKeys().values().stream()
                    .filter(key -> group.equals(key.group))
                    .sorted((a, b) -> Integer.compare(a.orderInGroup, b.orderInGroup))
                    .forEach(keys::add);
        }
        md.append(ConfigurationDocs.table(keys)).append('\n');
        md.append("Not taken (configuration fails, saying why):\n\n");
        new TreeMap<>(notTaken)
                .forEach((key, why) ->
                        md.append("- `").append(key).append("`: ").append(why).append('\n'));
        md.append('\n');
    }

    /** The HTML of an {@code OVERVIEW_DOC}, as Connect's docs render it, in Markdown. */
    private static String markdown(String html) {
        return html.replace("<code>", "`").replace("</code>", "`");
    }
}
