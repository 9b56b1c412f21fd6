package dev.utf8sanitiser.config;

import static dev.utf8sanitiser.config.SanitiserConfig.PROVISIONAL;
import static dev.utf8sanitiser.config.SanitiserConfig.SCHEMA_REGISTRY_GROUP;
import static dev.utf8sanitiser.config.SanitiserConfig.configNames;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The keys of the Schema Registry client, named as Confluent's clients name them, and their
 * definitions: beside {@link SchemaRegistrySettings}, which parses them, and composed into {@link
 * SanitiserConfig}'s definitions, the one place each key is defined.
 */
public final class SchemaRegistryKeys {
    private SchemaRegistryKeys() {}

    /**
     * The prefix of the Schema Registry client's URL and TLS keys. Like {@link SanitiserConfig#PREFIX}, an undefined
     * key with this prefix is reported as a likely typo (or a Confluent setting this client lacks).
     */
    public static final String SCHEMA_REGISTRY_PREFIX = "schema.registry.";
    /** {@code schema.registry.url}, the key Confluent's serdes use. */
    public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";

    private static final String SCHEMA_REGISTRY_URL_DOC =
            "A Confluent-compatible Schema Registry, one URL or several comma-separated, for "
                    + "`sanitiser.payload.format=avro` and `protobuf`. Required with either, except by `run` without "
                    + "`bootstrap.servers` and by `demo`, which start a test registry when it is absent. "
                    + "When one URL cannot be reached the client tries the next. A URL may carry credentials "
                    + "(`https://user:password@host:8081`), used when `basic.auth.credentials.source` is `URL`. "
                    + "The registry client settings below keep the names Confluent's clients give them "
                    + "(docs/schema-registry.md).";

    /** The prefix of the TLS settings of the registry client, as in Confluent's clients. */
    public static final String SCHEMA_REGISTRY_SSL_PREFIX = SCHEMA_REGISTRY_PREFIX + "ssl.";

    /** {@code basic.auth.credentials.source}, Confluent's name. */
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG = "basic.auth.credentials.source";

    private static final String BASIC_AUTH_CREDENTIALS_SOURCE_DOC =
            "Where the registry's HTTP Basic credentials come from. `URL`: from the user information of "
                    + "`schema.registry.url` (`https://user:password@host:8081`), or none when the URL has "
                    + "none. `USER_INFO`: from `basic.auth.user.info`. (Confluent's `SASL_INHERIT` is not "
                    + "supported.)";

    /** {@code basic.auth.user.info}, Confluent's name. */
    public static final String BASIC_AUTH_USER_INFO_CONFIG = "basic.auth.user.info";

    private static final String BASIC_AUTH_USER_INFO_DOC =
            "The registry's HTTP Basic credentials as `user:password`, when "
                    + "`basic.auth.credentials.source` is `USER_INFO`.";

    /** {@code bearer.auth.credentials.source}, Confluent's name. */
    public static final String BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG = "bearer.auth.credentials.source";

    private static final String BEARER_AUTH_CREDENTIALS_SOURCE_DOC =
            "Where the registry's bearer token comes from. `STATIC_TOKEN`: from `bearer.auth.token`, "
                    + "sent as `Authorization: Bearer` when set. (Confluent's OAuth sources are not "
                    + "supported.)";

    /** {@code bearer.auth.token}, Confluent's name. */
    public static final String BEARER_AUTH_TOKEN_CONFIG = "bearer.auth.token";

    private static final String BEARER_AUTH_TOKEN_DOC =
            "A bearer token for the registry. Use it or HTTP Basic credentials, not both.";

    /** {@code schema.registry.ssl.truststore.location} */
    public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG =
            SCHEMA_REGISTRY_SSL_PREFIX + "truststore.location";

    private static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_DOC =
            "A trust store file with the certificates that an `https` registry's certificate must be "
                    + "signed by. Unset: the JVM's default trust store.";

    /** {@code schema.registry.ssl.truststore.password} */
    public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_CONFIG =
            SCHEMA_REGISTRY_SSL_PREFIX + "truststore.password";

    private static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_DOC =
            "The trust store's password, if it has one.";

    /** {@code schema.registry.ssl.truststore.type} */
    public static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_CONFIG =
            SCHEMA_REGISTRY_SSL_PREFIX + "truststore.type";

    private static final String SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_DOC = "The trust store's file format.";

    /** {@code schema.registry.ssl.keystore.location} */
    public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG =
            SCHEMA_REGISTRY_SSL_PREFIX + "keystore.location";

    private static final String SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_DOC =
            "A key store file with the client's private key and certificate, for a registry that asks "
                    + "for a client certificate (mutual TLS).";

