package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentAction;
import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.core.content.Normalisation;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SanitiserConfigTest {

    private static Map<String, Object> props(String... keysAndValues) {
        Map<String, Object> props = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    private static Map<String, Object> withInput(String... keysAndValues) {
        Map<String, Object> props = props(keysAndValues);
        props.putIfAbsent(SanitiserConfig.INPUT_TOPICS_CONFIG, "orders");
        return props;
    }

    private static List<String> problems(Map<String, Object> props) {
        return SanitiserConfig.validate(props, Requirement.all()).stream()
                .map(ConfigProblem::message)
                .toList();
    }

    /** Values are parsed once, at construction: each accessor hands back the object built then. */
    @Test
    void eachValueIsParsedOnceAtConstruction() {
        SanitiserConfig config = new SanitiserConfig(withInput(
                SanitiserConfig.FIELDS_CONFIG, "customer.name,lines.sku",
                SanitiserConfig.HTTP_PORT_CONFIG, "9090"));

        assertThat(config.console()).isSameAs(config.console());
        assertThat(config.fields()).isSameAs(config.fields());
        assertThat(config.httpPort()).isSameAs(config.httpPort());
        assertThat(config.shutdownTimeout()).isSameAs(config.shutdownTimeout());
        assertThat(config.startupTimeout()).isSameAs(config.startupTimeout());
        assertThat(config.fields()).containsExactly("customer.name", "lines.sku");
        assertThat(config.httpPort()).isEqualTo(OptionalInt.of(9090));
    }

    @Test
    void theDefaultsAreThoseOfDlqMd() {
        SanitiserConfig config = new SanitiserConfig(withInput());

        assertThat(config.inputTopics()).containsExactly("orders");
        assertThat(config.inputPattern()).isEmpty();
        assertThat(config.outputTopicTemplate()).isEqualTo(TopicTemplate.parse("${topic}.clean"));
        assertThat(config.dlqTopicTemplate()).isEqualTo(TopicTemplate.parse("${topic}.dlq"));
        assertThat(config.policy()).isEqualTo(Policy.STRICT);
        assertThat(config.payloadFormat()).isEqualTo(PayloadFormat.TEXT);
        assertThat(config.checkKey()).isFalse();
        assertThat(config.checkHeaders()).isEmpty();
        assertThat(config.contentRules()).isEqualTo(ContentRules.none());
        assertThat(config.normalisation()).isEqualTo(Normalisation.NONE);
        assertThat(config.schemaRegistryUrl()).isEmpty();
        assertThat(config.schemaRegistry()).isEmpty();
        assertThat(config.dlqContextBytes()).isEqualTo(8);
        assertThat(config.httpPort()).isEqualTo(OptionalInt.of(8080));
        assertThat(config.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.onReject()).isEqualTo(RejectAction.FAIL);
        assertThat(config.fields()).isEmpty();
        assertThat(config.headerType()).isEqualTo(HeaderType.STRING);
    }

    @Test
    void parsesEveryKeyIntoItsTypedValue() {
        SanitiserConfig config = new SanitiserConfig(props(
                "sanitiser.input.pattern", "orders\\..*",
                "sanitiser.output.topic", "clean-${topic}",
                "sanitiser.dlq.topic", "sanitiser.dlq",
                "sanitiser.policy", "Repair",
                "sanitiser.payload.format", "avro",
                "sanitiser.check.key", "true",
                "sanitiser.check.headers", "trace-id, user",
                "sanitiser.content.rules", "NUL:reject, C1_CONTROL:strip",
                "sanitiser.normalisation", "nfc",
                "schema.registry.url", "http://registry:8081",
                "sanitiser.dlq.context.bytes", "16",
                "sanitiser.http.port", "-1",
                "sanitiser.shutdown.timeout.ms", "5000"));

        assertThat(config.inputTopics()).isEmpty();
        assertThat(config.inputPattern())
                .hasValueSatisfying(p -> assertThat(p.pattern()).isEqualTo("orders\\..*"));
        assertThat(config.outputTopicTemplate().render("orders.eu")).isEqualTo("clean-orders.eu");
        assertThat(config.dlqTopicTemplate().isFixed()).isTrue();
        assertThat(config.policy()).isEqualTo(Policy.REPAIR);
        assertThat(config.payloadFormat()).isEqualTo(PayloadFormat.AVRO);
        assertThat(config.checkKey()).isTrue();
        assertThat(config.checkHeaders()).containsExactly("trace-id", "user");
        assertThat(config.contentRules().actionFor(ContentRule.C1_CONTROL)).isEqualTo(ContentAction.STRIP);
        assertThat(config.normalisation()).isEqualTo(Normalisation.NFC);
        assertThat(config.schemaRegistryUrl()).contains("http://registry:8081");
        assertThat(config.schemaRegistry().orElseThrow().urls()).containsExactly(URI.create("http://registry:8081"));
        assertThat(config.dlqContextBytes()).isEqualTo(16);
        assertThat(config.httpPort()).isEmpty();
        assertThat(config.shutdownTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void parsesTheConnectKeys() {
        SanitiserConfig config = new SanitiserConfig(
                props(
                        "sanitiser.on.reject", "Route",
                        "sanitiser.fields", "customer.name, lines.sku",
                        "sanitiser.header.type", "bytes"),
                Requirement.connect());

        assertThat(config.onReject()).isEqualTo(RejectAction.ROUTE);
        assertThat(config.fields()).containsExactly("customer.name", "lines.sku");
        assertThat(config.headerType()).isEqualTo(HeaderType.BYTES);
    }

    @Test
    void acceptsTypedValuesAsWellAsStrings() {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", List.of("a", "b"));
        props.put("sanitiser.check.key", true);
        props.put("sanitiser.http.port", 0);

        SanitiserConfig config = new SanitiserConfig(props);

        assertThat(config.inputTopics()).containsExactly("a", "b");
        assertThat(config.checkKey()).isTrue();
        assertThat(config.httpPort()).isEqualTo(OptionalInt.of(0));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "sanitiser.input.topics        | a,b.c,d-e_f",
                "sanitiser.input.pattern       | orders\\.[a-z]+",
                "sanitiser.output.topic        | ${topic}-clean",
                "sanitiser.output.topic        | everything.clean",
                "sanitiser.dlq.topic           | dlq.${topic}",
                "sanitiser.policy              | strict",
                "sanitiser.policy              | REPLACE",
                "sanitiser.payload.format      | json",
                "sanitiser.check.key           | FALSE",
                "sanitiser.check.headers       | a, b",
                "sanitiser.content.rules       | NUL:reject,NOT_NORMALISED:reject,CR:allow",
                "sanitiser.normalisation       | NFKD",
                "schema.registry.url           | https://a:8081,https://b:8081",
                "schema.registry.url           | mock://tests",
                "basic.auth.credentials.source | user_info",
                "basic.auth.user.info          | user:pass:word",
                "bearer.auth.credentials.source | STATIC_TOKEN",
                "bearer.auth.token             | t0ken",
                "schema.registry.ssl.truststore.type | pkcs12",
                "schema.registry.ssl.keystore.type | JKS",
                "schema.registry.ssl.endpoint.identification.algorithm | HTTPS",
                "schema.registry.ssl.endpoint.identification.algorithm | ''",
                "http.connect.timeout.ms       | 0",
                "http.read.timeout.ms          | 100",
                "max.retries                   | 0",
                "retries.wait.ms               | 0",
                "retries.max.wait.ms           | 5",
                "sanitiser.registry.retry.timeout.ms | 0",
                "sanitiser.dlq.context.bytes   | 0",
                "sanitiser.dlq.context.bytes   | 64",
                "sanitiser.http.port           | 65535",
                "sanitiser.shutdown.timeout.ms | 0",
                "sanitiser.on.reject           | fail",
                "sanitiser.on.reject           | ROUTE",
                "sanitiser.fields              | name",
                "sanitiser.fields              | customer.name,lines.sku,tags",
                "sanitiser.header.type         | bytes",
            })
    void acceptsGoodValues(String key, String value) {
        Map<String, Object> props = withInput(key, value);
        if (key.equals(SchemaRegistryKeys.BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG)) {
            props.put(SchemaRegistryKeys.BASIC_AUTH_USER_INFO_CONFIG, "u:p");
        } else if (key.equals(SchemaRegistryKeys.BASIC_AUTH_USER_INFO_CONFIG)) {
            props.put(SchemaRegistryKeys.BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG, "USER_INFO");
        }
        if (key.equals(SanitiserConfig.INPUT_PATTERN_CONFIG)) {
            props.remove(SanitiserConfig.INPUT_TOPICS_CONFIG);
        }

        assertThat(problems(props)).isEmpty();
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "sanitiser.input.topics        | a,,b          | a topic name cannot be empty",
                "sanitiser.input.topics        | a,a           | 'a' is listed twice",
                "sanitiser.input.topics        | a b           | ' ' cannot appear in a topic name",
                "sanitiser.input.pattern       | orders.(      | not a regular expression: Unclosed group",
                "sanitiser.output.topic        | ${topic}      | would write every record back to the topic it was read from",
                "sanitiser.output.topic        | ${part}.clean | unknown placeholder '${part}'",
                "sanitiser.dlq.topic           | dlq/${topic}  | '/' cannot appear in a topic name",
                "sanitiser.policy              | strikt        | expected one of strict, replace, repair",
                "sanitiser.payload.format      | thrift        | expected one of text, json, avro, protobuf",
                "sanitiser.check.key           | yes           | Expected value to be either true or false",
                "sanitiser.check.headers       | a,,b          | empty header name",
                "sanitiser.check.headers       | a,a           | 'a' is listed twice",
                "sanitiser.content.rules       | NUL=reject    | 'NUL=reject' is not RULE:action",
                "sanitiser.content.rules       | NUL:drop      | unknown action 'drop'",
                "sanitiser.content.rules       | TAB:reject    | unknown rule 'TAB'",
                "sanitiser.normalisation       | NFX           | expected one of none, NFC, NFD, NFKC, NFKD",
                "schema.registry.url           | registry:8081 | is not an http or https URL",
                "schema.registry.url           | http://       | is not a URL",
                "basic.auth.credentials.source | SASL_INHERIT  | expected one of URL, USER_INFO",
                "basic.auth.user.info          | nocolon       | expected user:password",
                "basic.auth.user.info          | :nouser       | expected user:password",
                "bearer.auth.credentials.source | OAUTHBEARER  | expected one of STATIC_TOKEN",
                "schema.registry.ssl.truststore.location | /no/such/truststore.p12 | no such file",
                "schema.registry.ssl.keystore.location | /     | not a regular file",
                "schema.registry.ssl.truststore.type | PEM     | expected one of JKS, PKCS12",
                "schema.registry.ssl.endpoint.identification.algorithm | ldaps | expected https or nothing",
                "http.connect.timeout.ms       | -1            | Value must be at least 0",
                "max.retries                   | many          | Not a number of type INT",
                "retries.max.wait.ms           | -5            | Value must be at least 0",
                "sanitiser.registry.retry.timeout.ms | -1      | Value must be at least 0",
                "sanitiser.dlq.context.bytes   | 65            | Value must be no more than 64",
                "sanitiser.dlq.context.bytes   | eight         | Not a number of type INT",
                "sanitiser.http.port           | 65536         | Value must be no more than 65535",
                "sanitiser.http.port           | -2            | Value must be at least -1",
                "sanitiser.shutdown.timeout.ms | -1            | Value must be at least 0",
                "sanitiser.on.reject           | drop          | expected one of fail, route",
                "sanitiser.fields              | lines[3].sku  | 'lines[3].sku': write lines.sku (arrays and maps are looked through",
                "sanitiser.fields              | tags{color}   | 'tags{color}': write tags (arrays",
                "sanitiser.fields              | customer..name | 'customer..name' has an empty field name",
                "sanitiser.fields              | a,,b          | empty field path",
                "sanitiser.fields              | a,a           | 'a' is listed twice",
                "sanitiser.header.type         | json          | expected one of string, bytes",
            })
    void rejectsBadValuesWithOneMessageNamingKeyAndValue(String key, String value, String reason) {
        assertThat(problems(withInput(key, value)))
                .singleElement()
                .asString()
                .startsWith("Invalid value ")
                .contains(" for configuration " + key + ": ")
                .contains(reason);
    }

    @Test
    void reportsEveryBadValueOnceInDefinitionOrder() {
        Map<String, Object> props = withInput(
                "sanitiser.policy", "strikt",
                "sanitiser.payload.format", "xml",
                "sanitiser.content.rules", "NUL:drop,FOO:reject",
                "sanitiser.http.port", "http");

        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> new SanitiserConfig(props));

        assertThat(e.problems())
                .extracting(ConfigProblem::key)
                .containsExactly(
                        "sanitiser.policy",
                        "sanitiser.payload.format",
                        "sanitiser.content.rules",
                        "sanitiser.http.port");
        assertThat(e.messages())
                .containsExactly(
                        "Invalid value strikt for configuration sanitiser.policy: expected one of strict, replace,"
                                + " repair",
                        "Invalid value xml for configuration sanitiser.payload.format: expected one of text, json, avro, protobuf",
                        "Invalid value NUL:drop,FOO:reject for configuration sanitiser.content.rules: unknown action"
                                + " 'drop' (actions: allow, reject, strip, replace); unknown rule 'FOO' (rules: "
                                + ContentRulesSetting.ruleNames() + ")",
                        "Invalid value http for configuration sanitiser.http.port: Not a number of type INT");
        assertThat(e)
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("4 configuration problems:\n  Invalid value strikt");
    }

    @Test
    void aSingleProblemIsTheWholeMessage() {
        assertThatThrownBy(() -> new SanitiserConfig(withInput("sanitiser.policy", "strikt")))
                .isInstanceOf(SanitiserConfigException.class)
                .hasMessage(
                        "Invalid value strikt for configuration sanitiser.policy: expected one of strict, replace, repair");
    }

    @Test
    void exactlyOneInputMustBeSet() {
        assertThat(problems(props("sanitiser.input.topics", "a", "sanitiser.input.pattern", "a.*")))
                .containsExactly("Set exactly one of sanitiser.input.topics and sanitiser.input.pattern; both are set");
        assertThat(problems(props()))
                .containsExactly("Set exactly one of sanitiser.input.topics and sanitiser.input.pattern; neither is"
                        + " set, so there is nothing to read");
        assertThat(problems(props("sanitiser.input.topics", ""))).hasSize(1);
    }

    @Test
    void anEmptyOptionalValueIsUnset() {
        SanitiserConfig config =
                new SanitiserConfig(withInput("sanitiser.input.pattern", "", "schema.registry.url", ""));

        assertThat(config.inputPattern()).isEmpty();
        assertThat(config.schemaRegistryUrl()).isEmpty();
        assertThat(problems(props("sanitiser.input.pattern", ""))).hasSize(1);
        assertThat(problems(withInput("sanitiser.payload.format", "avro", "schema.registry.url", "")))
                .containsExactly("Missing schema.registry.url: it is required when sanitiser.payload.format is avro");
    }

    @Test
    void theSmtNeedsNoInput() {
        assertThat(SanitiserConfig.validate(props(), Requirement.connect())).isEmpty();
        assertThat(new SanitiserConfig(props(), Requirement.connect()).inputTopics())
                .isEmpty();
        assertThat(SanitiserConfig.validate(
                        props("sanitiser.input.topics", "a", "sanitiser.input.pattern", "a.*"), Requirement.connect()))
                .hasSize(1);
    }

    @Test
    void protobufNeedsARegistryAndChecksProtobufsStringsUnlessToldToCheckAll() {
        assertThat(problems(withInput("sanitiser.payload.format", "protobuf")))
                .containsExactly(
                        "Missing schema.registry.url: it is required when sanitiser.payload.format is protobuf");
        SanitiserConfig config = new SanitiserConfig(
                withInput("sanitiser.payload.format", "protobuf", "schema.registry.url", "http://localhost:1"));
        assertThat(config.payloadFormat()).isEqualTo(PayloadFormat.PROTOBUF);
        assertThat(config.protobufCheckAllStrings()).isFalse();
        assertThat(new SanitiserConfig(withInput(
                                "sanitiser.payload.format",
                                "protobuf",
                                "schema.registry.url",
                                "http://localhost:1",
                                "sanitiser.protobuf.check.all.strings",
                                "true"))
                        .protobufCheckAllStrings())
                .isTrue();
    }

    @Test
    void avroNeedsARegistryUnlessTheEmbeddedOneIsStarted() {
        Map<String, Object> avro = withInput("sanitiser.payload.format", "avro");

        assertThat(problems(avro))
                .containsExactly("Missing schema.registry.url: it is required when sanitiser.payload.format is avro");
        assertThat(SanitiserConfig.validate(avro, Requirement.connect())).hasSize(1);

        SanitiserConfig embedded = new SanitiserConfig(avro, Requirement.embedded());
        assertThat(embedded.schemaRegistryUrl()).isEmpty();

        SanitiserConfig started = embedded.withOverrides(Map.of("schema.registry.url", "http://localhost:40123"));
        assertThat(started.schemaRegistryUrl()).contains("http://localhost:40123");
        assertThat(started.payloadFormat()).isEqualTo(PayloadFormat.AVRO);
    }

    @Test
    void aBadFormatIsNotReportedTwice() {
        assertThat(problems(withInput("sanitiser.payload.format", "avroo"))).hasSize(1);
    }

    @Test
    void outputAndDeadLetterTopicsMustDiffer() {
        assertThat(problems(withInput("sanitiser.output.topic", "x.${topic}", "sanitiser.dlq.topic", "x.${topic}")))
                .containsExactly("sanitiser.output.topic and sanitiser.dlq.topic are both x.${topic}; clean and"
                        + " dead-letter records must go to different topics");
    }

    @Test
    void noListedInputMayReceiveOutput() {
        assertThat(problems(props("sanitiser.input.topics", "orders,orders.clean")))
                .containsExactly("Invalid value ${topic}.clean for configuration sanitiser.output.topic: records"
                        + " from orders would go to orders.clean, which is an input topic");
        assertThat(problems(props("sanitiser.input.topics", "a,b", "sanitiser.dlq.topic", "b")))
                .containsExactly("Invalid value b for configuration sanitiser.dlq.topic: records from a would go to"
                        + " b, which is an input topic; records from b would go to b, which is an input topic");
    }

    @Test
    void noListedInputMayRenderTooLongAName() {
        String input = "t".repeat(245);

        assertThat(problems(props("sanitiser.input.topics", input)))
                .singleElement()
                .asString()
                .startsWith("Invalid value ${topic}.clean for configuration sanitiser.output.topic: '${topic}.clean'"
                        + " renders input topic")
                .endsWith("as a name of 251 characters, more than 249");
    }

    @Test
    void aPatternMayNotMatchAFixedOutput() {
        assertThat(problems(
                        props("sanitiser.input.pattern", "events\\.[a-z]+", "sanitiser.output.topic", "events.clean")))
                .containsExactly("Invalid value events.clean for configuration sanitiser.output.topic:"
                        + " sanitiser.input.pattern matches it, so the sanitiser would read its own output");
    }

    @Test
    void anUnknownSanitiserKeyIsATypoWithASuggestion() {
        assertThat(problems(withInput("sanitiser.polcy", "replace")))
                .containsExactly("Unknown configuration sanitiser.polcy; did you mean sanitiser.policy?");
        assertThat(problems(withInput("sanitiser.frobnicate", "yes")))
                .containsExactly("Unknown configuration sanitiser.frobnicate; the sanitiser defines no such key"
                        + " (docs/configuration.md)");
    }

    @Test
    void otherKeysPassThroughUnchanged() {
        SanitiserConfig config = new SanitiserConfig(withInput(
                "bootstrap.servers", "broker:9092",
                "application.id", "sanitiser",
                "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required;",
                "schema.registry.url", "http://registry:8081",
                "basic.auth.credentials.source", "USER_INFO",
                "basic.auth.user.info", "u:p",
                "something.unknown", "kept"));

        assertThat(config.passThroughProperties())
                .containsOnly(
                        Map.entry("bootstrap.servers", "broker:9092"),
                        Map.entry("application.id", "sanitiser"),
                        Map.entry(
                                "sasl.jaas.config",
                                "org.apache.kafka.common.security.plain.PlainLoginModule required;"),
                        Map.entry("something.unknown", "kept"));
        assertThatThrownBy(() -> config.passThroughProperties().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void streamsPropertiesDefaultToExactlyOnce() {
        SanitiserConfig config = new SanitiserConfig(withInput("bootstrap.servers", "broker:9092"));

        assertThat(config.streamsProperties())
                .containsOnly(
                        Map.entry("bootstrap.servers", "broker:9092"),
                        Map.entry("processing.guarantee", "exactly_once_v2"),
                        Map.entry("session.timeout.ms", 10_000));
        assertThat(config.passThroughProperties()).doesNotContainKey("processing.guarantee");
    }

    @Test
    void streamsPropertiesKeepAGivenGuarantee() {
        SanitiserConfig config = new SanitiserConfig(withInput("processing.guarantee", "at_least_once"));

        assertThat(config.streamsProperties()).containsEntry("processing.guarantee", "at_least_once");
    }

    @Test
    void registryCredentialsAreNotPrinted() {
        assertThat(problems(withInput("schema.registry.url", "ftp://user:secret@registry")))
                .singleElement()
                .asString()
                .doesNotContain("secret")
                .contains("ftp://***@registry");
    }

    @Test
    void everyKeyIsDocumentedAndGrouped() {
        ConfigDef def = SanitiserConfig.configDef();

        assertThat(def.configKeys().values()).allSatisfy(key -> {
            assertThat(key.documentation).as(key.name).isNotBlank();
            assertThat(key.group).as(key.name).isNotBlank();
            assertThat(key.name)
                    .as("an environment variable name maps back to exactly this key")
                    .matches("[a-z.]+");
            assertThat(key.name.startsWith(SanitiserConfig.PREFIX) || key.group.equals("Schema Registry"))
                    .as("%s: only the registry client's keys keep Confluent's names", key.name)
                    .isTrue();
        });
        assertThat(def.groups())
                .containsExactly("Topics", "Checks", "Content", "Schema Registry", "Operations", "Console", "Connect");
    }

    @Test
    void theDefinitionsHandedOutAreACopy() {
        SanitiserConfig.configDef().define("sanitiser.extra", ConfigDef.Type.STRING, ConfigDef.Importance.LOW, "x");

        assertThat(SanitiserConfig.definedKeys()).doesNotContain("sanitiser.extra");
        // The Connect group is counted on its own, below.
        assertThat(keysOutside(SanitiserConfig.CONNECT_GROUP))
                .contains("sanitiser.policy", "schema.registry.url")
                .contains(
                        SanitiserConfig.CIRCUIT_BREAKER_SHARE_CONFIG,
                        SanitiserConfig.CIRCUIT_BREAKER_WINDOW_CONFIG,
                        SanitiserConfig.CIRCUIT_BREAKER_MIN_CONFIG)
                .hasSize(47);
    }

    @Test
    void theCircuitBreakerIsOffUnlessAShareBelowOneIsSet() {
        Map<String, Object> props = new HashMap<>(Map.of("sanitiser.input.topics", "in"));
        assertThat(new SanitiserConfig(props).circuitBreaker()).isEqualTo(CircuitBreakerSettings.OFF);
        assertThat(CircuitBreakerSettings.OFF.enabled()).isFalse();

        props.put(SanitiserConfig.CIRCUIT_BREAKER_SHARE_CONFIG, "0.5");
        props.put(SanitiserConfig.CIRCUIT_BREAKER_WINDOW_CONFIG, "200");
        props.put(SanitiserConfig.CIRCUIT_BREAKER_MIN_CONFIG, "500");
        CircuitBreakerSettings on = new SanitiserConfig(props).circuitBreaker();
        assertThat(on.enabled()).isTrue();
        assertThat(on.deadLetterShare()).isEqualTo(0.5);
        assertThat(on.decidingRecords()).as("at most the window").isEqualTo(200);

        props.put(SanitiserConfig.CIRCUIT_BREAKER_SHARE_CONFIG, "1.5");
        assertThatThrownBy(() -> new SanitiserConfig(props))
                .isInstanceOf(SanitiserConfigException.class)
                .hasMessageContaining(SanitiserConfig.CIRCUIT_BREAKER_SHARE_CONFIG);
    }

    @Test
    void theConnectGroupHoldsTheKeysOfTheSmtAlone() {
        assertThat(SanitiserConfig.configDef().configKeys().values().stream()
                        .filter(key -> SanitiserConfig.CONNECT_GROUP.equals(key.group))
                        .map(key -> key.name))
                .containsExactly("sanitiser.on.reject", "sanitiser.fields", "sanitiser.header.type");
    }

    private static Set<String> keysOutside(String group) {
        return SanitiserConfig.configDef().configKeys().values().stream()
                .filter(key -> !group.equals(key.group))
                .map(key -> key.name)
                .collect(Collectors.toSet());
    }

    @Test
    void editDistanceCountsSingleCharacterEdits() {
        assertThat(Nearest.editDistance("sanitiser.polcy", "sanitiser.policy")).isEqualTo(1);
        assertThat(Nearest.editDistance("abc", "abc")).isZero();
        assertThat(Nearest.editDistance("", "abc")).isEqualTo(3);
        assertThat(Nearest.editDistance("kitten", "sitting")).isEqualTo(3);
    }
}
