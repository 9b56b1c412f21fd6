package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settings of start-up, shutdown and rebalances (docs/operations.md, "Start-up, shutdown and
 * outages"): the start-up timeout, and the session timeout the sanitiser gives Kafka Streams unless
 * told otherwise.
 */
class LifecycleSettingsTest {
    private static SanitiserConfig config(Map<String, Object> extra) {
        Map<String, Object> props = new HashMap<>(extra);
        props.put(SanitiserConfig.INPUT_TOPICS_CONFIG, "orders");
        return new SanitiserConfig(props);
    }

    @Test
    void theSessionTimeoutIsTenSecondsUnlessGiven() {
        assertThat(config(Map.of()).streamsProperties()).containsEntry("session.timeout.ms", 10_000);
        assertThat(config(Map.of("session.timeout.ms", "45000")).streamsProperties())
                .containsEntry("session.timeout.ms", "45000");
    }

    @Test
    void aConsumerPrefixedSessionTimeoutIsHandedOnBesideTheDefault() {
        // Kafka Streams gives the prefixed key precedence over the plain one.
        assertThat(config(Map.of("consumer.session.timeout.ms", "6000")).streamsProperties())
                .containsEntry("consumer.session.timeout.ms", "6000");
    }

    @Test
    void theStartupTimeoutIsThirtySecondsUnlessGiven() {
        assertThat(config(Map.of()).startupTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config(Map.of("sanitiser.startup.timeout.ms", "5000")).startupTimeout())
                .isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aStartupTimeoutOfZeroIsRefused() {
        List<ConfigProblem> problems = SanitiserConfig.validate(
                Map.of(SanitiserConfig.INPUT_TOPICS_CONFIG, "orders", "sanitiser.startup.timeout.ms", "0"),
                Requirement.all());

        assertThat(problems)
                .extracting(ConfigProblem::message)
                .singleElement()
                .asString()
                .contains("sanitiser.startup.timeout.ms");
    }
}
