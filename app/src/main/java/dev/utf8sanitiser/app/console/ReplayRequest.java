package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.ReplayRun;
import dev.utf8sanitiser.app.dlq.Selection;
import dev.utf8sanitiser.core.Policy;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A replay as a page asks for it: the form's fields, checked. The same fields go from the form to
 * the preview and from the preview's confirmation to the replay, so what is confirmed is what was
 * previewed.
 *
 * @param policy {@code as-is}, {@code strict}, {@code replace} or {@code repair}
 */
record ReplayRequest(String topic, String rule, String source, String field, String to, String policy) {
    static final String AS_IS = "as-is";

    static ReplayRequest of(Map<String, String> fields) {
        return new ReplayRequest(
                fields.getOrDefault("topic", ""),
                fields.getOrDefault("rule", ""),
                fields.getOrDefault("source", ""),
                fields.getOrDefault("field", ""),
                fields.getOrDefault("to", ""),
                fields.getOrDefault("policy", AS_IS));
    }

    /** The replay to run; the message says what is wrong with the fields. */
    ReplayRun run(boolean dryRun) {
        if (topic.isBlank()) {
            throw new IllegalArgumentException("choose the dead-letter topic to replay from");
        }
        if (to.isBlank()) {
            throw new IllegalArgumentException("name the topic to replay to");
        }
        Optional<Policy> chosen =
                switch (policy) {
                    case AS_IS -> Optional.empty();
                    case "strict", "replace", "repair" -> Optional.of(Policy.valueOf(policy.toUpperCase(Locale.ROOT)));
                    default -> throw new IllegalArgumentException("no policy " + policy);
                };
        Selection selection =
                new Selection(nonBlank(rule), nonBlank(source).map(Selection.Source::parse), nonBlank(field));
        return new ReplayRun(topic, Optional.empty(), selection, to, chosen, dryRun, false);
    }

    private static Optional<String> nonBlank(String s) {
        return s.isBlank() ? Optional.empty() : Optional.of(s.strip());
    }
}
