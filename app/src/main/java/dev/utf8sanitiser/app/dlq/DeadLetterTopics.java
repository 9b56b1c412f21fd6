package dev.utf8sanitiser.app.dlq;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/** Which dead-letter topics a configuration writes: the {@code dlq} commands' and the console's default. */
public final class DeadLetterTopics {
    private DeadLetterTopics() {}

    /** The dead-letter topic of each listed input topic; empty for an input pattern. */
    public static List<String> ofListedInputs(SanitiserConfig settings) {
        return settings.inputTopics().stream()
                .map(settings.dlqTopicTemplate()::render)
                .distinct()
                .toList();
    }

    /**
     * The dead-letter topics of the input topics among {@code existing}: each listed input's, or
     * with an input pattern, the dead-letter topic of each existing topic it matches.
     */
    public static List<String> of(SanitiserConfig settings, Collection<String> existing) {
        if (settings.inputPattern().isEmpty()) {
            return ofListedInputs(settings);
        }
        Pattern pattern = settings.inputPattern().get();
        return existing.stream()
                .filter(topic -> pattern.matcher(topic).matches())
                .sorted()
                .map(settings.dlqTopicTemplate()::render)
                .distinct()
                .toList();
    }
}
