package dev.utf8sanitiser.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;

/**
 * Writes docs/configuration.md from {@link SanitiserConfig#configDef()} and {@link
 * EnvironmentOverrides#RULES}: a Markdown table per group, then the environment rules. A test
 * fails when the committed file differs from {@link #markdown()}; the same test rewrites it with
 * {@value #REGENERATE_COMMAND}.
 */
public final class ConfigurationDocs {
    /** The command that rewrites docs/configuration.md, printed when it is stale. */
    public static final String REGENERATE_COMMAND = "./mvnw -B -pl config -am test -Ddocs.regenerate=true";

    private ConfigurationDocs() {}

    /** Writes the Markdown to the file named by the only argument, or to standard output. */
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.out.print(markdown());
        } else if (args.length == 1) {
            Files.writeString(Path.of(args[0]), markdown(), StandardCharsets.UTF_8);
        } else {
            System.err.println("usage: ConfigurationDocs [FILE]");
            System.exit(2);
        }
    }

    /** The whole of docs/configuration.md. */
    public static String markdown() {
        ConfigDef def = SanitiserConfig.configDef();
        StringBuilder md = new StringBuilder();
        md.append("<!-- Generated from dev.utf8sanitiser.config.SanitiserConfig: do not edit by hand.\n")
                .append("     Regenerate with ")
                .append(REGENERATE_COMMAND)
                .append(" -->\n\n");
        md.append(
                """
                # Configuration

                The sanitiser reads one properties file (`utf8-sanitiser run --config FILE`), then the
                environment (see [Environment variables](#environment-variables)). This page lists the
                sanitiser's own keys, and those of its Schema Registry client, which keep the names that
                Confluent's clients give them ([Schema Registry](schema-registry.md)). Every other key passes
                through unchanged to Kafka Streams and the Kafka clients: `bootstrap.servers`,
                `application.id`, `num.stream.threads`, security settings such as `security.protocol` or
                `sasl.jaas.config`. One Kafka default differs: `processing.guarantee` is `exactly_once_v2`
                unless set, so that the output write, the dead-letter write and the offset commit are one
                transaction. Kafka Streams' exception handlers are the sanitiser's to choose: a handler that
                continues past a failure would drop the record and commit its offset, so
                `processing.exception.handler`, `deserialization.exception.handler` and
                `production.exception.handler` (and the older `default.` names) may only name Kafka's failing
                handlers, and Kafka's `errors.dead.letter.queue.topic.name` must stay unset
                ([operations](operations.md#failures-are-never-dropped)).

                Every value is checked at start-up, and every bad value is reported, one line each, before
                anything starts. A key that starts with `sanitiser.`, `sanitizer.` (spelt the American way)
                or `schema.registry.` but is not listed here is reported as a likely typo, with the key it most
                likely means. An empty value leaves an optional key unset (`sanitiser.input.pattern=`), so
                that an environment variable can blank out a value from the file. Ready-made files are in
                `config/examples/`.

                Keys are also checked together. For every input topic, the output and dead-letter topics
                must be different topics once `${topic}` is filled in (`orders.dlq` and `${topic}.dlq` are
                not, for the input `orders`), and neither may be an input topic. An input pattern must match
                neither the output nor the dead-letter topic of a topic it matches: start-up looks for such
                a topic and refuses the pattern with it (`pat.*` matches `pat` and `pat.clean`); as no
                search tries every name, the running sanitiser also skips the records of any topic it writes
                itself. Of the keys that pass through, `num.stream.threads` must be at least 1: with 0, Kafka
                Streams runs and reads nothing.

                The Kafka Connect SMT and predicate take the same keys after their own prefix
                (`transforms.<alias>.sanitiser.policy`), less those of the Kafka Streams application (input
                and output topics, the HTTP endpoint, shutdown), plus the keys of the Connect group below;
                [connect.md](connect.md) lists which plugin takes which.

                Keys marked *Provisional* are not yet part of the stable contract.
                """);
        for (String group : def.groups()) {
            md.append("\n## ").append(group).append("\n\n");
            md.append(table(def.configKeys().values().stream()
                    .filter(key -> group.equals(key.group))
                    .sorted((a, b) -> Integer.compare(a.orderInGroup, b.orderInGroup))
                    .toList()));
        }
        md.append("\n## Environment variables\n\n")
                .append(EnvironmentOverrides.RULES)
                .append('\n');
        return md.toString();
    }

    /**
     * A Markdown table of these keys, one row each in the given order: key, type, default, valid
     * values, importance, description. Shared with docs/connect.md, which lists the keys of each
     * Connect plugin.
     */
    public static String table(List<ConfigKey> keys) {
        StringBuilder md = new StringBuilder();
        md.append("| key | type | default | valid values | importance | description |\n");
        md.append("|---|---|---|---|---|---|\n");
        for (ConfigKey key : keys) {
            md.append("| `")
                    .append(key.name)
                    .append("` | ")
                    .append(key.type.name().toLowerCase(Locale.ROOT))
                    .append(" | ")
                    .append(cell(defaultValue(key)))
                    .append(" | ")
                    .append(cell(validValues(key)))
                    .append(" | ")
                    .append(key.importance.name().toLowerCase(Locale.ROOT))
                    .append(" | ")
                    .append(cell(key.documentation))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String defaultValue(ConfigKey key) {
        if (!key.hasDefault()) {
            return "required";
        }
        if (key.defaultValue == null) {
            return "none";
        }
        String value = ConfigDef.convertToString(key.defaultValue, key.type);
        return value.isEmpty() ? "empty" : "`" + value + "`";
    }

    private static String validValues(ConfigKey key) {
        if (key.validator != null) {
            return key.validator.toString();
        }
        return key.type == ConfigDef.Type.BOOLEAN ? "true, false" : "any";
    }

    /** A table cell: one line, with the column separator escaped. */
    private static String cell(String text) {
        return text.replace("\n", " ").replace("|", "\\|");
    }
}
