package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.SanitiserConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** What each plugin takes from the shared definitions, and how it reports what it does not. */
class ConfigurationTest {

    private static SanitiserConfigException configureFails(Map<String, Object> props) {
        return catchThrowableOfType(
                SanitiserConfigException.class, () -> new Utf8Sanitise.Value<SinkRecord>().configure(props));
    }

    @Test
    void theTransformationTakesTheSharedKeysButThoseOfTheStreamsApplicationAndTheKey() {
        assertThat(Utf8Sanitise.CONFIG_DEF.configKeys().keySet())
                .containsExactlyInAnyOrder(with(
                        REGISTRY_KEYS,
                        "sanitiser.dlq.topic",
                        "sanitiser.json.surrogate.escapes",
                        "sanitiser.protobuf.check.all.strings",
                        "sanitiser.policy",
                        "sanitiser.payload.format",
                        "sanitiser.content.rules",
                        "sanitiser.normalisation",
                        "sanitiser.dlq.context.bytes",
                        "sanitiser.on.reject",
                        "sanitiser.fields",
                        "sanitiser.header.type"));
    }

    @Test
    void thePredicateTakesWhatToCheckButNotWhatToDo() {
        assertThat(IsWellFormedUtf8.CONFIG_DEF.configKeys().keySet())
                .containsExactlyInAnyOrder(with(
                        REGISTRY_KEYS,
                        "sanitiser.payload.format",
                        "sanitiser.json.surrogate.escapes",
                        "sanitiser.protobuf.check.all.strings",
                        "sanitiser.check.key",
                        "sanitiser.content.rules",
                        "sanitiser.normalisation",
                        "sanitiser.fields"));
    }

    /** Both plugins take every registry client setting: Avro values need them. */
    private static final List<String> REGISTRY_KEYS = SanitiserConfig.configDef().configKeys().values().stream()
            .filter(key -> "Schema Registry".equals(key.group))
            .map(key -> key.name)
            .toList();

    private static String[] with(List<String> some, String... more) {
        List<String> all = new ArrayList<>(some);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void everySharedKeyIsEitherTakenOrRefusedWithAReason() {
        for (Map<String, String> notTaken : List.of(ConnectKeys.NOT_FOR_TRANSFORM, ConnectKeys.NOT_FOR_PREDICATE)) {
            ConfigDef def = ConnectKeys.configDef(notTaken);
            for (String key : SanitiserConfig.definedKeys()) {
                assertThat(def.names().contains(key) ^ notTaken.containsKey(key))
                        .as(key)
                        .isTrue();
            }
        }
    }

    @Test
    void theDefinitionsAreTheSharedOnesUnchanged() {
        ConfigDef.ConfigKey shared = SanitiserConfig.configDef().configKeys().get("sanitiser.policy");
        ConfigDef.ConfigKey published = Utf8Sanitise.CONFIG_DEF.configKeys().get("sanitiser.policy");

        assertThat(published.documentation).isEqualTo(shared.documentation);
        assertThat(published.defaultValue).isEqualTo("strict");
        assertThat(published.validator.toString()).isEqualTo("strict, replace, repair");
    }

    @Test
    void connectsOwnKeysPassQuietly() {
        Utf8Sanitise<SinkRecord> smt = new Utf8Sanitise.Value<>();

        smt.configure(props("type", Utf8Sanitise.Value.class.getName(), "version", "0.1.0"));

        assertThat(smt.version()).isNotBlank();
    }

    @Test
    void everyBadValueIsReportedAtOnce() {
        SanitiserConfigException e = configureFails(props(
                "sanitiser.policy", "strikt",
                "sanitiser.on.reject", "drop",
                "sanitiser.fields", "lines[0].sku"));

        assertThat(e).isInstanceOf(ConfigException.class);
        assertThat(e.messages())
                .containsExactly(
                        "Invalid value strikt for configuration sanitiser.policy: expected one of strict, replace,"
                                + " repair",
                        "Invalid value drop for configuration sanitiser.on.reject: expected one of fail, route",
                        "Invalid value lines[0].sku for configuration sanitiser.fields: 'lines[0].sku': write"
                                + " lines.sku (arrays and maps are looked through: every element is checked)");
    }

    @Test
    void aKeyOfTheStreamsApplicationIsRefusedWithTheReason() {
        assertThat(configureFails(props("sanitiser.output.topic", "clean.${topic}", "sanitiser.check.key", "true"))
                        .messages())
                .containsExactlyInAnyOrder(
                        "sanitiser.output.topic does not apply to dev.utf8sanitiser.connect.Utf8Sanitise$Value: a"
                                + " record keeps its topic (Kafka's RegexRouter renames topics)",
                        "sanitiser.check.key does not apply to dev.utf8sanitiser.connect.Utf8Sanitise$Value: the key"
                                + " is checked by Utf8Sanitise$Key, the value by Utf8Sanitise$Value; chain both for"
                                + " both");
    }

    @Test
    void aKeyWithoutItsPrefixIsCaught() {
        assertThat(configureFails(props("policy", "replace")).messages())
                .containsExactly("Unknown configuration policy for dev.utf8sanitiser.connect.Utf8Sanitise$Value; did"
                        + " you mean sanitiser.policy?");
        assertThat(configureFails(props("sanitiser.polcy", "replace")).messages())
                .containsExactly("Unknown configuration sanitiser.polcy; did you mean sanitiser.policy?");
    }

    @Test
    void avroValuesNeedARegistry() {
        assertThat(configureFails(props("sanitiser.payload.format", "avro")).messages())
                .singleElement()
                .asString()
                .contains("schema.registry.url");
    }

    @Test
    void thePredicateRefusesWhatToDo() {
        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> new IsWellFormedUtf8<SinkRecord>()
                        .configure(props("sanitiser.policy", "replace")));

        assertThat(e.messages())
                .containsExactly("sanitiser.policy does not apply to dev.utf8sanitiser.connect.IsWellFormedUtf8: the"
                        + " predicate only answers whether a record would pass unchanged");
    }
}
