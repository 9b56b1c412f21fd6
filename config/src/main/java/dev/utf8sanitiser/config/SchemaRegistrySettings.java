package dev.utf8sanitiser.config;

import static dev.utf8sanitiser.config.SchemaRegistryKeys.BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.BASIC_AUTH_USER_INFO_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.BEARER_AUTH_TOKEN_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.HTTP_CONNECT_TIMEOUT_MS_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.HTTP_READ_TIMEOUT_MS_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.MAX_RETRIES_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.REGISTRY_RETRY_TIMEOUT_MS_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.RETRIES_MAX_WAIT_MS_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.RETRIES_WAIT_MS_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_KEY_PASSWORD_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_URL_CONFIG;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

/**
 * How to reach the Schema Registry: its URLs, credentials, TLS files, timeouts and retries, parsed
 * and checked once. The keys are those of the "Schema Registry" group of {@link SanitiserConfig},
 * named as Confluent's clients name them; a registry client is built from this and nothing else.
 *
 * <p>Two ways in: {@link SanitiserConfig#schemaRegistry()} for the hosts that load the whole
 * configuration, and {@link #from(Map)} for a Kafka {@code Serde}, whose {@code configure} gets a
 * plain map.
 *
 * <p>Passwords stay {@link Password}s, whose {@code toString} hides them; {@link #toString()} hides
 * the user information of URLs too.
 */
public final class SchemaRegistrySettings {
    /** The one {@code bearer.auth.credentials.source} this client supports. */
    public static final String STATIC_TOKEN = "STATIC_TOKEN";

    /** The {@code schema.registry.ssl.endpoint.identification.algorithm} that checks host names. */
    public static final String HOST_NAME_CHECK = "https";

    /** The key store formats the JDK reads; the first is Kafka's default. */
    static final List<String> KEY_STORE_TYPES = List.of("JKS", "PKCS12");

    /** Where HTTP Basic credentials come from ({@code basic.auth.credentials.source}). */
    public enum BasicAuthSource {
        /** The user information of each URL ({@code https://user:password@host}), if it has any. */
        URL,
        /** {@code basic.auth.user.info}. */
        USER_INFO
    }

    /**
     * A key store or trust store file.
     *
     * @param location a readable file (checked when the configuration was built)
     * @param type {@code JKS} or {@code PKCS12}
     * @param password empty when the store has none
     */
    public record StoreFile(Path location, String type, Optional<Password> password) {
        public StoreFile {
            Objects.requireNonNull(location, "location");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(password, "password");
        }
    }

    private final List<URI> urls;
    private final BasicAuthSource basicAuthSource;
    private final Optional<Password> userInfo;
    private final Optional<Password> bearerToken;
    private final Optional<StoreFile> trustStore;
    private final Optional<StoreFile> keyStore;
    private final Optional<Password> keyPassword;
    private final boolean hostNameCheck;
    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final int maxRetries;
    private final Duration retryWait;
    private final Duration retryMaxWait;
    private final Duration retryTimeout;

    private SchemaRegistrySettings(AbstractConfig config) {
        this.urls = urls(config.getString(SCHEMA_REGISTRY_URL_CONFIG));
        this.basicAuthSource = BasicAuthSource.valueOf(
                config.getString(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG).toUpperCase(Locale.ROOT));
        this.userInfo = password(config, BASIC_AUTH_USER_INFO_CONFIG);
        this.bearerToken = password(config, BEARER_AUTH_TOKEN_CONFIG);
        this.trustStore = storeFile(
                config,
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG,
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_CONFIG,
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_CONFIG);
        this.keyStore = storeFile(
                config,
                SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG,
                SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_CONFIG,
                SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG);
        this.keyPassword = password(config, SCHEMA_REGISTRY_SSL_KEY_PASSWORD_CONFIG);
        this.hostNameCheck = !config.getString(SCHEMA_REGISTRY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG)
                .isEmpty();
        this.connectTimeout = Duration.ofMillis(config.getInt(HTTP_CONNECT_TIMEOUT_MS_CONFIG));
        this.readTimeout = Duration.ofMillis(config.getInt(HTTP_READ_TIMEOUT_MS_CONFIG));
        this.maxRetries = config.getInt(MAX_RETRIES_CONFIG);
        this.retryWait = Duration.ofMillis(config.getInt(RETRIES_WAIT_MS_CONFIG));
        this.retryMaxWait = Duration.ofMillis(config.getInt(RETRIES_MAX_WAIT_MS_CONFIG));
        this.retryTimeout = Duration.ofMillis(config.getLong(REGISTRY_RETRY_TIMEOUT_MS_CONFIG));
    }

