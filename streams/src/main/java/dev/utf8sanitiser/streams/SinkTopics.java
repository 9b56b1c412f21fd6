package dev.utf8sanitiser.streams;

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
        return rendered(outputs, output, input);
    }

    public String deadLetter(String input) {
        return rendered(deadLetters, deadLetter, input);
    }

    // get before computeIfAbsent: the sinks ask on every record, and the topic is nearly always
    // there; computeIfAbsent's bound method reference is an object to make (or for the JIT to remove).
    private static String rendered(Map<String, String> topics, TopicTemplate template, String input) {
        String topic = topics.get(input);
        return topic != null ? topic : topics.computeIfAbsent(input, template::render);
    }
}
