package dev.utf8sanitiser.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kafka Streams' exception-handler settings, refused when they could lose a record. The sanitiser
 * owns its failure handling: a record is delivered or dead-lettered by its own verdict, and any
 * other failure (a broker, the Schema Registry) stops the stream thread as {@code
 * sanitiser.on.fatal.error} says, so that the record is read again. A handler that continues
 * instead, such as Kafka's {@code LogAndContinueProcessingExceptionHandler}, drops the record with a
 * warning and commits its offset; Kafka's own dead-letter queue would file a record that failed for
 * a passing reason as dead. Kafka's failing handlers, which are its defaults, are accepted.
 */
final class StreamsExceptionHandlers {
    private static final String ERRORS = "org.apache.kafka.streams.errors.";

    /**
     * Each handler key of Kafka Streams 4.3 (the {@code default.} ones are the older, deprecated
     * names) and the one value allowed: Kafka's handler that fails.
     */
    static final Map<String, String> FAILING_HANDLERS = failingHandlers();

    /** Kafka Streams' own dead-letter topic (KIP-1034), which the sanitiser's handlers would feed. */
    static final String KAFKA_DEAD_LETTER_TOPIC = "errors.dead.letter.queue.topic.name";

    private StreamsExceptionHandlers() {}

    private static Map<String, String> failingHandlers() {
        Map<String, String> handlers = new LinkedHashMap<>();
        handlers.put("processing.exception.handler", ERRORS + "LogAndFailProcessingExceptionHandler");
        handlers.put("deserialization.exception.handler", ERRORS + "LogAndFailExceptionHandler");
        handlers.put("default.deserialization.exception.handler", ERRORS + "LogAndFailExceptionHandler");
        handlers.put("production.exception.handler", ERRORS + "DefaultProductionExceptionHandler");
        handlers.put("default.production.exception.handler", ERRORS + "DefaultProductionExceptionHandler");
        return Collections.unmodifiableMap(handlers);
    }

    /** Adds a problem for each handler setting in {@code props} that could drop or misfile a record. */
    static void check(Map<?, ?> props, List<ConfigProblem> problems) {
        for (Map.Entry<String, String> handler : FAILING_HANDLERS.entrySet()) {
            String key = handler.getKey();
            if (!props.containsKey(key) || props.get(key) == null) {
                continue;
            }
            String value = className(props.get(key));
            if (!value.isEmpty() && !value.equals(handler.getValue())) {
                problems.add(new ConfigProblem(
                        key,
                        "Invalid value " + value + " for configuration " + key + ": the sanitiser handles failures"
                                + " itself, and a handler that may continue past one drops the record and commits"
                                + " its offset (docs/operations.md); leave it unset or set it to "
                                + handler.getValue()));
            }
        }
        Object topic = props.get(KAFKA_DEAD_LETTER_TOPIC);
        if (topic != null && !String.valueOf(topic).isBlank()) {
            problems.add(new ConfigProblem(
                    KAFKA_DEAD_LETTER_TOPIC,
                    "Invalid value " + topic + " for configuration " + KAFKA_DEAD_LETTER_TOPIC + ": the sanitiser's"
                            + " dead letters go to " + SanitiserConfig.DLQ_TOPIC_CONFIG + "; Kafka's dead-letter topic"
                            + " would also get records that failed for a passing reason, such as a Schema Registry"
                            + " outage (docs/operations.md); leave it unset"));
        }
    }

    private static String className(Object value) {
        return value instanceof Class<?> type
                ? type.getName()
                : String.valueOf(value).trim();
    }
}
