package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code num.stream.threads=0} was accepted: nothing processed, yet /health/live answered 200. */
class StreamThreadsTest {
    private static List<String> problems(Object threads) {
        return SanitiserConfig.validate(
                        Map.of("sanitiser.input.topics", "orders", "num.stream.threads", threads), Requirement.all())
                .stream()
                .map(ConfigProblem::message)
                .toList();
    }

    @Test
    void noStreamThreadIsRefused() {
        assertThat(problems("0"))
                .containsExactly("Invalid value 0 for configuration num.stream.threads: the sanitiser needs at least"
                        + " one stream thread, or it reads nothing");
        assertThat(problems(-2))
                .singleElement()
                .asString()
                .startsWith("Invalid value -2 for configuration num.stream.threads:");
    }

    @Test
    void aValueThatIsNoNumberIsRefused() {
        assertThat(problems("two"))
                .containsExactly("Invalid value two for configuration num.stream.threads: Not a number of type INT");
    }

    @Test
    void oneOrMoreThreadsAreFine() {
        assertThat(problems("1")).isEmpty();
        assertThat(problems(8)).isEmpty();
        assertThat(problems(" 4 ")).isEmpty();
    }

    @Test
    void theEnvironmentIsNamed() {
        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> SanitiserConfigLoader.withEnvironment(
                                Map.of("KAFKA_NUM_STREAM_THREADS", "0"))
                        .load(Map.of("sanitiser.input.topics", "orders")));

        assertThat(e.messages())
                .containsExactly(
                        "Invalid value 0 for configuration num.stream.threads: the sanitiser needs at least"
                                + " one stream thread, or it reads nothing (from environment variable KAFKA_NUM_STREAM_THREADS)");
    }
}
