package dev.utf8sanitiser.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Which topics the sanitiser writes, seen from a topic's name: the output or dead-letter topic of
 * one of its inputs. An input pattern must never read them back; start-up refuses a pattern for
 * which it finds such a topic, but cannot try every name, so the application asks here about each
 * topic the pattern subscribes to. Exact: each template is inverted ({@link
 * TopicTemplate#inputFor}) and the input it gives checked against the inputs. Immutable.
 */
public final class OwnTopics {
    private final Predicate<String> isInput;
    private final Map<String, TopicTemplate> templates = new LinkedHashMap<>();

    private OwnTopics(Predicate<String> isInput, TopicTemplate output, TopicTemplate dlq) {
        this.isInput = isInput;
        templates.put(SanitiserConfig.OUTPUT_TOPIC_CONFIG, output);
        templates.put(SanitiserConfig.DLQ_TOPIC_CONFIG, dlq);
    }

    /** The topics {@code config} writes: those of its input pattern, or of its input topics. */
    public static OwnTopics of(SanitiserConfig config) {
        Predicate<String> isInput = config.inputPattern()
                .<Predicate<String>>map(
                        pattern -> topic -> pattern.matcher(topic).matches())
                .orElse(config.inputTopics()::contains);
        return new OwnTopics(isInput, config.outputTopicTemplate(), config.dlqTopicTemplate());
    }

    /**
     * Why the sanitiser writes to {@code topic}, such as {@code the sanitiser.output.topic of
     * orders}; empty when it does not.
     */
    public Optional<String> writer(String topic) {
        for (Map.Entry<String, TopicTemplate> entry : templates.entrySet()) {
            TopicTemplate template = entry.getValue();
            if (template.isFixed()) {
                if (template.template().equals(topic)) {
                    return Optional.of("the " + entry.getKey() + " of every input");
                }
            } else {
                Optional<String> input = template.inputFor(topic).filter(isInput);
                if (input.isPresent()) {
                    return Optional.of("the " + entry.getKey() + " of " + input.get());
                }
            }
        }
        return Optional.empty();
    }
}
