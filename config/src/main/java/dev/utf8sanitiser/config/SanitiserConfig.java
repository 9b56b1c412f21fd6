package dev.utf8sanitiser.config;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.core.content.Normalisation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The sanitiser's own configuration: every key defined once, with its type, default, validator and
 * documentation, in the manner of Kafka's {@code StreamsConfig}. The Kafka Streams processor, the
 * serdes and the Connect SMT all read their options through this class; docs/configuration.md is
 * generated from {@link #configDef()}.
 *
 * <p>Construction checks every value and reports every problem at once in a {@link
 * SanitiserConfigException} (one line per bad value), then parses each value once into a typed
 * accessor. Keys this class does not define (Kafka Streams, client and security settings) are kept
 * as given and handed on by {@link #passThroughProperties()} and {@link #streamsProperties()}; a key
 * that starts with {@code sanitiser.} but is not defined is a problem, as it is most likely a typo.
 *
 * <p>The values of the sanitiser's own keys are checked as written, so a config-provider reference
 * such as {@code ${file:...}} works only where a value is not checked: in pass-through properties and
 * in the Schema Registry client's passwords ({@code basic.auth.user.info}, {@code bearer.auth.token},
 * the TLS store passwords), which Kafka's {@link AbstractConfig} resolves when {@code config.providers}
 * is set.
 */
public final class SanitiserConfig extends AbstractConfig {
    /**
     * The prefix of every key the sanitiser defines, the Schema Registry client's apart: those keep
     * the names that Confluent's clients give them ({@code schema.registry.url}, {@code
     * basic.auth.user.info}, ...).
     */
    public static final String PREFIX = "sanitiser.";

    /** {@link #PREFIX} spelt the American way: never a key, always a misspelling. */
    static final String AMERICAN_PREFIX = "sanitizer.";

    /** Kafka Streams' {@code processing.guarantee}, which passes through. */
    public static final String PROCESSING_GUARANTEE_CONFIG = "processing.guarantee";

    /**
     * The sanitiser's default {@code processing.guarantee}: the output write, the dead-letter write
     * and the offset commit are one transaction. Kafka's own default is at-least-once.
     */
    public static final String DEFAULT_PROCESSING_GUARANTEE = "exactly_once_v2";

    /** The consumer's {@code session.timeout.ms}, which passes through. */
    public static final String SESSION_TIMEOUT_MS_CONFIG = "session.timeout.ms";

    /**
     * The sanitiser's default {@code session.timeout.ms}: how long the group waits for an instance
     * that stopped without leaving it (killed, or cut off) before its partitions go to the others,
     * and the longest a rebalance can wait for such an instance. Kafka's own default is 45 s; 10 s
     * was Kafka's default before 3.0, and the sanitiser has no state to restore after a rebalance
     * (docs/operations.md, "Start-up, shutdown and outages").
     */
    public static final int DEFAULT_SESSION_TIMEOUT_MS = 10_000;

    // Groups, in the order of docs/configuration.md.
    static final String TOPICS_GROUP = "Topics";
    static final String CHECKS_GROUP = "Checks";
    static final String CONTENT_GROUP = "Content";
    static final String SCHEMA_REGISTRY_GROUP = "Schema Registry";
    static final String OPERATIONS_GROUP = "Operations";
    static final String CONNECT_GROUP = "Connect";

    /** Marks the keys that docs/dlq.md does not fix as a contract. */
    static final String PROVISIONAL = " Provisional: may change before 1.0.";

    // Topics

    /** {@code sanitiser.input.topics} */
    public static final String INPUT_TOPICS_CONFIG = "sanitiser.input.topics";

    private static final String INPUT_TOPICS_DOC =
            "Comma-separated input topics. Set this or `sanitiser.input.pattern`, not both. The Kafka "
                    + "Streams processor needs one of the two; the Connect SMT neither, as the connector "
                    + "chooses the topics.";

    /** {@code sanitiser.input.pattern} */
    public static final String INPUT_PATTERN_CONFIG = "sanitiser.input.pattern";

    private static final String INPUT_PATTERN_DOC =
            "A Java regular expression: every topic whose whole name matches is an input topic, "
                    + "including topics created later. Set this or `sanitiser.input.topics`, not both. It must "
                    + "match neither the output nor the dead-letter topic of a topic it matches (`pat.*` with "
                    + "`${topic}.clean` matches `pat.clean`): start-up refuses the pattern when it finds such a "
                    + "topic, and the sanitiser never reads a topic it writes.";

    /** {@code sanitiser.output.topic} */
    public static final String OUTPUT_TOPIC_CONFIG = "sanitiser.output.topic";

    private static final String OUTPUT_TOPIC_DOC =
            "Where records go that pass, or were replaced, repaired, normalised or stripped. "
                    + "`${topic}` is the name of the topic the record was read from; a name without `${topic}` "
                    + "sends the records of every input topic to that one topic. `${topic}` alone would write "
                    + "back to the input topic, and is refused.";

    /** {@code sanitiser.output.topic}'s default. */
    public static final String OUTPUT_TOPIC_DEFAULT = "${topic}.clean";

    /** {@code sanitiser.dlq.topic} */
    public static final String DLQ_TOPIC_CONFIG = "sanitiser.dlq.topic";

    private static final String DLQ_TOPIC_DOC =
            "Where records go that are rejected, byte for byte as read, with the `__utf8.*` and "
                    + "`__streams.errors.*` headers that say why and where from (docs/dlq.md). The same kind of "
                    + "template as `sanitiser.output.topic`; for every input topic the two must name different "
                    + "topics, neither of them an input topic.";

    /** {@code sanitiser.dlq.topic}'s default. */
    public static final String DLQ_TOPIC_DEFAULT = "${topic}.dlq";

    // Checks

    /** {@code sanitiser.policy} */
    public static final String POLICY_CONFIG = "sanitiser.policy";

    private static final String POLICY_DOC =
            "What to do with a record that is not well-formed UTF-8. `strict`: send it to the "
                    + "dead-letter topic unchanged. `replace`: replace each maximal ill-formed subpart with "
                    + "U+FFFD and send it on. `repair`: first turn CESU-8 surrogate pairs and Modified UTF-8 "
                    + "`C0 80` into their well-formed forms, then replace what is left, and send it on.";

    /** {@code sanitiser.payload.format} */
    public static final String PAYLOAD_FORMAT_CONFIG = "sanitiser.payload.format";

    private static final String PAYLOAD_FORMAT_DOC =
            "How to read the record value. `text`: every byte is checked. `json`: every string of the "
                    + "JSON document is checked; a value that is not JSON is rejected as `INVALID_JSON`. "
                    + "`avro`: every string field of Avro in the Confluent wire format is checked, with the "
                    + "writer schema from `schema.registry.url`. `protobuf`: the string fields protobuf "
                    + "checks (or all, with `sanitiser.protobuf.check.all.strings`) of Protobuf in the "
                    + "Confluent wire format are checked, with the schema from `schema.registry.url`.";

    /** {@code sanitiser.check.key} */
    public static final String CHECK_KEY_CONFIG = "sanitiser.check.key";

    private static final String CHECK_KEY_DOC = "Also check the record key, as text, under the same policy.";

    /** {@code sanitiser.check.headers} */
    public static final String CHECK_HEADERS_CONFIG = "sanitiser.check.headers";

    private static final String CHECK_HEADERS_DOC =
            "Names of headers whose values are checked too, as text, under the same policy. Empty: "
                    + "headers are not checked.";

    /** {@code sanitiser.json.surrogate.escapes} */
    public static final String JSON_SURROGATE_ESCAPES_CONFIG = "sanitiser.json.surrogate.escapes";

    private static final String JSON_SURROGATE_ESCAPES_DOC =
            "With `sanitiser.payload.format=json`: also treat an escaped lone surrogate (`\\uD800` "
                    + "without its partner, valid JSON grammar that names no character) as ill-formed, rule "
                    + "`LONE_SURROGATE_ESCAPE`: rejected under `strict`, written as `\\uFFFD` under `replace` "
                    + "and `repair`." + PROVISIONAL;

    /** {@code sanitiser.protobuf.check.all.strings} */
    public static final String PROTOBUF_CHECK_ALL_STRINGS_CONFIG = "sanitiser.protobuf.check.all.strings";

    private static final String PROTOBUF_CHECK_ALL_STRINGS_DOC =
            "With `sanitiser.payload.format=protobuf`: check every `string` field, not only those "
                    + "protobuf itself checks (proto3 strings, map entries, proto2 under "
                    + "`java_string_check_utf8`, editions' `utf8_validation = VERIFY`). `bytes` fields are "
                    + "never checked.";

    /** {@code sanitiser.serde.inner} */
    public static final String SERDE_INNER_CONFIG = "sanitiser.serde.inner";

    private static final String SERDE_INNER_DOC =
            "For the sanitising serdes (`SanitisingSerde`, `SanitisingSerializer`, "
                    + "`SanitisingDeserializer`) when a client creates them from its configuration: the serde "
                    + "they wrap, e.g. `org.apache.kafka.common.serialization.Serdes$StringSerde`. The "
                    + "sanitising deserializer checks the bytes before this serde's deserializer sees them; "
                    + "the serializer checks what this serde's serializer wrote." + PROVISIONAL;

    /** {@code sanitiser.serde.key.payload.format} */
    public static final String SERDE_KEY_PAYLOAD_FORMAT_CONFIG = "sanitiser.serde.key.payload.format";

    private static final String SERDE_KEY_PAYLOAD_FORMAT_DOC =
            "For the sanitising serdes configured for keys (Kafka's `isKey`): the payload format of keys, "
                    + "which `sanitiser.payload.format` does not set, so that one properties map can configure a "
                    + "client's key and value serdes (keys are mostly plain identifiers; an Avro key serde says "
                    + "`avro` here). Every other setting is shared by keys and values. The Streams application "
                    + "and the Connect plugins check keys as text." + PROVISIONAL;

    // Content

    /** {@code sanitiser.content.rules} */
    public static final String CONTENT_RULES_CONFIG = "sanitiser.content.rules";

    private static final String CONTENT_RULES_DOC =
            "Well-formed but unwelcome characters, as `RULE:action` pairs, e.g. "
                    + "`NUL:reject,C1_CONTROL:strip` (docs/rules.md). `allow`: not checked, the action of every "
                    + "rule not listed. `reject`: send the record to the dead-letter topic. `strip`: remove the "
                    + "characters. `replace`: replace each with U+FFFD. `NOT_NORMALISED` takes only `allow` or "
                    + "`reject`.";

    /** {@code sanitiser.normalisation} */
    public static final String NORMALISATION_CONFIG = "sanitiser.normalisation";

    private static final String NORMALISATION_DOC =
            "The Unicode normalisation form (UAX #15) to bring text into; `none` leaves it as it is. "
                    + "`NOT_NORMALISED` checks against this form, or NFC when `none`.";

    // Schema Registry

    /** {@code sanitiser.dlq.context.bytes} */
    public static final String DLQ_CONTEXT_BYTES_CONFIG = "sanitiser.dlq.context.bytes";

    private static final String DLQ_CONTEXT_BYTES_DOC =
            "How many bytes either side of the first error the `__utf8.context` header shows, in hex." + PROVISIONAL;

    /** {@code sanitiser.http.port} */
    public static final String HTTP_PORT_CONFIG = "sanitiser.http.port";

    private static final String HTTP_PORT_DOC =
            "Port of the HTTP endpoint that serves Prometheus metrics and the liveness and readiness "
                    + "probes. `0` picks a free port; `-1` turns the endpoint off." + PROVISIONAL;

    /** {@code sanitiser.shutdown.timeout.ms} */
    public static final String SHUTDOWN_TIMEOUT_MS_CONFIG = "sanitiser.shutdown.timeout.ms";

    private static final String SHUTDOWN_TIMEOUT_MS_DOC =
            "How long a shutdown waits for the stream threads to finish the current transaction and "
                    + "close, in milliseconds. Past it, `run` says so in one line and exits 1; what was not "
                    + "committed is read again on the next start." + PROVISIONAL;

    /** {@code sanitiser.startup.timeout.ms} */
    public static final String STARTUP_TIMEOUT_MS_CONFIG = "sanitiser.startup.timeout.ms";

    private static final String STARTUP_TIMEOUT_MS_DOC =
            "How long start-up waits for the Kafka cluster, in milliseconds: for a broker of "
                    + "`bootstrap.servers` to answer, then for each step of creating the output and dead-letter "
                    + "topics. Past it, `run` stops with one line that names `bootstrap.servers` and exits 1, "
                    + "for a supervisor to start it again (docs/operations.md)." + PROVISIONAL;

    /** {@code sanitiser.on.fatal.error} */
    public static final String ON_FATAL_ERROR_CONFIG = "sanitiser.on.fatal.error";

    private static final String ON_FATAL_ERROR_DOC =
            "What an exception that escapes a stream thread does (Kafka Streams' "
                    + "StreamsUncaughtExceptionHandler): shutdown_client stops this instance and the process "
                    + "exits 1, for a supervisor to restart; replace_thread starts a new thread that resumes "
                    + "from the last commit; shutdown_application stops every instance of the application. "
                    + "A commit that fails because the transaction coordinator had already aborted the "
                    + "transaction replaces the thread whatever this says, up to 3 times in 5 minutes."
                    + PROVISIONAL;

    /** {@code sanitiser.circuit.breaker.dead.letter.share} */
    public static final String CIRCUIT_BREAKER_SHARE_CONFIG = "sanitiser.circuit.breaker.dead.letter.share";

    private static final String CIRCUIT_BREAKER_SHARE_DOC =
            "The dead-letter circuit breaker: when the share of dead letters among the last "
                    + "`sanitiser.circuit.breaker.window.records` records of an input topic (in one task) would "
                    + "pass this, the record that would pass it is neither dead-lettered nor committed, the "
                    + "instance pauses processing, `/health/ready` answers 503 with the reason and "
                    + "`utf8_sanitiser_circuit_breaker_open` is 1 for the topic; a restart resumes "
                    + "(docs/operations.md). `0.5`: more than half. `1`, the default, never passes: the breaker is "
                    + "off." + PROVISIONAL;

    /** {@code sanitiser.circuit.breaker.window.records} */
    public static final String CIRCUIT_BREAKER_WINDOW_CONFIG = "sanitiser.circuit.breaker.window.records";

    private static final String CIRCUIT_BREAKER_WINDOW_DOC =
            "How many of an input topic's most recent records (in one task) the circuit breaker counts "
                    + "the share of dead letters over." + PROVISIONAL;

    /** {@code sanitiser.circuit.breaker.min.records} */
    public static final String CIRCUIT_BREAKER_MIN_CONFIG = "sanitiser.circuit.breaker.min.records";

    private static final String CIRCUIT_BREAKER_MIN_DOC =
            "How many records of an input topic (in one task) the circuit breaker's window must hold "
                    + "before it may trip, so that the first few records after a start do not; at most "
                    + "`sanitiser.circuit.breaker.window.records` (a larger value counts as that)." + PROVISIONAL;

    // Connect: keys of the Kafka Connect SMT and predicate only (docs/connect.md)

    /** {@code sanitiser.on.reject} */
    public static final String ON_REJECT_CONFIG = "sanitiser.on.reject";

    private static final String ON_REJECT_DOC =
            "Kafka Connect only: what the SMT does with a record it rejects (ill-formed under `strict`, or "
                    + "found by a content rule whose action is `reject`). `fail`: throw a DataException that names "
                    + "rule, part, field and byte offset, so that Connect's own error handling takes over "
                    + "(`errors.tolerance`, and `errors.deadletterqueue.topic.name` for sink connectors). `route`: "
                    + "send the record, unchanged, to `sanitiser.dlq.topic` instead of its own topic, with the "
                    + "`__utf8.*` and `__streams.errors.*` headers of docs/dlq.md; meant for source connectors, "
                    + "which have no dead-letter queue of their own."
                    + PROVISIONAL;

    /** {@code sanitiser.fields} */
    public static final String FIELDS_CONFIG = "sanitiser.fields";

    private static final String FIELDS_DOC =
            "Kafka Connect only: which fields of a Struct or Map to check, as dotted paths from the top "
                    + "(`customer.name`). A path to a struct or map checks every string below it; arrays and maps "
                    + "are looked through (`lines.sku` is the `sku` of every element of `lines`). Empty: every "
                    + "string. A bytes field is checked, as text, only when it is named itself. Byte arrays and "
                    + "strings that are the whole key or value are always checked."
                    + PROVISIONAL;

    /** {@code sanitiser.header.type} */
    public static final String HEADER_TYPE_CONFIG = "sanitiser.header.type";

    private static final String HEADER_TYPE_DOC =
            "Kafka Connect only: the Connect type of the headers the SMT adds (`__utf8.action` and "
                    + "`__utf8.errors`, or the dead-letter headers under `route`); either way their bytes are the "
                    + "UTF-8 text of docs/dlq.md. `string` for the worker's default header converter "
                    + "(SimpleHeaderConverter); `bytes` when the connector's `header.converter` is "
                    + "ByteArrayConverter (as with MirrorMaker 2), which refuses string headers."
                    + PROVISIONAL;

    private static final ConfigDef CONFIG;

    static {
        GroupOrder order = new GroupOrder();
        ConfigDef def = new ConfigDef()
                .define(
                        INPUT_TOPICS_CONFIG,
                        Type.LIST,
                        "",
                        Validators.topicList(),
                        Importance.HIGH,
                        INPUT_TOPICS_DOC,
                        TOPICS_GROUP,
                        order.next(TOPICS_GROUP),
                        Width.LONG,
                        "Input topics")
                .define(
                        INPUT_PATTERN_CONFIG,
                        Type.STRING,
                        null,
                        Validators.regex(),
                        Importance.HIGH,
                        INPUT_PATTERN_DOC,
                        TOPICS_GROUP,
                        order.next(TOPICS_GROUP),
                        Width.LONG,
                        "Input topic pattern")
                .define(
                        OUTPUT_TOPIC_CONFIG,
                        Type.STRING,
                        OUTPUT_TOPIC_DEFAULT,
                        Validators.outputTemplate(),
                        Importance.HIGH,
                        OUTPUT_TOPIC_DOC,
                        TOPICS_GROUP,
                        order.next(TOPICS_GROUP),
                        Width.MEDIUM,
                        "Output topic")
                .define(
                        DLQ_TOPIC_CONFIG,
                        Type.STRING,
                        DLQ_TOPIC_DEFAULT,
                        Validators.outputTemplate(),
                        Importance.HIGH,
                        DLQ_TOPIC_DOC,
                        TOPICS_GROUP,
                        order.next(TOPICS_GROUP),
                        Width.MEDIUM,
                        "Dead-letter topic")
                .define(
                        POLICY_CONFIG,
                        Type.STRING,
                        ConfigNames.of(Policy.STRICT),
                        Validators.oneOf(configNames(Policy.values(), ConfigNames::of)),
                        Importance.HIGH,
                        POLICY_DOC,
                        CHECKS_GROUP,
                        order.next(CHECKS_GROUP),
                        Width.SHORT,
                        "Policy")
                .define(
                        PAYLOAD_FORMAT_CONFIG,
                        Type.STRING,
                        PayloadFormat.TEXT.configName(),
                        Validators.oneOf(configNames(PayloadFormat.values(), PayloadFormat::configName)),
                        Importance.HIGH,
                        PAYLOAD_FORMAT_DOC,
                        CHECKS_GROUP,
                        order.next(CHECKS_GROUP),
                        Width.SHORT,
                        "Payload format")
                .define(
                        CHECK_KEY_CONFIG,
                        Type.BOOLEAN,
                        false,
                        Importance.MEDIUM,
                        CHECK_KEY_DOC,
                        CHECKS_GROUP,
                        order.next(CHECKS_GROUP),
                        Width.SHORT,
                        "Check key")
                .define(
                        CHECK_HEADERS_CONFIG,
                        Type.LIST,
                        "",
                        Validators.headerNames(),
                        Importance.MEDIUM,
                        CHECK_HEADERS_DOC,
                        CHECKS_GROUP,
                        order.next(CHECKS_GROUP),
                        Width.LONG,
                        "Checked headers")
                .define(
                        JSON_SURROGATE_ESCAPES_CONFIG,
                        Type.BOOLEAN,
                        false,
                        Importance.LOW,
                        JSON_SURROGATE_ESCAPES_DOC,
                        CHECKS_GROUP,
                        order.next(CHECKS_GROUP),
                        Width.SHORT,
                        "JSON surrogate escapes")
                .define(
                        PROTOBUF_CHECK_ALL_STRINGS_CONFIG,
                        Type.BOOLEAN,
                        false,
                        Importance.LOW,
                        PROTOBUF_CHECK_ALL_STRINGS_DOC,
                        CHECKS_GROUP,
                        order.next(CHECKS_GROUP),
                        Width.SHORT,
                        "Protobuf: check all strings")
                .define(
                        SERDE_INNER_CONFIG,
                        Type.CLASS,
                        "org.apache.kafka.common.serialization.Serdes$ByteArraySerde",
                        Importance.LOW,
                        SERDE_INNER_DOC,
                        CHECKS_GROUP,
                        order.next(CHECKS_GROUP),
                        Width.LONG,
                        "Wrapped serde")
                .define(
                        SERDE_KEY_PAYLOAD_FORMAT_CONFIG,
                        Type.STRING,
                        PayloadFormat.TEXT.configName(),
                        Validators.oneOf(configNames(PayloadFormat.values(), PayloadFormat::configName)),
                        Importance.LOW,
                        SERDE_KEY_PAYLOAD_FORMAT_DOC,
                        CHECKS_GROUP,
                        order.next(CHECKS_GROUP),
                        Width.SHORT,
                        "Serde key payload format")
                .define(
                        CONTENT_RULES_CONFIG,
                        Type.LIST,
                        "",
                        Validators.contentRules(),
                        Importance.MEDIUM,
                        CONTENT_RULES_DOC,
                        CONTENT_GROUP,
                        order.next(CONTENT_GROUP),
                        Width.LONG,
                        "Content rules")
                .define(
                        NORMALISATION_CONFIG,
                        Type.STRING,
                        ConfigNames.of(Normalisation.NONE),
                        Validators.oneOf(configNames(Normalisation.values(), ConfigNames::of)),
                        Importance.MEDIUM,
                        NORMALISATION_DOC,
                        CONTENT_GROUP,
                        order.next(CONTENT_GROUP),
                        Width.SHORT,
                        "Normalisation");
        // The registry's keys are defined beside the settings they make (as MirrorSourceConfig
        // composes the definitions of its parts), in their own group.
        SchemaRegistryKeys.define(def, order);
        CONFIG = def.define(
                        DLQ_CONTEXT_BYTES_CONFIG,
                        Type.INT,
                        8,
                        Range.between(0, 64),
                        Importance.LOW,
                        DLQ_CONTEXT_BYTES_DOC,
                        OPERATIONS_GROUP,
                        order.next(OPERATIONS_GROUP),
                        Width.SHORT,
                        "Dead-letter context bytes")
                .define(
                        HTTP_PORT_CONFIG,
                        Type.INT,
                        8080,
                        Range.between(-1, 65535),
                        Importance.MEDIUM,
                        HTTP_PORT_DOC,
                        OPERATIONS_GROUP,
                        order.next(OPERATIONS_GROUP),
                        Width.SHORT,
                        "HTTP port")
                .define(
                        SHUTDOWN_TIMEOUT_MS_CONFIG,
                        Type.LONG,
                        30_000L,
                        Range.atLeast(0),
                        Importance.LOW,
                        SHUTDOWN_TIMEOUT_MS_DOC,
                        OPERATIONS_GROUP,
                        order.next(OPERATIONS_GROUP),
                        Width.SHORT,
                        "Shutdown timeout")
                .define(
                        ON_FATAL_ERROR_CONFIG,
                        Type.STRING,
                        ConfigNames.of(FatalErrorResponse.SHUTDOWN_CLIENT),
                        Validators.oneOf(configNames(FatalErrorResponse.values(), ConfigNames::of)),
                        Importance.LOW,
                        ON_FATAL_ERROR_DOC,
                        OPERATIONS_GROUP,
                        order.next(OPERATIONS_GROUP),
                        Width.SHORT,
                        "On a fatal error")
                .define(
                        STARTUP_TIMEOUT_MS_CONFIG,
                        Type.LONG,
                        30_000L,
                        Range.atLeast(1),
                        Importance.LOW,
                        STARTUP_TIMEOUT_MS_DOC,
                        OPERATIONS_GROUP,
                        order.next(OPERATIONS_GROUP),
                        Width.SHORT,
                        "Start-up timeout")
                .define(
                        CIRCUIT_BREAKER_SHARE_CONFIG,
                        Type.DOUBLE,
                        1.0,
                        Range.between(0.0, 1.0),
                        Importance.MEDIUM,
                        CIRCUIT_BREAKER_SHARE_DOC,
                        OPERATIONS_GROUP,
                        order.next(OPERATIONS_GROUP),
                        Width.SHORT,
                        "Circuit breaker dead-letter share")
                .define(
                        CIRCUIT_BREAKER_WINDOW_CONFIG,
                        Type.INT,
                        1000,
                        Range.between(1, 1_000_000),
                        Importance.LOW,
                        CIRCUIT_BREAKER_WINDOW_DOC,
                        OPERATIONS_GROUP,
                        order.next(OPERATIONS_GROUP),
                        Width.SHORT,
                        "Circuit breaker window")
                .define(
                        CIRCUIT_BREAKER_MIN_CONFIG,
                        Type.INT,
                        100,
                        Range.atLeast(1),
                        Importance.LOW,
                        CIRCUIT_BREAKER_MIN_DOC,
                        OPERATIONS_GROUP,
                        order.next(OPERATIONS_GROUP),
                        Width.SHORT,
                        "Circuit breaker minimum records");
        // The console's keys, like the registry's, are defined beside the settings they make.
        ConsoleKeys.define(def, order);
        def.define(
                        ON_REJECT_CONFIG,
                        Type.STRING,
                        ConfigNames.of(RejectAction.FAIL),
                        Validators.oneOf(configNames(RejectAction.values(), ConfigNames::of)),
                        Importance.HIGH,
                        ON_REJECT_DOC,
                        CONNECT_GROUP,
                        order.next(CONNECT_GROUP),
                        Width.SHORT,
                        "On reject")
                .define(
                        FIELDS_CONFIG,
                        Type.LIST,
                        "",
                        Validators.fieldPaths(),
                        Importance.MEDIUM,
                        FIELDS_DOC,
                        CONNECT_GROUP,
                        order.next(CONNECT_GROUP),
                        Width.LONG,
                        "Fields")
                .define(
                        HEADER_TYPE_CONFIG,
                        Type.STRING,
                        ConfigNames.of(HeaderType.STRING),
                        Validators.oneOf(configNames(HeaderType.values(), ConfigNames::of)),
                        Importance.LOW,
                        HEADER_TYPE_DOC,
                        CONNECT_GROUP,
                        order.next(CONNECT_GROUP),
                        Width.SHORT,
                        "Header type");
    }

    private final Set<Requirement> requirements;
    private final List<String> inputTopics;
    private final Optional<Pattern> inputPattern;
    private final TopicTemplate outputTopic;
    private final TopicTemplate dlqTopic;
    private final Policy policy;
    private final PayloadFormat payloadFormat;
    private final boolean checkKey;
    private final List<String> checkHeaders;
    private final boolean jsonSurrogateEscapes;
    private final boolean protobufCheckAllStrings;
    private final ContentRules contentRules;
    private final Normalisation normalisation;
    private final Optional<String> schemaRegistryUrl;
    private final Optional<SchemaRegistrySettings> schemaRegistry;
    private final Class<?> serdeInner;
    private final PayloadFormat serdeKeyPayloadFormat;
    private final int dlqContextBytes;
    private final ConsoleSettings console;
    private final OptionalInt httpPort;
    private final FatalErrorResponse onFatalError;
    private final Duration shutdownTimeout;
    private final Duration startupTimeout;
    private final CircuitBreakerSettings circuitBreaker;
    private final RejectAction onReject;
    private final List<String> fields;
    private final HeaderType headerType;
    private final Map<String, Object> passThrough;

    /**
     * A configuration checked against every {@link Requirement}: the processor's.
     *
     * @throws SanitiserConfigException with every problem found
     */
    public SanitiserConfig(Map<?, ?> props) {
        this(props, Requirement.all());
    }

    /**
     * A configuration checked against these requirements and every rule that always applies.
     *
     * @throws SanitiserConfigException with every problem found
     */
    public SanitiserConfig(Map<?, ?> props, Set<Requirement> requirements) {
        super(CONFIG, checked(props, requirements), false);
        this.requirements = Set.copyOf(requirements);
        this.inputTopics = List.copyOf(getList(INPUT_TOPICS_CONFIG));
        this.inputPattern = optionalString(INPUT_PATTERN_CONFIG).map(Pattern::compile);
        this.outputTopic = TopicTemplate.parse(getString(OUTPUT_TOPIC_CONFIG));
        this.dlqTopic = TopicTemplate.parse(getString(DLQ_TOPIC_CONFIG));
        this.policy = ConfigNames.parse(Policy.class, getString(POLICY_CONFIG)).orElseThrow();
        this.payloadFormat =
                PayloadFormat.fromConfigName(getString(PAYLOAD_FORMAT_CONFIG)).orElseThrow();
        this.checkKey = getBoolean(CHECK_KEY_CONFIG);
        this.checkHeaders = List.copyOf(getList(CHECK_HEADERS_CONFIG));
        this.jsonSurrogateEscapes = getBoolean(JSON_SURROGATE_ESCAPES_CONFIG);
        this.protobufCheckAllStrings = getBoolean(PROTOBUF_CHECK_ALL_STRINGS_CONFIG);
        this.contentRules = ContentRulesSetting.parse(getList(CONTENT_RULES_CONFIG));
        this.normalisation = ConfigNames.parse(Normalisation.class, getString(NORMALISATION_CONFIG))
                .orElseThrow();
        this.schemaRegistryUrl = optionalString(SchemaRegistryKeys.SCHEMA_REGISTRY_URL_CONFIG);
        this.schemaRegistry = schemaRegistryUrl.map(url -> SchemaRegistrySettings.of(this));
        this.serdeInner = getClass(SERDE_INNER_CONFIG);
        this.serdeKeyPayloadFormat = PayloadFormat.fromConfigName(getString(SERDE_KEY_PAYLOAD_FORMAT_CONFIG))
                .orElseThrow();
        this.dlqContextBytes = getInt(DLQ_CONTEXT_BYTES_CONFIG);
        this.console = ConsoleSettings.of(this);
        int port = getInt(HTTP_PORT_CONFIG);
        this.httpPort = port < 0 ? OptionalInt.empty() : OptionalInt.of(port);
        this.onFatalError = ConfigNames.parse(FatalErrorResponse.class, getString(ON_FATAL_ERROR_CONFIG))
                .orElseThrow();
        this.shutdownTimeout = Duration.ofMillis(getLong(SHUTDOWN_TIMEOUT_MS_CONFIG));
        this.startupTimeout = Duration.ofMillis(getLong(STARTUP_TIMEOUT_MS_CONFIG));
        this.circuitBreaker = new CircuitBreakerSettings(
                getDouble(CIRCUIT_BREAKER_SHARE_CONFIG),
                getInt(CIRCUIT_BREAKER_WINDOW_CONFIG),
                getInt(CIRCUIT_BREAKER_MIN_CONFIG));
        this.onReject = ConfigNames.parse(RejectAction.class, getString(ON_REJECT_CONFIG))
                .orElseThrow();
        this.fields = List.copyOf(getList(FIELDS_CONFIG));
        this.headerType = ConfigNames.parse(HeaderType.class, getString(HEADER_TYPE_CONFIG))
                .orElseThrow();
        Map<String, Object> passThrough = new LinkedHashMap<>(originals());
        passThrough.keySet().removeAll(CONFIG.names());
        this.passThrough = Collections.unmodifiableMap(passThrough);
    }

    /** A copy of the definitions, for hosts that publish them (Connect's {@code config()}) and for docs. */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    /**
     * Every problem with {@code props}, without building a configuration: each bad value once, in the
     * order of the definitions, then unknown {@code sanitiser.} keys, then problems between keys, then
     * Kafka Streams exception handlers that could lose a record.
     * Empty when {@code new SanitiserConfig(props, requirements)} would succeed.
     */
    public static List<ConfigProblem> validate(Map<?, ?> props, Set<Requirement> requirements) {
        List<ConfigProblem> problems = new ArrayList<>();
        Map<String, Object> parsed = parseEach(CONFIG, props, problems);
        MisspeltKeys.check(props, problems);
        new ConfigCrossChecks(props, parsed, requirements, problems).run();
        if (requirements.contains(Requirement.STREAMS_FAILURE_HANDLING)) {
            StreamsExceptionHandlers.check(props, problems);
        }
        return problems;
    }

    /**
     * Each key of {@code def}, parsed from {@code props} (or its default) and checked by its
     * validator; a problem for each bad value, which is then left out of the result.
     */
    static Map<String, Object> parseEach(ConfigDef def, Map<?, ?> props, List<ConfigProblem> problems) {
        Map<String, Object> parsed = new HashMap<>();
        for (ConfigDef.ConfigKey key : def.configKeys().values()) {
            try {
                Object value = props.containsKey(key.name)
                        ? ConfigDef.parseType(key.name, props.get(key.name), key.type)
                        : key.defaultValue;
                if (key.validator != null) {
                    key.validator.ensureValid(key.name, value);
                }
                parsed.put(key.name, value);
            } catch (ConfigException e) {
                problems.add(new ConfigProblem(key.name, e.getMessage()));
            }
        }
        return parsed;
    }

    /** The definitions of the Schema Registry group only, for a registry client built from a plain map. */
    static ConfigDef schemaRegistryConfigDef() {
        ConfigDef def = new ConfigDef();
        CONFIG.configKeys().values().stream()
                .filter(key -> SCHEMA_REGISTRY_GROUP.equals(key.group))
                .forEach(def::define);
        return def;
    }

    /** The keys this class defines: {@code sanitiser.*} and {@code schema.registry.url}. */
    public static Set<String> definedKeys() {
        return CONFIG.names();
    }

    /**
     * This configuration with some values added or replaced, checked against the same requirements:
     * for example {@code schema.registry.url} once {@code run} has started a test registry.
     *
     * @throws SanitiserConfigException with every problem found
     */
    public SanitiserConfig withOverrides(Map<String, ?> overrides) {
        Map<String, Object> props = new HashMap<>(originals());
        props.putAll(overrides);
        return new SanitiserConfig(props, requirements);
    }

    /** The input topics; empty when {@link #inputPattern()} is set, or when neither is (the SMT). */
    public List<String> inputTopics() {
        return inputTopics;
    }

    /** The input topic pattern, when topics are chosen by pattern. */
    public Optional<Pattern> inputPattern() {
        return inputPattern;
    }

    /** Where passing, replaced and repaired records go. */
    public TopicTemplate outputTopicTemplate() {
        return outputTopic;
    }

    /** Where rejected records go. */
    public TopicTemplate dlqTopicTemplate() {
        return dlqTopic;
    }

    /** What to do with a record that is not well-formed UTF-8. */
    public Policy policy() {
        return policy;
    }

    /** How to read the record value. */
    public PayloadFormat payloadFormat() {
        return payloadFormat;
    }

    /** Whether the record key is checked too. */
    public boolean checkKey() {
        return checkKey;
    }

    /** The headers whose values are checked too, in the configured order. */
    public List<String> checkHeaders() {
        return checkHeaders;
    }

    /** The class of the serde the sanitising serdes wrap when built from configuration. */
    public Class<?> serdeInner() {
        return serdeInner;
    }

    /** The payload format of keys for the sanitising serdes ({@code sanitiser.serde.key.payload.format}). */
    public PayloadFormat serdeKeyPayloadFormat() {
        return serdeKeyPayloadFormat;
    }

    /** Whether JSON values are checked for escaped lone surrogates too. */
    public boolean jsonSurrogateEscapes() {
        return jsonSurrogateEscapes;
    }

    /** Whether Protobuf values have every string field checked, not only those protobuf checks. */
    public boolean protobufCheckAllStrings() {
        return protobufCheckAllStrings;
    }

    /** The action for each content rule. */
    public ContentRules contentRules() {
        return contentRules;
    }

    /** The normalisation form text is brought into. */
    public Normalisation normalisation() {
        return normalisation;
    }

    /** The Schema Registry URL or URLs, comma-separated, as configured. */
    public Optional<String> schemaRegistryUrl() {
        return schemaRegistryUrl;
    }

    /**
     * The Schema Registry client's settings: URLs, credentials, TLS, timeouts and retries; empty when
     * {@code schema.registry.url} is not set.
     */
    public Optional<SchemaRegistrySettings> schemaRegistry() {
        return schemaRegistry;
    }

    /** How many bytes either side of the first error the {@code __utf8.context} header shows. */
    public int dlqContextBytes() {
        return dlqContextBytes;
    }

    /** The DLQ console's settings. */
    public ConsoleSettings console() {
        return console;
    }

    /** The port of the metrics and health endpoint (0: any free port), or empty when it is off. */
    public OptionalInt httpPort() {
        return httpPort;
    }

    /** {@code sanitiser.on.fatal.error}, in Kafka Streams' spelling: {@code SHUTDOWN_CLIENT} ... */
    public FatalErrorResponse onFatalError() {
        return onFatalError;
    }

    /** How long a shutdown waits for the stream threads to close. */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** How long start-up waits for the Kafka cluster, each step. */
    public Duration startupTimeout() {
        return startupTimeout;
    }

    /** {@code sanitiser.circuit.breaker.*}: {@link CircuitBreakerSettings#OFF} unless set. */
    public CircuitBreakerSettings circuitBreaker() {
        return circuitBreaker;
    }

    /** What the Connect SMT does with a record it rejects. */
    public RejectAction onReject() {
        return onReject;
    }

    /** The Connect SMT's field paths, in the configured order; empty: every string. */
    public List<String> fields() {
        return fields;
    }

    /** The Connect type of the headers the SMT adds. */
    public HeaderType headerType() {
        return headerType;
    }

    /**
     * Every property this class does not define, unchanged: Kafka Streams, client, security and
     * registry client settings, for whoever builds the Kafka objects. Unmodifiable.
     */
    public Map<String, Object> passThroughProperties() {
        return passThrough;
    }

    /**
     * The properties for Kafka Streams: {@link #passThroughProperties()}, with {@code
     * processing.guarantee} set to {@value #DEFAULT_PROCESSING_GUARANTEE} and {@code
     * session.timeout.ms} to {@value #DEFAULT_SESSION_TIMEOUT_MS} unless given (a {@code consumer.} or
     * {@code main.consumer.} key still wins in Kafka Streams). A new modifiable map on each call.
     */
    public Map<String, Object> streamsProperties() {
        Map<String, Object> streams = new LinkedHashMap<>(passThrough);
        streams.putIfAbsent(PROCESSING_GUARANTEE_CONFIG, DEFAULT_PROCESSING_GUARANTEE);
        streams.putIfAbsent(SESSION_TIMEOUT_MS_CONFIG, DEFAULT_SESSION_TIMEOUT_MS);
        return streams;
    }

    /** An optional string key's value; empty when unset or set to the empty string. */
    private Optional<String> optionalString(String key) {
        return Optional.ofNullable(getString(key)).filter(value -> !value.isEmpty());
    }

    private static Map<?, ?> checked(Map<?, ?> props, Set<Requirement> requirements) {
        Objects.requireNonNull(props, "props");
        Objects.requireNonNull(requirements, "requirements");
        List<ConfigProblem> problems = validate(props, requirements);
        if (!problems.isEmpty()) {
            throw new SanitiserConfigException(problems);
        }
        return props;
    }

    static <E> String[] configNames(E[] values, Function<E, String> name) {
        return Arrays.stream(values).map(name).toArray(String[]::new);
    }
}