    /**
     * The settings in {@code props}, a plain map such as a {@code Serde}'s configuration: only the
     * keys of the Schema Registry group are read, every other key is ignored. {@code
     * schema.registry.url} is required.
     *
     * @throws SanitiserConfigException with every problem found
     */
    public static SchemaRegistrySettings from(Map<String, ?> props) {
        Objects.requireNonNull(props, "props");
        ConfigDef def = SanitiserConfig.schemaRegistryConfigDef();
        List<ConfigProblem> problems = new ArrayList<>();
        Map<String, Object> parsed = SanitiserConfig.parseEach(def, props, problems);
        if (parsed.containsKey(SCHEMA_REGISTRY_URL_CONFIG)
                && Validators.isAbsent(parsed.get(SCHEMA_REGISTRY_URL_CONFIG))) {
            problems.add(new ConfigProblem(
                    SCHEMA_REGISTRY_URL_CONFIG,
                    "Missing " + SCHEMA_REGISTRY_URL_CONFIG + ": a Schema Registry client needs it"));
        }
        crossCheck(parsed, problems);
        if (!problems.isEmpty()) {
            throw new SanitiserConfigException(problems);
        }
        return new SchemaRegistrySettings(new AbstractConfig(def, props, false));
    }

    /** The settings of a configuration that has a {@code schema.registry.url}. */
    static SchemaRegistrySettings of(SanitiserConfig config) {
        return new SchemaRegistrySettings(config);
    }

    /**
     * The rules between the registry keys, applied to values that passed their own validators (a
     * key missing from {@code parsed} had a bad value, reported already).
     */
    static void crossCheck(Map<String, Object> parsed, List<ConfigProblem> problems) {
        boolean userInfoGiven = isSet(parsed.get(BASIC_AUTH_USER_INFO_CONFIG));
        Optional<BasicAuthSource> source = Optional.ofNullable(
                        (String) parsed.get(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG))
                .map(name -> BasicAuthSource.valueOf(name.toUpperCase(Locale.ROOT)));
        if (source.isPresent() && parsed.containsKey(BASIC_AUTH_USER_INFO_CONFIG)) {
            if (source.get() == BasicAuthSource.USER_INFO && !userInfoGiven) {
                problems.add(new ConfigProblem(
                        BASIC_AUTH_USER_INFO_CONFIG,
                        "Missing " + BASIC_AUTH_USER_INFO_CONFIG + ": it is required when "
                                + BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG + " is USER_INFO"));
            } else if (source.get() == BasicAuthSource.URL && userInfoGiven) {
                problems.add(new ConfigProblem(
                        BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG,
                        BASIC_AUTH_USER_INFO_CONFIG + " is set but " + BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG
                                + " is URL, which takes the credentials from " + SCHEMA_REGISTRY_URL_CONFIG
                                + "; set " + BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG + "=USER_INFO"));
            }
        }
        boolean basic = source.map(s -> s == BasicAuthSource.USER_INFO
                        ? userInfoGiven
                        : urlsCarryUserInfo(parsed.get(SCHEMA_REGISTRY_URL_CONFIG)))
                .orElse(false);
        if (basic && isSet(parsed.get(BEARER_AUTH_TOKEN_CONFIG))) {
            problems.add(new ConfigProblem(
                    BEARER_AUTH_TOKEN_CONFIG,
                    "Both HTTP Basic credentials (" + BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG + "=" + source.get()
                            + ") and " + BEARER_AUTH_TOKEN_CONFIG
                            + " are set for the Schema Registry; set one of them"));
        }
        if (!Validators.isAbsent(parsed.get(SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG))
                && parsed.containsKey(SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG)
                && !isSet(parsed.get(SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG))) {
            problems.add(new ConfigProblem(
                    SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG,
                    "Missing " + SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG + ": it is required when "
                            + SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG + " is set"));
        }
        if (isZero(parsed.get(HTTP_READ_TIMEOUT_MS_CONFIG)) && isZero(parsed.get(REGISTRY_RETRY_TIMEOUT_MS_CONFIG))) {
            problems.add(new ConfigProblem(
                    REGISTRY_RETRY_TIMEOUT_MS_CONFIG,
                    HTTP_READ_TIMEOUT_MS_CONFIG + " and " + REGISTRY_RETRY_TIMEOUT_MS_CONFIG + " are both 0, which"
                            + " leaves a registry lookup without any time limit; set one of them"));
        }
    }

