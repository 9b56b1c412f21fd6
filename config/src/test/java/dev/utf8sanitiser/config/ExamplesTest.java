package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every file in config/examples/ loads and validates as its host would load it. */
class ExamplesTest {

    /** Set by the module's surefire configuration; the fallback serves an IDE run from the module. */
    private static final Path EXAMPLES = Path.of(System.getProperty("configuration.examples", "examples"));

    private static final String SMT_PREFIX = "transforms.sanitise.";

    private static SanitiserConfig load(String name) {
        return SanitiserConfigLoader.withEnvironment(Map.of()).load(EXAMPLES.resolve(name));
    }

    @Test
    void everyExampleIsTested() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .containsExactlyInAnyOrder("dev.properties", "production.properties", "connect-smt.properties");
        }
    }

    @Test
    void devRunsOnAnEmbeddedBrokerWithTheStrictPolicySoItsDlqFills() {
        SanitiserConfig config = load("dev.properties");

        assertThat(config.passThroughProperties()).doesNotContainKey("bootstrap.servers");
        assertThat(config.policy()).isEqualTo(Policy.STRICT);
        assertThat(config.inputTopics()).containsExactly("orders", "payments");
        assertThat(config.outputTopicTemplate().render("orders")).isEqualTo("orders.clean");
    }

    @Test
    void productionIsStrictAndExactlyOnce() {
        SanitiserConfig config = load("production.properties");

        assertThat(config.policy()).isEqualTo(Policy.STRICT);
        assertThat(config.streamsProperties())
                .containsEntry("processing.guarantee", "exactly_once_v2")
                .containsKeys("bootstrap.servers", "application.id", "replication.factor")
                .doesNotContainKey("security.protocol");
        assertThat(config.contentRules().checked()).containsExactly(ContentRule.NUL, ContentRule.C1_CONTROL);
    }

    @Test
    void theSmtSnippetValidatesUnderItsPrefix() {
        Map<String, String> connector =
                SanitiserConfigLoader.readProperties(EXAMPLES.resolve("connect-smt.properties"));
        Map<String, String> smt = new HashMap<>();
        connector.forEach((key, value) -> {
            if (key.startsWith(SMT_PREFIX) && !key.equals(SMT_PREFIX + "type")) {
                smt.put(key.substring(SMT_PREFIX.length()), value);
            }
        });

        assertThat(List.of(connector.get("transforms").split(","))).contains("sanitise");
        assertThat(SanitiserConfig.validate(smt, Requirement.connect())).isEmpty();
        SanitiserConfig config = new SanitiserConfig(smt, Requirement.connect());
        assertThat(config.policy()).isEqualTo(Policy.STRICT);
        assertThat(config.onReject()).isEqualTo(RejectAction.FAIL);
        assertThat(config.payloadFormat()).isEqualTo(PayloadFormat.TEXT);
        assertThat(config.contentRules().checked()).containsExactly(ContentRule.NUL);
        assertThat(config.passThroughProperties()).isEmpty();
        assertThat(connector.get(SMT_PREFIX + "type")).isEqualTo("dev.utf8sanitiser.connect.Utf8Sanitise$Value");
    }
}
