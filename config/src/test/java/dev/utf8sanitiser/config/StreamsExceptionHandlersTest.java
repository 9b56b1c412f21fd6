package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.junit.jupiter.api.Test;

class StreamsExceptionHandlersTest {
    private static final String ERRORS = "org.apache.kafka.streams.errors.";

    private static Map<String, Object> props(String... keysAndValues) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", "orders");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    private static List<String> problems(Map<String, Object> props) {
        return SanitiserConfig.validate(props, Requirement.all()).stream()
                .map(ConfigProblem::message)
                .toList();
    }

    @Test
    void refusesAProcessingHandlerThatContinues() {
        Map<String, Object> props =
                props("processing.exception.handler", ERRORS + "LogAndContinueProcessingExceptionHandler");

        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> new SanitiserConfig(props));

        assertThat(e.messages())
                .containsExactly("Invalid value " + ERRORS + "LogAndContinueProcessingExceptionHandler for"
                        + " configuration processing.exception.handler: the sanitiser handles failures itself, and a"
                        + " handler that may continue past one drops the record and commits its offset"
                        + " (docs/operations.md); leave it unset or set it to " + ERRORS
                        + "LogAndFailProcessingExceptionHandler");
    }

    @Test
    void refusesEveryHandlerKeyUnderItsNewAndItsOldNameAndKafkasDeadLetterTopic() {
        Map<String, Object> props = props(
                "deserialization.exception.handler", ERRORS + "LogAndContinueExceptionHandler",
                "default.deserialization.exception.handler", ERRORS + "LogAndContinueExceptionHandler",
                "production.exception.handler", "com.acme.SkipTooLarge",
                "default.production.exception.handler", "com.acme.SkipTooLarge",
                "errors.dead.letter.queue.topic.name", "orders.kafka-dlq");

        assertThat(SanitiserConfig.validate(props, Requirement.all()))
                .extracting(ConfigProblem::key)
                .containsExactly(
                        "deserialization.exception.handler",
                        "default.deserialization.exception.handler",
                        "production.exception.handler",
                        "default.production.exception.handler",
                        "errors.dead.letter.queue.topic.name");
        assertThat(problems(props))
                .last()
                .isEqualTo("Invalid value orders.kafka-dlq for configuration errors.dead.letter.queue.topic.name:"
                        + " the sanitiser's dead letters go to sanitiser.dlq.topic; Kafka's dead-letter topic would"
                        + " also get records that failed for a passing reason, such as a Schema Registry outage"
                        + " (docs/operations.md); leave it unset");
    }

    @Test
    void acceptsKafkasFailingHandlersAsNamesOrClassesAndNothing() throws ClassNotFoundException {
        assertThat(problems(props(
                        "processing.exception.handler", " " + ERRORS + "LogAndFailProcessingExceptionHandler ",
                        "deserialization.exception.handler", ERRORS + "LogAndFailExceptionHandler",
                        "production.exception.handler", ERRORS + "DefaultProductionExceptionHandler",
                        "errors.dead.letter.queue.topic.name", "")))
                .isEmpty();
        assertThat(problems(props())).isEmpty();
        Map<String, Object> asClass = props();
        asClass.put("default.production.exception.handler", Object.class);
        assertThat(problems(asClass))
                .singleElement()
                .asString()
                .startsWith("Invalid value java.lang.Object for configuration default.production.exception.handler");
    }

    @Test
    void namesEveryHandlerKeyOfKafkaStreamsAndItsFailingHandler() throws ClassNotFoundException {
        Set<String> handlerKeys = StreamsConfig.configDef().names().stream()
                .filter(key -> key.endsWith("exception.handler"))
                .collect(Collectors.toSet());

        assertThat(StreamsExceptionHandlers.FAILING_HANDLERS.keySet()).containsExactlyInAnyOrderElementsOf(handlerKeys);
        Map<String, Class<?>> kinds = Map.of(
                "processing", ProcessingExceptionHandler.class,
                "deserialization", DeserializationExceptionHandler.class,
                "production", ProductionExceptionHandler.class);
        for (Map.Entry<String, String> handler : StreamsExceptionHandlers.FAILING_HANDLERS.entrySet()) {
            String kind = handler.getKey().replace("default.", "").replace(".exception.handler", "");
            assertThat(kinds.get(kind)).isAssignableFrom(Class.forName(handler.getValue()));
            Object kafkasDefault = StreamsConfig.configDef().defaultValues().get(handler.getKey());
            if (kafkasDefault != null) {
                assertThat(((Class<?>) kafkasDefault).getName())
                        .as("Kafka's default for %s", handler.getKey())
                        .isEqualTo(handler.getValue());
            }
        }
        assertThat(StreamsExceptionHandlers.KAFKA_DEAD_LETTER_TOPIC)
                .isEqualTo(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
    }

    @Test
    void onlyTheStreamsApplicationOwnsItsHandlers() {
        Map<String, Object> props =
                props("processing.exception.handler", ERRORS + "LogAndContinueProcessingExceptionHandler");

        assertThat(SanitiserConfig.validate(props, Requirement.connect())).isEmpty();
        assertThat(SanitiserConfig.validate(props, EnumSet.noneOf(Requirement.class)))
                .isEmpty();
        assertThat(SanitiserConfig.validate(props, Requirement.embedded()))
                .extracting(ConfigProblem::key)
                .containsExactly("processing.exception.handler");
    }
}
