package dev.utf8sanitiser.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The properties that environment variables set, by the rule in {@link #RULES}. Environment
 * variables override the configuration file, which overrides the defaults. Immutable.
 */
public final class EnvironmentOverrides {
    /** The prefix of variables that set Kafka Streams and client properties. */
    public static final String KAFKA_PREFIX = "KAFKA_";

    /** The prefix of variables that set the sanitiser's keys. */
    public static final String SANITISER_PREFIX = "SANITISER_";

    /** {@link #SANITISER_PREFIX} spelt the American way: never a key, always a misspelling. */
    static final String AMERICAN_PREFIX = "SANITIZER_";

    /**
     * Variables of Kafka's own launch scripts and images, which are not properties and so never
     * pass through.
     */
    public static final Set<String> IGNORED_KAFKA_VARIABLES = Set.of(
            "KAFKA_HOME",
            "KAFKA_OPTS",
            "KAFKA_HEAP_OPTS",
            "KAFKA_JVM_PERFORMANCE_OPTS",
            "KAFKA_JMX_OPTS",
            "KAFKA_LOG4J_OPTS",
            "KAFKA_GC_LOG_OPTS",
            "KAFKA_DEBUG",
            "KAFKA_VERSION");

    /** The rules, in Markdown, as docs/configuration.md prints them. */
    public static final String RULES = String.join(
            "\n",
            "Environment variables override the configuration file, which overrides the defaults. Only",
            "variables whose names are upper case (`A-Z`, `0-9`, `_`) are considered, and of those only:",
            "",
            "- a variable whose name, lower-cased with each `_` turned into `.`, is one of the keys above:",
            "  `SANITISER_POLICY` sets `sanitiser.policy`, `SCHEMA_REGISTRY_URL` sets `schema.registry.url`;",
            "- a variable whose name starts with `KAFKA_`: the rest of its name, lower-cased with each `_`",
            "  turned into `.`, is a Kafka Streams or client property and passes through unchanged:",
            "  `KAFKA_BOOTSTRAP_SERVERS` sets `bootstrap.servers`, `KAFKA_PROCESSING_GUARANTEE` sets",
            "  `processing.guarantee`, `KAFKA_SASL_JAAS_CONFIG` sets `sasl.jaas.config`. The variables of",
            "  Kafka's own scripts are not properties and are ignored: "
                    + String.join(
                            ", ",
                            IGNORED_KAFKA_VARIABLES.stream()
                                    .sorted()
                                    .map(v -> "`" + v + "`")
                                    .toList())
                    + ".",
            "",
            "Two mistakes stop the start with a message rather than being ignored: a variable that starts",
            "with `SANITISER_` (or `SANITIZER_`, spelt the American way) but names no key (`SANITISER_POLCY`,",
            "`SANITIZER_POLICY`), and a `KAFKA_` variable that would set one of the sanitiser's own keys",
            "(`KAFKA_SANITISER_POLICY`; use `SANITISER_POLICY`). Every other variable is ignored. A",
            "property whose name holds anything but lower-case letters, digits and dots cannot be set from",
            "the environment; put it in the file.");

    private static final Pattern VARIABLE = Pattern.compile("[A-Z][A-Z0-9_]*");
    private static final Pattern WORDS = Pattern.compile("[A-Z0-9]+(_[A-Z0-9]+)*");

    private final Map<String, String> properties;
    private final Map<String, String> variables;
    private final List<ConfigProblem> problems;

    private EnvironmentOverrides(
            Map<String, String> properties, Map<String, String> variables, List<ConfigProblem> problems) {
        this.properties = Collections.unmodifiableMap(properties);
        this.variables = Collections.unmodifiableMap(variables);
        this.problems = List.copyOf(problems);
    }

    /** The overrides in {@code environment}, such as {@link System#getenv()}. */
    public static EnvironmentOverrides from(Map<String, String> environment) {
        Map<String, String> properties = new TreeMap<>();
        Map<String, String> variables = new TreeMap<>();
        List<ConfigProblem> problems = new ArrayList<>();
        new TreeMap<>(environment).forEach((variable, value) -> {
            if (!VARIABLE.matcher(variable).matches()) {
                return;
            }
            String key = dotted(variable);
            if (SanitiserConfig.definedKeys().contains(key)) {
                properties.put(key, value);
                variables.put(key, variable);
            } else if (variable.startsWith(KAFKA_PREFIX) && !IGNORED_KAFKA_VARIABLES.contains(variable)) {
                String rest = variable.substring(KAFKA_PREFIX.length());
                if (!WORDS.matcher(rest).matches()) {
                    return;
                }
                String property = dotted(rest);
                if (SanitiserConfig.definedKeys().contains(property)) {
                    problems.add(new ConfigProblem(
                            property,
                            "Environment variable " + variable + " would set " + property
                                    + ", which is the sanitiser's own; use " + variableFor(property)));
                } else {
                    properties.put(property, value);
                    variables.put(property, variable);
                }
            } else if (variable.startsWith(SANITISER_PREFIX) || variable.startsWith(AMERICAN_PREFIX)) {
                problems.add(unknownVariable(variable));
            }
        });
        return new EnvironmentOverrides(properties, variables, problems);
    }

    /** A variable that looks meant for the sanitiser, {@code SANITIZER_POLICY} too, but sets no key. */
    private static ConfigProblem unknownVariable(String variable) {
        String british = variable.startsWith(AMERICAN_PREFIX)
                ? SANITISER_PREFIX + variable.substring(AMERICAN_PREFIX.length())
                : variable;
        String key = dotted(variable);
        return new ConfigProblem(
                key,
                "Unknown environment variable " + variable + ": it sets no sanitiser key"
                        + MisspeltKeys.closestKey(dotted(british))
                                .map(closest -> "; did you mean " + variableFor(closest) + "?")
                                .orElse(""));
    }

    /**
     * The variable that sets {@code key}: {@code SANITISER_POLICY} for {@code sanitiser.policy},
     * {@code KAFKA_BOOTSTRAP_SERVERS} for {@code bootstrap.servers}.
     */
    public static String variableFor(String key) {
        String name = key.toUpperCase(Locale.ROOT).replace('.', '_');
        return SanitiserConfig.definedKeys().contains(key) ? name : KAFKA_PREFIX + name;
    }

    /** The properties set, by key. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The variable that set {@code key}, if one did. */
    public Optional<String> variableSetting(String key) {
        return Optional.ofNullable(variables.get(key));
    }

    /** Variables that look meant for the sanitiser but cannot be used. */
    public List<ConfigProblem> problems() {
        return problems;
    }

    private static String dotted(String variable) {
        return variable.toLowerCase(Locale.ROOT).replace('_', '.');
    }
}
