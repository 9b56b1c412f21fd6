package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_ADDRESS_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_ALLOWED_HOSTS_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_ENABLED_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_SHOW_PAYLOAD_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_TOKEN_CONFIG;
import static dev.utf8sanitiser.config.ConsoleKeys.CONSOLE_TOKEN_FILE_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.CHECK_HEADERS_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.CHECK_KEY_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.CIRCUIT_BREAKER_MIN_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.CIRCUIT_BREAKER_SHARE_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.CIRCUIT_BREAKER_WINDOW_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.DLQ_CONTEXT_BYTES_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.DLQ_TOPIC_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.HEADER_TYPE_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.HTTP_PORT_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.INPUT_PATTERN_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.INPUT_TOPICS_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.ON_FATAL_ERROR_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.ON_REJECT_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.OUTPUT_TOPIC_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.POLICY_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.SERDE_INNER_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.SERDE_KEY_PAYLOAD_FORMAT_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.SHUTDOWN_TIMEOUT_MS_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.STARTUP_TIMEOUT_MS_CONFIG;

import dev.utf8sanitiser.config.ConfigProblem;
import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.SanitiserConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Which of the shared keys ({@link SanitiserConfig}) each Connect plugin takes, and the parsing of
 * a plugin's properties into a {@link SanitiserConfig}. Every key is defined once, in the {@code
 * config} module; a plugin takes all of them but those it lists here as not its own, each with the
 * reason a user is told when they set it anyway. A key added to the config module later is taken by
 * both plugins until it is listed here (and the generated docs/connect.md shows it).
 */
final class ConnectKeys {
    private static final String BREAKER =
            "the SMT has no stream to pause: a Connect task stops on errors.tolerance=none,"
                    + " and the connector's DLQ settings decide the rest";

    private static final String CONSOLE =
            "the DLQ console is served by `run` and `dlq serve`, which read a" + " dead-letter topic whoever wrote it";

    /** The keys of the Kafka Streams application and the serdes, which mean nothing in a Connect worker. */
    private static final Map<String, String> STREAMS_ONLY = Map.ofEntries(
            Map.entry(SERDE_INNER_CONFIG, "the worker's converters turn bytes into values"),
            Map.entry(SERDE_KEY_PAYLOAD_FORMAT_CONFIG, "the worker's converters turn bytes into values"),
            Map.entry(INPUT_TOPICS_CONFIG, "the connector chooses the topics"),
            Map.entry(INPUT_PATTERN_CONFIG, "the connector chooses the topics"),
            Map.entry(OUTPUT_TOPIC_CONFIG, "a record keeps its topic (Kafka's RegexRouter renames topics)"),
            Map.entry(HTTP_PORT_CONFIG, "the worker serves metrics and health"),
            Map.entry(SHUTDOWN_TIMEOUT_MS_CONFIG, "the worker stops its tasks"),
            Map.entry(STARTUP_TIMEOUT_MS_CONFIG, "the worker connects to the Kafka cluster"),
            Map.entry(ON_FATAL_ERROR_CONFIG, "the worker restarts failed tasks"),
            Map.entry(CONSOLE_ENABLED_CONFIG, CONSOLE),
            Map.entry(CONSOLE_ADDRESS_CONFIG, CONSOLE),
            Map.entry(CONSOLE_ALLOWED_HOSTS_CONFIG, CONSOLE),
            Map.entry(CONSOLE_TOKEN_CONFIG, CONSOLE),
            Map.entry(CONSOLE_TOKEN_FILE_CONFIG, CONSOLE),
            Map.entry(CONSOLE_SHOW_PAYLOAD_CONFIG, CONSOLE),
            Map.entry(CIRCUIT_BREAKER_SHARE_CONFIG, BREAKER),
            Map.entry(CIRCUIT_BREAKER_WINDOW_CONFIG, BREAKER),
            Map.entry(CIRCUIT_BREAKER_MIN_CONFIG, BREAKER));

    /** What {@link Utf8Sanitise} does not take, and why. */
    static final Map<String, String> NOT_FOR_TRANSFORM = with(
            STREAMS_ONLY,
            Map.of(
                    CHECK_KEY_CONFIG,
                    "the key is checked by Utf8Sanitise$Key, the value by Utf8Sanitise$Value; chain both for both",
                    CHECK_HEADERS_CONFIG,
                    "headers are not checked in Connect"));

    /** What {@link IsWellFormedUtf8} does not take, and why. */
    static final Map<String, String> NOT_FOR_PREDICATE = with(
            STREAMS_ONLY,
            Map.of(
                    POLICY_CONFIG, "the predicate only answers whether a record would pass unchanged",
                    ON_REJECT_CONFIG, "the predicate rejects nothing",
                    DLQ_TOPIC_CONFIG, "the predicate routes nothing",
                    DLQ_CONTEXT_BYTES_CONFIG, "the predicate writes no headers",
                    HEADER_TYPE_CONFIG, "the predicate writes no headers",
                    CHECK_HEADERS_CONFIG, "headers are not checked in Connect"));

    private ConnectKeys() {}

    /** The definitions a plugin publishes in {@code config()}: every shared key but {@code notTaken}. */
    static ConfigDef configDef(Map<String, String> notTaken) {
        ConfigDef def = new ConfigDef();
        for (ConfigDef.ConfigKey key : SanitiserConfig.configDef().configKeys().values()) {
            if (!notTaken.containsKey(key.name)) {
                def.define(key);
            }
        }
        return def;
    }

    /**
     * Parses a plugin's properties (what Connect hands {@code configure}: the keys under {@code
     * transforms.<alias>.} or {@code predicates.<alias>.}), checking every value, and reporting at once
     * every key that does not apply to the plugin and every unprefixed sanitiser key.
     *
     * @throws SanitiserConfigException with every problem found
     */
    static SanitiserConfig parse(Map<String, ?> props, Map<String, String> notTaken, String plugin) {
        List<ConfigProblem> problems = new ArrayList<>(SanitiserConfig.validate(props, Requirement.connect()));
        Set<String> defined = SanitiserConfig.definedKeys();
        for (String key : props.keySet()) {
            if (notTaken.containsKey(key)) {
                problems.add(new ConfigProblem(key, key + " does not apply to " + plugin + ": " + notTaken.get(key)));
            } else if (!defined.contains(key) && defined.contains(SanitiserConfig.PREFIX + key)) {
                // policy=replace under transforms.<alias>. would otherwise pass through unnoticed.
                problems.add(new ConfigProblem(
                        key,
                        "Unknown configuration " + key + " for " + plugin + "; did you mean " + SanitiserConfig.PREFIX
                                + key + "?"));
            }
        }
        if (!problems.isEmpty()) {
            throw new SanitiserConfigException(problems);
        }
        return new SanitiserConfig(props, Requirement.connect());
    }

    private static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
        Map<String, String> all = new LinkedHashMap<>(a);
        all.putAll(b);
        return Map.copyOf(all);
    }
}
