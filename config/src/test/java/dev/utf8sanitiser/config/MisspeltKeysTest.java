package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keys spelt the American way ({@code sanitizer.policy=repair}) were passed through as unknown
 * Kafka settings and ignored, and the policy stayed strict.
 */
class MisspeltKeysTest {
    private static List<String> problems(Map<String, Object> props) {
        return SanitiserConfig.validate(props, Requirement.all()).stream()
                .map(ConfigProblem::message)
                .toList();
    }

    @Test
    void theAmericanSpellingIsAMisspellingWithTheKeyMeant() {
        assertThat(problems(Map.of("sanitiser.input.topics", "orders", "sanitizer.policy", "repair")))
                .containsExactly("Unknown configuration sanitizer.policy; did you mean sanitiser.policy?");
        assertThat(problems(Map.of("sanitiser.input.topics", "orders", "sanitizer.normalization", "nfc")))
                .containsExactly(
                        "Unknown configuration sanitizer.normalization; did you mean" + " sanitiser.normalisation?");
    }

    @Test
    void anAmericanKeyLikeNoneIsStillReported() {
        assertThat(problems(Map.of("sanitiser.input.topics", "orders", "sanitizer.frobnicate", "yes")))
                .containsExactly("Unknown configuration sanitizer.frobnicate; the sanitiser's keys start with"
                        + " sanitiser., with an s (docs/configuration.md)");
    }

    @Test
    void theSmtChecksItToo() {
        assertThat(SanitiserConfig.validate(Map.of("sanitizer.policy", "repair"), Requirement.connect()))
                .extracting(ConfigProblem::message)
                .containsExactly("Unknown configuration sanitizer.policy; did you mean sanitiser.policy?");
    }

    @Test
    void anEnvironmentVariableSpeltTheAmericanWayIsReported() {
        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> SanitiserConfigLoader.withEnvironment(
                                Map.of("SANITIZER_POLICY", "repair"))
                        .load(Map.of("sanitiser.input.topics", "orders")));

        assertThat(e.messages())
                .containsExactly("Unknown environment variable SANITIZER_POLICY: it sets no sanitiser key; did you"
                        + " mean SANITISER_POLICY?");
    }

    @Test
    void throughKafkasPrefixTooTheVariableIsNamed() {
        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> SanitiserConfigLoader.withEnvironment(
                                Map.of("KAFKA_SANITIZER_POLICY", "repair"))
                        .load(Map.of("sanitiser.input.topics", "orders")));

        assertThat(e.messages())
                .containsExactly("Unknown configuration sanitizer.policy; did you mean sanitiser.policy? (from"
                        + " environment variable KAFKA_SANITIZER_POLICY)");
    }
}
