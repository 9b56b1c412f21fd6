package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class EnvironmentOverridesTest {

    @ParameterizedTest(name = "{0} sets {1}")
    @CsvSource({
        "SANITISER_POLICY, sanitiser.policy",
        "SANITISER_INPUT_TOPICS, sanitiser.input.topics",
        "SANITISER_DLQ_CONTEXT_BYTES, sanitiser.dlq.context.bytes",
        "SCHEMA_REGISTRY_URL, schema.registry.url",
        "KAFKA_BOOTSTRAP_SERVERS, bootstrap.servers",
        "KAFKA_APPLICATION_ID, application.id",
        "KAFKA_PROCESSING_GUARANTEE, processing.guarantee",
        "KAFKA_SASL_JAAS_CONFIG, sasl.jaas.config",
        "KAFKA_ACKS, acks",
        "KAFKA_PRODUCER_LINGER_MS, producer.linger.ms",
    })
    void upperCaseWithUnderscoresForDots(String variable, String key) {
        EnvironmentOverrides overrides = EnvironmentOverrides.from(Map.of(variable, "v"));

        assertThat(overrides.properties()).containsExactly(Map.entry(key, "v"));
        assertThat(overrides.variableSetting(key)).contains(variable);
        assertThat(overrides.problems()).isEmpty();
        assertThat(EnvironmentOverrides.variableFor(key)).isEqualTo(variable);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "PATH",
                "HOME",
                "KAFKA_HOME",
                "KAFKA_OPTS",
                "KAFKA_HEAP_OPTS",
                "KAFKA_JMX_OPTS",
                "KAFKA_LOG4J_OPTS",
                "KAFKA_",
                "KAFKA__X",
                "KAFKA_X_",
                "sanitiser_policy",
                "Sanitiser_Policy",
                "SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO",
                "SCHEMA_REGISTRY_HOST_NAME",
            })
    void otherVariablesAreIgnored(String variable) {
        EnvironmentOverrides overrides = EnvironmentOverrides.from(Map.of(variable, "v"));

        assertThat(overrides.properties()).isEmpty();
        assertThat(overrides.problems()).isEmpty();
    }

    @Test
    void aSanitiserVariableThatNamesNoKeyIsATypo() {
        assertThat(EnvironmentOverrides.from(Map.of("SANITISER_POLCY", "replace"))
                        .problems())
                .extracting(ConfigProblem::message)
                .containsExactly("Unknown environment variable SANITISER_POLCY: it sets no sanitiser key; did you"
                        + " mean SANITISER_POLICY?");
        assertThat(EnvironmentOverrides.from(Map.of("SANITISER_FROBNICATE", "1"))
                        .problems())
                .extracting(ConfigProblem::message)
                .containsExactly("Unknown environment variable SANITISER_FROBNICATE: it sets no sanitiser key");
    }

    @Test
    void aKafkaVariableCannotSetTheSanitisersOwnKeys() {
        EnvironmentOverrides overrides = EnvironmentOverrides.from(
                Map.of("KAFKA_SANITISER_POLICY", "replace", "KAFKA_SCHEMA_REGISTRY_URL", "http://r"));

        assertThat(overrides.properties()).isEmpty();
        assertThat(overrides.problems())
                .extracting(ConfigProblem::message)
                .containsExactly(
                        "Environment variable KAFKA_SANITISER_POLICY would set sanitiser.policy, which is the"
                                + " sanitiser's own; use SANITISER_POLICY",
                        "Environment variable KAFKA_SCHEMA_REGISTRY_URL would set schema.registry.url, which is the"
                                + " sanitiser's own; use SCHEMA_REGISTRY_URL");
    }

    @Test
    void everyDefinedKeyCanBeSetFromTheEnvironment() {
        for (String key : SanitiserConfig.definedKeys()) {
            assertThat(EnvironmentOverrides.from(Map.of(EnvironmentOverrides.variableFor(key), "v"))
                            .properties())
                    .as(key)
                    .containsExactly(Map.entry(key, "v"));
        }
    }

    @Property
    void everyDottedKafkaPropertyRoundTrips(@ForAll("kafkaProperties") String property) {
        EnvironmentOverrides overrides =
                EnvironmentOverrides.from(Map.of(EnvironmentOverrides.variableFor(property), "v"));

        assertThat(overrides.properties()).containsExactly(Map.entry(property, "v"));
    }

    @Provide
    Arbitrary<String> kafkaProperties() {
        Arbitrary<String> word = Arbitraries.strings()
                .withCharRange('a', 'z')
                .withCharRange('0', '9')
                .ofMinLength(1)
                .ofMaxLength(8);
        return word.list()
                .ofMinSize(1)
                .ofMaxSize(5)
                .map(words -> String.join(".", words))
                .filter(p -> !SanitiserConfig.definedKeys().contains(p))
                .filter(p ->
                        !EnvironmentOverrides.IGNORED_KAFKA_VARIABLES.contains(EnvironmentOverrides.variableFor(p)));
    }
}
