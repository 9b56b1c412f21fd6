package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.utf8sanitiser.config.SchemaRegistrySettings.BasicAuthSource;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaRegistrySettingsTest {
    private static final String URL = "https://registry-1:8081";

    @TempDir
    Path dir;

    private static Map<String, Object> props(String... keysAndValues) {
        Map<String, Object> props = new HashMap<>();
        props.put("schema.registry.url", URL);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    private static List<String> problems(Map<String, Object> props) {
        return catchThrowableOfType(SanitiserConfigException.class, () -> SchemaRegistrySettings.from(props))
                .messages();
    }

    private Path file(String name) throws IOException {
        return Files.writeString(dir.resolve(name), "not really a key store");
    }

    @Test
    void theDefaultsRetryForAMinuteWithShorterTimeoutsThanConfluents() {
        SchemaRegistrySettings settings = SchemaRegistrySettings.from(props());

        assertThat(settings.urls()).containsExactly(URI.create(URL));
        assertThat(settings.basicAuthSource()).isEqualTo(BasicAuthSource.URL);
        assertThat(settings.basicUserInfo(URI.create(URL))).isEmpty();
        assertThat(settings.bearerToken()).isEmpty();
        assertThat(settings.trustStore()).isEmpty();
        assertThat(settings.keyStore()).isEmpty();
        assertThat(settings.keyPassword()).isEmpty();
        assertThat(settings.hostNameCheck()).isTrue();
        assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.maxRetries()).isEqualTo(10);
        assertThat(settings.retryWait()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.retryMaxWait()).isEqualTo(Duration.ofSeconds(20));
        assertThat(settings.retryTimeout()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void parsesEveryKey() throws IOException {
        Path trust = file("trust.p12");
        Path keys = file("keys.jks");
        SchemaRegistrySettings settings = SchemaRegistrySettings.from(props(
                "schema.registry.url", " https://a:8081 , https://b:8082/prefix ",
                "basic.auth.credentials.source", "user_info",
                "basic.auth.user.info", "alice:s3cret:with:colons",
                "schema.registry.ssl.truststore.location", trust.toString(),
                "schema.registry.ssl.truststore.password", "tpw",
                "schema.registry.ssl.truststore.type", "pkcs12",
                "schema.registry.ssl.keystore.location", keys.toString(),
                "schema.registry.ssl.keystore.password", "kpw",
                "schema.registry.ssl.key.password", "keypw",
                "schema.registry.ssl.endpoint.identification.algorithm", "",
                "http.connect.timeout.ms", "100",
                "http.read.timeout.ms", "200",
                "max.retries", "2",
                "retries.wait.ms", "5",
                "retries.max.wait.ms", "50",
                "sanitiser.registry.retry.timeout.ms", "1000"));

        assertThat(settings.urls()).containsExactly(URI.create("https://a:8081"), URI.create("https://b:8082/prefix"));
        assertThat(settings.basicAuthSource()).isEqualTo(BasicAuthSource.USER_INFO);
        assertThat(settings.basicUserInfo(URI.create("https://a:8081")))
                .map(Password::value)
                .contains("alice:s3cret:with:colons");
        assertThat(settings.trustStore()).hasValueSatisfying(store -> {
            assertThat(store.location()).isEqualTo(trust);
            assertThat(store.type()).isEqualTo("PKCS12");
            assertThat(store.password()).map(Password::value).contains("tpw");
        });
        assertThat(settings.keyStore()).hasValueSatisfying(store -> {
            assertThat(store.location()).isEqualTo(keys);
            assertThat(store.type()).isEqualTo("JKS");
            assertThat(store.password()).map(Password::value).contains("kpw");
        });
        assertThat(settings.keyPassword()).map(Password::value).contains("keypw");
        assertThat(settings.hostNameCheck()).isFalse();
        assertThat(settings.connectTimeout()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.readTimeout()).isEqualTo(Duration.ofMillis(200));
        assertThat(settings.maxRetries()).isEqualTo(2);
        assertThat(settings.retryWait()).isEqualTo(Duration.ofMillis(5));
        assertThat(settings.retryMaxWait()).isEqualTo(Duration.ofMillis(50));
        assertThat(settings.retryTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void underTheUrlSourceEachUrlCarriesItsOwnCredentials() {
        URI withCredentials = URI.create("https://bob:p%40ss@a:8081");
        URI without = URI.create("https://b:8081");
        SchemaRegistrySettings settings =
                SchemaRegistrySettings.from(props("schema.registry.url", withCredentials + "," + without));

        assertThat(settings.basicUserInfo(withCredentials)).map(Password::value).contains("bob:p@ss");
        assertThat(settings.basicUserInfo(without)).isEmpty();
        assertThat(settings.toString()).doesNotContain("p%40ss", "bob").contains("https://***@a:8081");
    }

    @Test
    void userInfoNeedsTheUserInfoSourceAndTheSourceNeedsUserInfo() {
        assertThat(problems(props("basic.auth.credentials.source", "USER_INFO")))
                .containsExactly("Missing basic.auth.user.info: it is required when basic.auth.credentials.source is"
                        + " USER_INFO");
        assertThat(problems(props("basic.auth.user.info", "alice:secret")))
                .containsExactly("basic.auth.user.info is set but basic.auth.credentials.source is URL, which takes"
                        + " the credentials from schema.registry.url; set basic.auth.credentials.source=USER_INFO");
    }

    @Test
    void basicAndBearerAuthenticationExcludeEachOther() {
        assertThat(problems(props(
                        "basic.auth.credentials.source", "USER_INFO",
                        "basic.auth.user.info", "alice:secret",
                        "bearer.auth.token", "t0ken")))
                .containsExactly("Both HTTP Basic credentials (basic.auth.credentials.source=USER_INFO) and"
                        + " bearer.auth.token are set for the Schema Registry; set one of them");
        assertThat(problems(
                        props("schema.registry.url", "https://alice:secret@registry:8081", "bearer.auth.token", "t")))
                .singleElement()
                .asString()
                .startsWith("Both HTTP Basic credentials (basic.auth.credentials.source=URL)");
        assertThat(SchemaRegistrySettings.from(props("bearer.auth.token", "t0ken"))
                        .bearerToken()
                        .map(Password::value))
                .contains("t0ken");
    }

    @Test
    void aKeyStoreNeedsItsPassword() throws IOException {
        Path keys = file("keys.p12");

        assertThat(problems(props("schema.registry.ssl.keystore.location", keys.toString())))
                .containsExactly("Missing schema.registry.ssl.keystore.password: it is required when"
                        + " schema.registry.ssl.keystore.location is set");
    }

    @Test
    void aLookupMustHaveATimeLimit() {
        assertThat(problems(props("http.read.timeout.ms", "0", "sanitiser.registry.retry.timeout.ms", "0")))
                .containsExactly("http.read.timeout.ms and sanitiser.registry.retry.timeout.ms are both 0, which"
                        + " leaves a registry lookup without any time limit; set one of them");
        assertThat(SchemaRegistrySettings.from(props("http.read.timeout.ms", "0"))
                        .retryTimeout())
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(SchemaRegistrySettings.from(props("sanitiser.registry.retry.timeout.ms", "0"))
                        .readTimeout())
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void reportsEveryProblemAtOnceAndNoSecret() {
        SanitiserConfigException e = catchThrowableOfType(
                SanitiserConfigException.class,
                () -> SchemaRegistrySettings.from(props(
                        "schema.registry.url", "ftp://alice:topsecret@registry",
                        "basic.auth.user.info", "topsecret",
                        "bearer.auth.token", "tokensecret",
                        "schema.registry.ssl.truststore.location",
                                dir.resolve("absent.p12").toString(),
                        "max.retries", "-1")));

        assertThat(e.problems())
                .extracting(ConfigProblem::key)
                .containsExactlyInAnyOrder(
                        "schema.registry.url",
                        "basic.auth.user.info",
                        "schema.registry.ssl.truststore.location",
                        "max.retries");
        assertThat(e.getMessage())
                .contains("Invalid value [hidden] for configuration basic.auth.user.info: expected user:password")
                .contains("absent.p12 for configuration schema.registry.ssl.truststore.location: no such file")
                .doesNotContain("topsecret", "tokensecret");
    }

    @Test
    void aPlainMapNeedsAUrlAndIsReadForRegistryKeysOnly() {
        Map<String, Object> serdeConfig = new HashMap<>(Map.of(
                "sanitiser.policy", "not a policy",
                "schema.registry.unknown.thing", "ignored here",
                "bootstrap.servers", "b:9092"));

        assertThat(catchThrowableOfType(SanitiserConfigException.class, () -> SchemaRegistrySettings.from(serdeConfig))
                        .messages())
                .containsExactly("Missing schema.registry.url: a Schema Registry client needs it");

        serdeConfig.put("schema.registry.url", URL);
        assertThat(SchemaRegistrySettings.from(serdeConfig).urls()).containsExactly(URI.create(URL));
    }

    @Test
    void theSanitiserConfigurationReportsRegistryProblemsAndUnknownRegistryKeys() {
        List<String> problems = SanitiserConfig.validate(
                        Map.of(
                                "sanitiser.input.topics", "orders",
                                "schema.registry.url", URL,
                                "basic.auth.credentials.source", "USER_INFO",
                                "schema.registry.ssl.truststore.locaton", "/etc/trust.p12",
                                "schema.registry.basic.auth.user.info", "alice:secret"),
                        Requirement.all())
                .stream()
                .map(ConfigProblem::message)
                .toList();

        assertThat(problems)
                .containsExactlyInAnyOrder(
                        "Unknown configuration schema.registry.ssl.truststore.locaton; did you mean"
                                + " schema.registry.ssl.truststore.location?",
                        "Unknown configuration schema.registry.basic.auth.user.info; the sanitiser's Schema Registry"
                                + " client has no such setting (docs/schema-registry.md)",
                        "Missing basic.auth.user.info: it is required when basic.auth.credentials.source is"
                                + " USER_INFO");
    }

    @Test
    void theSanitiserConfigurationHandsOutTheSameSettings() {
        SanitiserConfig config = new SanitiserConfig(Map.of(
                "sanitiser.input.topics", "orders",
                "sanitiser.payload.format", "avro",
                "schema.registry.url", URL,
                "bearer.auth.token", "t0ken",
                "max.retries", "3"));

        SchemaRegistrySettings settings = config.schemaRegistry().orElseThrow();
        assertThat(settings.urls()).containsExactly(URI.create(URL));
        assertThat(settings.bearerToken()).map(Password::value).contains("t0ken");
        assertThat(settings.maxRetries()).isEqualTo(3);
        assertThat(config.passThroughProperties()).isEmpty();
    }

    @Test
    void secretsMayComeFromTheEnvironment() {
        SanitiserConfig config = SanitiserConfigLoader.withEnvironment(Map.of(
                        "SCHEMA_REGISTRY_URL", URL,
                        "BASIC_AUTH_CREDENTIALS_SOURCE", "USER_INFO",
                        "BASIC_AUTH_USER_INFO", "alice:from-env"))
                .load(Map.of("sanitiser.input.topics", "orders"));

        assertThat(config.schemaRegistry().orElseThrow().basicUserInfo(URI.create(URL)))
                .map(Password::value)
                .contains("alice:from-env");
    }

    @Test
    void secretsMayComeFromKafkasFileConfigProvider() throws IOException {
        Path secrets = Files.writeString(dir.resolve("secrets.properties"), "registry.token=from-file\n");

        SanitiserConfig config = new SanitiserConfig(Map.of(
                "sanitiser.input.topics", "orders",
                "schema.registry.url", URL,
                "config.providers", "file",
                "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider",
                "bearer.auth.token", "${file:" + secrets + ":registry.token}"));

        assertThat(config.schemaRegistry().orElseThrow().bearerToken())
                .map(Password::value)
                .contains("from-file");
    }
}
