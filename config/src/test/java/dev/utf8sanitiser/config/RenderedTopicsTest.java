package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Output and dead-letter topics are compared as rendered for each input, not as template text:
 * {@code orders.dlq} and {@code ${topic}.dlq} are different templates, yet both name orders.dlq
 * for the input orders.
 */
class RenderedTopicsTest {
    private static List<String> problems(String... keysAndValues) {
        Map<String, Object> props = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return SanitiserConfig.validate(props, Requirement.all()).stream()
                .map(ConfigProblem::message)
                .toList();
    }

    @Test
    void aFixedOutputThatIsTheDeadLetterTopicOfAListedInputIsRefused() {
        assertThat(problems("sanitiser.input.topics", "orders,payments", "sanitiser.output.topic", "orders.dlq"))
                .containsExactly("sanitiser.output.topic orders.dlq and sanitiser.dlq.topic ${topic}.dlq would mix"
                        + " clean and dead-letter records: orders.dlq would take the clean records of orders and"
                        + " payments and the dead letters of orders");
    }

    @Test
    void theOutputOfOneInputMayNotBeTheDeadLetterTopicOfAnother() {
        assertThat(problems(
                        "sanitiser.input.topics", "a,out",
                        "sanitiser.output.topic", "${topic}-out",
                        "sanitiser.dlq.topic", "a-${topic}"))
                .containsExactly("sanitiser.output.topic ${topic}-out and sanitiser.dlq.topic a-${topic} would mix"
                        + " clean and dead-letter records: a-out would take the clean records of a and the dead"
                        + " letters of out");
    }

    @Test
    void aFixedDeadLetterTopicThatIsTheOutputOfAMatchedInputIsRefused() {
        assertThat(problems(
                        "sanitiser.input.pattern", "orders|payments",
                        "sanitiser.dlq.topic", "orders.clean"))
                .containsExactly("sanitiser.output.topic ${topic}.clean and sanitiser.dlq.topic orders.clean would"
                        + " mix clean and dead-letter records: orders.clean would take the clean records of orders,"
                        + " which sanitiser.input.pattern orders|payments matches, and the dead letters of every"
                        + " input");
    }

    @Test
    void aFixedOutputThatIsTheDeadLetterTopicOfAMatchedInputIsRefused() {
        assertThat(problems("sanitiser.input.pattern", "orders|payments", "sanitiser.output.topic", "orders.dlq"))
                .containsExactly("sanitiser.output.topic orders.dlq and sanitiser.dlq.topic ${topic}.dlq would mix"
                        + " clean and dead-letter records: orders.dlq would take the dead letters of orders, which"
                        + " sanitiser.input.pattern orders|payments matches, and the clean records of every input");
    }

    @Test
    void topicsThatOnlyLookAlikeAreFine() {
        assertThat(problems("sanitiser.input.topics", "orders,payments", "sanitiser.output.topic", "all.clean"))
                .isEmpty();
        assertThat(problems("sanitiser.input.pattern", "payments", "sanitiser.output.topic", "orders.dlq"))
                .isEmpty();
        assertThat(problems("sanitiser.input.topics", "a,b", "sanitiser.dlq.topic", "dead.letters"))
                .isEmpty();
    }

    @Test
    void identicalTemplatesAreReportedOnce() {
        assertThat(problems(
                        "sanitiser.input.topics", "a",
                        "sanitiser.output.topic", "x.${topic}",
                        "sanitiser.dlq.topic", "x.${topic}"))
                .hasSize(1);
    }
}