    private static boolean isZero(Object millis) {
        return millis instanceof Number number && number.longValue() == 0;
    }

    /**
     * The registry URLs in the configured order, as configured: they may carry user information,
     * which {@link #basicUserInfo(URI)} hands out and which a client must not send as part of a URL.
     */
    public List<URI> urls() {
        return urls;
    }

    /** Where HTTP Basic credentials come from. */
    public BasicAuthSource basicAuthSource() {
        return basicAuthSource;
    }

    /**
     * The HTTP Basic credentials ({@code user:password}) for requests to {@code url}, one of {@link
     * #urls()}: {@code basic.auth.user.info} under {@code USER_INFO}, the URL's own user information
     * under {@code URL}; empty when there are none.
     */
    public Optional<Password> basicUserInfo(URI url) {
        return switch (basicAuthSource) {
            case USER_INFO -> userInfo;
            case URL -> Optional.ofNullable(url.getUserInfo()).map(Password::new);
        };
    }

    /** The bearer token, when one is set. */
    public Optional<Password> bearerToken() {
        return bearerToken;
    }

    /** The trust store for {@code https} URLs; empty: the JVM's default. */
    public Optional<StoreFile> trustStore() {
        return trustStore;
    }

    /** The key store with the client's certificate, for mutual TLS. */
    public Optional<StoreFile> keyStore() {
        return keyStore;
    }

    /** The private key's password; empty: the key store's password. */
    public Optional<Password> keyPassword() {
        return keyPassword;
    }

    /** Whether an {@code https} registry's certificate must name the URL's host. */
    public boolean hostNameCheck() {
        return hostNameCheck;
    }

    /** How long one attempt to connect may take; zero: no limit of its own. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** How long one request may wait for its answer; zero: no limit of its own. */
    public Duration readTimeout() {
        return readTimeout;
    }

    /** How many times a transiently failed request is retried over every URL. */
    public int maxRetries() {
        return maxRetries;
    }

    /** The wait before the first retry; each further wait doubles. */
    public Duration retryWait() {
        return retryWait;
    }

    /** The longest wait between two retries. */
    public Duration retryMaxWait() {
        return retryMaxWait;
    }

    /** The most time one lookup may take, attempts and waits together. */
    public Duration retryTimeout() {
        return retryTimeout;
    }

    @Override
    public String toString() {
        return "SchemaRegistrySettings[urls="
                + urls.stream().map(url -> Validators.redact(url.toString())).toList() + ", basicAuthSource="
                + basicAuthSource + ", bearerToken=" + bearerToken.isPresent() + ", trustStore="
                + trustStore.map(StoreFile::location) + ", keyStore=" + keyStore.map(StoreFile::location)
                + ", hostNameCheck=" + hostNameCheck + ", connectTimeout=" + connectTimeout + ", readTimeout="
                + readTimeout + ", maxRetries=" + maxRetries + ", retryWait=" + retryWait + ", retryMaxWait="
                + retryMaxWait + ", retryTimeout=" + retryTimeout + "]";
    }

    private static List<URI> urls(String value) {
        return Arrays.stream(value.trim().split("\\s*,\\s*")).map(URI::create).toList();
    }

    private static boolean urlsCarryUserInfo(Object value) {
        return !Validators.isAbsent(value)
                && urls((String) value).stream().anyMatch(url -> url.getRawUserInfo() != null);
    }

    private static boolean isSet(Object password) {
        return password != null && !((Password) password).value().isEmpty();
    }

    private static Optional<Password> password(AbstractConfig config, String key) {
        return Optional.ofNullable(config.getPassword(key)).filter(SchemaRegistrySettings::isSet);
    }

    private static Optional<StoreFile> storeFile(
            AbstractConfig config, String locationKey, String typeKey, String passwordKey) {
        String location = config.getString(locationKey);
        if (location == null || location.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new StoreFile(
                Path.of(location), config.getString(typeKey).toUpperCase(Locale.ROOT), password(config, passwordKey)));
    }
}
