package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An input pattern that matches its own output: {@code sanitiser.input.pattern=pat.*} with the
 * default {@code ${topic}.clean} was accepted, and made pat.clean, pat.clean.clean, ... 41 levels
 * deep, until the names reached the 249 characters a topic name may have.
 */
class PatternLoopsTest {
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
    void aPatternThatMatchesItsOwnOutputAndDeadLetterTopicsIsRefused() {
        assertThat(problems("sanitiser.input.pattern", "pat.*"))
                .containsExactly(
                        "Invalid value pat.* for configuration sanitiser.input.pattern: it matches pat and also"
                                + " pat.clean, where sanitiser.output.topic ${topic}.clean sends the records of pat,"
                                + " so the sanitiser would read its own output again and again; make the pattern"
                                + " exclude the output and dead-letter topics",
                        "Invalid value pat.* for configuration sanitiser.input.pattern: it matches pat and also"
                                + " pat.dlq, where sanitiser.dlq.topic ${topic}.dlq sends the records of pat, so the"
                                + " sanitiser would read its own output again and again; make the pattern exclude the"
                                + " output and dead-letter topics");
    }

    @Test
    void aPrefixTemplateLoopsToo() {
        assertThat(problems(
                        "sanitiser.input.pattern", "events\\..*",
                        "sanitiser.output.topic", "events.clean.${topic}",
                        "sanitiser.dlq.topic", "dlq.${topic}"))
                .containsExactly("Invalid value events\\..* for configuration sanitiser.input.pattern: it matches"
                        + " events. and also events.clean.events., where sanitiser.output.topic"
                        + " events.clean.${topic} sends the records of events., so the sanitiser would read its own"
                        + " output again and again; make the pattern exclude the output and dead-letter topics");
    }

    @Test
    void aPatternThatExcludesTheOutputsIsFine() {
        assertThat(problems("sanitiser.input.pattern", "(?!.*\\.(clean|dlq)$)pat.*"))
                .isEmpty();
        assertThat(problems("sanitiser.input.pattern", "orders\\.[a-z]+")).isEmpty();
        assertThat(problems(
                        "sanitiser.input.pattern",
                        "pat.*",
                        "sanitiser.output.topic",
                        "clean.${topic}",
                        "sanitiser.dlq.topic",
                        "dlq.${topic}"))
                .isEmpty();
    }

    @Test
    void theDeadLettersOfOneMatchedTopicMayNotGoWhereTheCleanRecordsOfAnotherDo() {
        assertThat(problems(
                        "sanitiser.input.pattern", "[a-z]",
                        "sanitiser.output.topic", "a.${topic}",
                        "sanitiser.dlq.topic", "${topic}.b"))
                .containsExactly("sanitiser.output.topic a.${topic} and sanitiser.dlq.topic ${topic}.b would mix"
                        + " clean and dead-letter records: a.b would take the clean records of b and the dead"
                        + " letters of a, both of which sanitiser.input.pattern [a-z] matches");
    }
}
