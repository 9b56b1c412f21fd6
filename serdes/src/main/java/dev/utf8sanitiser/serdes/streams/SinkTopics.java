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

    // get before computeIfAbsent: the sinks ask on every record, and the topic is nearly always
    // there; computeIfAbsent's bound method reference is an object to make (or for the JIT to remove).
    public String output(String input) {
        String topic = outputs.get(input);
        return topic != null ? topic : outputs.computeIfAbsent(input, output::render);
    }

    public String deadLetter(String input) {
        String topic = deadLetters.get(input);
        return topic != null ? topic : deadLetters.computeIfAbsent(input, deadLetter::render);
    }
}
