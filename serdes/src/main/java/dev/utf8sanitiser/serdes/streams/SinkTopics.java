package dev.utf8sanitiser.serdes.streams;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.TopicTemplate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The output and dead-letter topics of each input topic, rendered from the templates once per input
 * topic, not per record: the sinks route by them and the processor looks up their size limits.
 */
public final class SinkTopics {
    private final TopicTemplate output;
    private final TopicTemplate deadLetter;
    private final Map<String, String> outputs = new ConcurrentHashMap<>();
    private final Map<String, String> deadLetters = new ConcurrentHashMap<>();

    public SinkTopics(SanitiserConfig config) {
        this.output = config.outputTopicTemplate();
        this.deadLetter = config.dlqTopicTemplate();
    }

    public String output(String input) {
        return outputs.computeIfAbsent(input, output::render);
    }

    public String deadLetter(String input) {
        return deadLetters.computeIfAbsent(input, deadLetter::render);
    }
}