    /** {@code schema.registry.ssl.keystore.password} */
    public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG =
            SCHEMA_REGISTRY_SSL_PREFIX + "keystore.password";

    private static final String SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_DOC =
            "The key store's password; required with `schema.registry.ssl.keystore.location`.";

    /** {@code schema.registry.ssl.keystore.type} */
    public static final String SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_CONFIG = SCHEMA_REGISTRY_SSL_PREFIX + "keystore.type";

    private static final String SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_DOC = "The key store's file format.";

    /** {@code schema.registry.ssl.key.password} */
    public static final String SCHEMA_REGISTRY_SSL_KEY_PASSWORD_CONFIG = SCHEMA_REGISTRY_SSL_PREFIX + "key.password";

    private static final String SCHEMA_REGISTRY_SSL_KEY_PASSWORD_DOC =
            "The password of the private key in the key store. Unset: the key store's password.";

    /** {@code schema.registry.ssl.endpoint.identification.algorithm} */
    public static final String SCHEMA_REGISTRY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG =
            SCHEMA_REGISTRY_SSL_PREFIX + "endpoint.identification.algorithm";

    private static final String SCHEMA_REGISTRY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_DOC =
            "`https`: the registry's certificate must name the host of the URL. Empty: any host name is "
                    + "accepted; the certificate must still be signed by a trusted certificate. For tests only.";

    /** {@code http.connect.timeout.ms}, Confluent's name. */
    public static final String HTTP_CONNECT_TIMEOUT_MS_CONFIG = "http.connect.timeout.ms";

    private static final String HTTP_CONNECT_TIMEOUT_MS_DOC =
            "How long one attempt to connect to a registry URL may take, in milliseconds; `0`: no limit "
                    + "but `sanitiser.registry.retry.timeout.ms`. Shorter than the 60000 of Confluent's client, "
                    + "so that an unreachable URL leaves time to try the next.";

    /** {@code http.read.timeout.ms}, Confluent's name. */
    public static final String HTTP_READ_TIMEOUT_MS_CONFIG = "http.read.timeout.ms";

    private static final String HTTP_READ_TIMEOUT_MS_DOC =
            "How long the registry may take to answer one request, body included, in milliseconds; `0`: "
                    + "no limit but `sanitiser.registry.retry.timeout.ms` (which may then not be `0`). Shorter "
                    + "than the 60000 of Confluent's client, for the same reason.";

    /** {@code max.retries}, Confluent's name. */
    public static final String MAX_RETRIES_CONFIG = "max.retries";

    private static final String MAX_RETRIES_DOC =
            "How many times a registry request that failed for a transient reason (no connection, a "
                    + "timeout, HTTP 408, 429 or 5xx) is retried, each time over every URL, before the "
                    + "registry counts as unavailable. `sanitiser.registry.retry.timeout.ms` may stop the "
                    + "retries sooner. Confluent's client retries 3 times; the sanitiser retries longer by "
                    + "default, because an unavailable registry stops it.";

    /** {@code retries.wait.ms}, Confluent's name. */
    public static final String RETRIES_WAIT_MS_CONFIG = "retries.wait.ms";

    private static final String RETRIES_WAIT_MS_DOC =
            "The wait before the first retry, in milliseconds; each further wait doubles, up to "
                    + "`retries.max.wait.ms`. Each wait is shortened by a random amount of up to half, so that "
                    + "many clients do not retry in step.";

    /** {@code retries.max.wait.ms}, Confluent's name. */
    public static final String RETRIES_MAX_WAIT_MS_CONFIG = "retries.max.wait.ms";

    private static final String RETRIES_MAX_WAIT_MS_DOC = "The longest wait between two retries, in milliseconds.";

    /** {@code sanitiser.registry.retry.timeout.ms} */
    public static final String REGISTRY_RETRY_TIMEOUT_MS_CONFIG = "sanitiser.registry.retry.timeout.ms";

    private static final String REGISTRY_RETRY_TIMEOUT_MS_DOC =
            "The most time one registry lookup may take, in milliseconds: a schema id and every schema "
                    + "it references, every attempt and wait included; `0`: one attempt per request, no retry, "
                    + "within `http.read.timeout.ms` (which may then not be `0`). Then the registry counts as unavailable: the "
                    + "sanitiser stops (or its host retries); no record goes to the dead-letter topic for it. "
                    + "Confluent's client has no such setting." + PROVISIONAL;

    // Operations

    /** Defines the group's keys in {@code def}, numbered in {@code order}. */
    static void define(ConfigDef def, GroupOrder order) {
        def.define(
                SCHEMA_REGISTRY_URL_CONFIG,
                Type.STRING,
                null,
                Validators.registryUrls(),
                Importance.HIGH,
                SCHEMA_REGISTRY_URL_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.LONG,
                "Schema Registry URL");
        def.define(
                BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG,
                Type.STRING,
                SchemaRegistrySettings.BasicAuthSource.URL.name(),
                Validators.oneOf(configNames(SchemaRegistrySettings.BasicAuthSource.values(), Enum::name)),
                Importance.MEDIUM,
                BASIC_AUTH_CREDENTIALS_SOURCE_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Basic credentials source");
        def.define(
                BASIC_AUTH_USER_INFO_CONFIG,
                Type.PASSWORD,
                null,
                Validators.userInfo(),
                Importance.MEDIUM,
                BASIC_AUTH_USER_INFO_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.MEDIUM,
                "Basic credentials");
        def.define(
                BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG,
                Type.STRING,
                SchemaRegistrySettings.STATIC_TOKEN,
                Validators.oneOf(SchemaRegistrySettings.STATIC_TOKEN),
                Importance.LOW,
                BEARER_AUTH_CREDENTIALS_SOURCE_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Bearer token source");
        def.define(
                BEARER_AUTH_TOKEN_CONFIG,
                Type.PASSWORD,
                null,
                Importance.MEDIUM,
                BEARER_AUTH_TOKEN_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.MEDIUM,
                "Bearer token");
        def.define(
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG,
                Type.STRING,
                null,
                Validators.readableFile(),
                Importance.MEDIUM,
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.LONG,
                "Trust store");
        def.define(
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_CONFIG,
                Type.PASSWORD,
                null,
                Importance.MEDIUM,
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.MEDIUM,
                "Trust store password");
        def.define(
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_CONFIG,
                Type.STRING,
                SchemaRegistrySettings.KEY_STORE_TYPES.get(0),
                Validators.oneOf(SchemaRegistrySettings.KEY_STORE_TYPES.toArray(String[]::new)),
                Importance.LOW,
                SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Trust store type");
        def.define(
                SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_CONFIG,
                Type.STRING,
                null,
                Validators.readableFile(),
                Importance.MEDIUM,
                SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.LONG,
                "Key store");
        def.define(
                SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_CONFIG,
                Type.PASSWORD,
                null,
                Importance.MEDIUM,
                SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.MEDIUM,
                "Key store password");
        def.define(
                SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_CONFIG,
                Type.STRING,
                SchemaRegistrySettings.KEY_STORE_TYPES.get(0),
                Validators.oneOf(SchemaRegistrySettings.KEY_STORE_TYPES.toArray(String[]::new)),
                Importance.LOW,
                SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Key store type");
        def.define(
                SCHEMA_REGISTRY_SSL_KEY_PASSWORD_CONFIG,
                Type.PASSWORD,
                null,
                Importance.LOW,
                SCHEMA_REGISTRY_SSL_KEY_PASSWORD_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.MEDIUM,
                "Key password");
        def.define(
                SCHEMA_REGISTRY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
                Type.STRING,
                SchemaRegistrySettings.HOST_NAME_CHECK,
                Validators.endpointIdentification(SchemaRegistrySettings.HOST_NAME_CHECK),
                Importance.LOW,
                SCHEMA_REGISTRY_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Host name check");
        def.define(
                HTTP_CONNECT_TIMEOUT_MS_CONFIG,
                Type.INT,
                10_000,
                Range.atLeast(0),
                Importance.LOW,
                HTTP_CONNECT_TIMEOUT_MS_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Connect timeout");
        def.define(
                HTTP_READ_TIMEOUT_MS_CONFIG,
                Type.INT,
                30_000,
                Range.atLeast(0),
                Importance.LOW,
                HTTP_READ_TIMEOUT_MS_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Read timeout");
        def.define(
                MAX_RETRIES_CONFIG,
                Type.INT,
                10,
                Range.atLeast(0),
                Importance.LOW,
                MAX_RETRIES_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Retries");
        def.define(
                RETRIES_WAIT_MS_CONFIG,
                Type.INT,
                1_000,
                Range.atLeast(0),
                Importance.LOW,
                RETRIES_WAIT_MS_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "First retry wait");
        def.define(
                RETRIES_MAX_WAIT_MS_CONFIG,
                Type.INT,
                20_000,
                Range.atLeast(0),
                Importance.LOW,
                RETRIES_MAX_WAIT_MS_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Longest retry wait");
        def.define(
                REGISTRY_RETRY_TIMEOUT_MS_CONFIG,
                Type.LONG,
                60_000L,
                Range.atLeast(0),
                Importance.LOW,
                REGISTRY_RETRY_TIMEOUT_MS_DOC,
                SCHEMA_REGISTRY_GROUP,
                order.next(SCHEMA_REGISTRY_GROUP),
                Width.SHORT,
                "Retry timeout");
    }
}
