package dev.utf8sanitiser.config;

import static dev.utf8sanitiser.config.SanitiserConfig.CONTENT_RULES_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.DLQ_TOPIC_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.INPUT_PATTERN_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.INPUT_TOPICS_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.NORMALISATION_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.OUTPUT_TOPIC_CONFIG;
import static dev.utf8sanitiser.config.SanitiserConfig.PAYLOAD_FORMAT_CONFIG;
import static dev.utf8sanitiser.config.SchemaRegistryKeys.SCHEMA_REGISTRY_URL_CONFIG;

import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.core.content.Normalisation;
import dev.utf8sanitiser.core.content.NormalisationLibrary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The rules between keys of {@link SanitiserConfig}, applied only to values that passed their own
 * validator, so that a bad value is reported once.
 */
final class ConfigCrossChecks {
    /** Kafka Streams' {@code num.stream.threads}, which passes through. */
    static final String NUM_STREAM_THREADS_CONFIG = "num.stream.threads";

    /** Kafka Streams' {@code application.id}: the consumer group and the prefix of every transactional id. */
    static final String APPLICATION_ID_CONFIG = "application.id";

    /** The clients' {@code bootstrap.servers}. */
    static final String BOOTSTRAP_SERVERS_CONFIG = "bootstrap.servers";

    private final Map<?, ?> props;
    private final Map<String, Object> parsed;
    private final Set<Requirement> requirements;
    private final List<ConfigProblem> problems;

    /**
     * @param props the configuration as given, pass-through keys included
     * @param parsed the sanitiser's own keys that passed their validators, parsed
     */
    ConfigCrossChecks(
            Map<?, ?> props, Map<String, Object> parsed, Set<Requirement> requirements, List<ConfigProblem> problems) {
        this.props = props;
        this.parsed = parsed;
        this.requirements = requirements;
        this.problems = problems;
    }

    void run() {
        input();
        topicsDiffer();
        listedInputs();
        patternInput();
        schemaRegistry();
        optionalLibraries();
        streamThreads();
        renderedTopicsDiffer();
        patternLoops();
        kafkaIdentity();
        ConsoleKeys.crossCheck(parsed, problems);
    }

    /**
     * Kafka properties that pass through but that nothing may leave empty: an empty {@code
     * application.id} (an environment variable set to nothing, {@code KAFKA_APPLICATION_ID=}) got as
     * far as the consumer and stopped there with "Failed to construct kafka consumer", which names
     * neither the key nor the variable; an empty {@code bootstrap.servers} names no broker.
     */
    private void kafkaIdentity() {
        for (String key : List.of(APPLICATION_ID_CONFIG, BOOTSTRAP_SERVERS_CONFIG)) {
            Object value = props.get(key);
            if (value != null && value.toString().isBlank()) {
                add(key, "Invalid value '" + value + "' for configuration " + key + ": it must not be empty");
            }
        }
    }

    /**
     * An input pattern that matches the output or dead-letter topic of a topic it matches reads
     * what it wrote, again and again: {@code pat.*} with {@code ${topic}.clean} made pat.clean,
     * pat.clean.clean and so on, 41 levels deep until names reached 249 characters. A fixed name is
     * checked by {@link #patternInput}; a template is checked by a search for a topic the pattern
     * matches whose rendering it matches too ({@link PatternSearch}). The search cannot try every
     * name, so the application also skips, at run time, records of a topic it writes itself.
     */
    private void patternLoops() {
        if (inputPattern().isEmpty()) {
            return;
        }
        Pattern pattern = inputPattern().get();
        for (String key : List.of(OUTPUT_TOPIC_CONFIG, DLQ_TOPIC_CONFIG)) {
            Optional<TopicTemplate> template = template(key).filter(t -> !t.isFixed());
            if (template.isEmpty()) {
                continue;
            }
            PatternSearch search = new PatternSearch(pattern);
            search.find(name -> matchesRendered(template.get(), name, search))
                    .ifPresent(name -> add(
                            INPUT_PATTERN_CONFIG,
                            "Invalid value " + pattern + " for configuration " + INPUT_PATTERN_CONFIG + ": it matches "
                                    + name + " and also " + template.get().render(name) + ", where " + key + " "
                                    + template.get() + " sends the records of " + name
                                    + ", so the sanitiser would read its own output again and again; make the pattern"
                                    + " exclude the output and dead-letter topics"));
        }
    }

    /**
     * Output and dead-letter topics compared as rendered, which {@link #topicsDiffer} cannot do:
     * {@code orders.dlq} and {@code ${topic}.dlq} differ as text and name the same topic for the
     * input orders. Exact for listed inputs; for a pattern, exact when one template is fixed (the
     * other is inverted with {@link TopicTemplate#inputFor}), and when both hold {@code ${topic}}
     * a search ({@link PatternSearch}) for an input whose dead letters go where another's clean
     * records do.
     */
    private void renderedTopicsDiffer() {
        Optional<TopicTemplate> output = template(OUTPUT_TOPIC_CONFIG);
        Optional<TopicTemplate> dlq = template(DLQ_TOPIC_CONFIG);
        if (output.isEmpty() || dlq.isEmpty() || output.equals(dlq)) {
            return; // a bad template, or the same one, is reported already
        }
        String mixing = OUTPUT_TOPIC_CONFIG + " " + output.get() + " and " + DLQ_TOPIC_CONFIG + " " + dlq.get()
                + " would mix clean and dead-letter records: ";
        if (inputPattern().isPresent()) {
            Pattern pattern = inputPattern().get();
            String matched = ", which " + INPUT_PATTERN_CONFIG + " " + pattern + " matches, and ";
            if (output.get().isFixed()) {
                String topic = output.get().template();
                dlq.get()
                        .inputFor(topic)
                        .filter(input -> pattern.matcher(input).matches())
                        .ifPresent(input -> add(
                                DLQ_TOPIC_CONFIG,
                                mixing + topic + " would take the dead letters of " + input + matched
                                        + "the clean records of every input"));
            } else if (dlq.get().isFixed()) {
                String topic = dlq.get().template();
                output.get()
                        .inputFor(topic)
                        .filter(input -> pattern.matcher(input).matches())
                        .ifPresent(input -> add(
                                DLQ_TOPIC_CONFIG,
                                mixing + topic + " would take the clean records of " + input + matched
                                        + "the dead letters of every input"));
            } else {
                // Both depend on the input: look for one whose dead letters go where another's
                // clean records do (PatternSearch: what it finds is certain, not all is found).
                PatternSearch search = new PatternSearch(pattern);
                search.find(dead -> output.get()
                                .inputFor(render(dlq.get(), dead))
                                .filter(search::matches)
                                .isPresent())
                        .ifPresent(dead -> {
                            String topic = dlq.get().render(dead);
                            String clean = output.get().inputFor(topic).orElseThrow();
                            add(
                                    DLQ_TOPIC_CONFIG,
                                    mixing + topic + " would take the clean records of " + clean
                                            + " and the dead letters of " + dead + ", both of which "
                                            + INPUT_PATTERN_CONFIG + " " + pattern + " matches");
                        });
            }
            return;
        }
        if (!parsed.containsKey(INPUT_TOPICS_CONFIG)) {
            return;
        }
        @SuppressWarnings("unchecked")
        List<String> inputs = (List<String>) parsed.get(INPUT_TOPICS_CONFIG);
        Map<String, List<String>> clean = new LinkedHashMap<>();
        Map<String, List<String>> dead = new LinkedHashMap<>();
        for (String input : inputs) {
            try {
                clean.computeIfAbsent(output.get().render(input), t -> new ArrayList<>())
                        .add(input);
                dead.computeIfAbsent(dlq.get().render(input), t -> new ArrayList<>())
                        .add(input);
            } catch (IllegalArgumentException e) {
                return; // a name too long, reported by listedInputs
            }
        }
        List<String> mixed = new ArrayList<>();
        clean.forEach((topic, from) -> {
            if (dead.containsKey(topic)) {
                mixed.add(topic + " would take the clean records of " + and(from) + " and the dead letters of "
                        + and(dead.get(topic)));
            }
        });
        if (!mixed.isEmpty()) {
            add(DLQ_TOPIC_CONFIG, mixing + String.join("; ", mixed));
        }
    }

    /** The input pattern, when it alone is set (setting topics too is reported by {@link #input}). */
    private Optional<Pattern> inputPattern() {
        Object regex = parsed.get(INPUT_PATTERN_CONFIG);
        Object topics = parsed.get(INPUT_TOPICS_CONFIG);
        if (Validators.isAbsent(regex) || (topics != null && !((List<?>) topics).isEmpty())) {
            return Optional.empty();
        }
        return Optional.of(Pattern.compile((String) regex));
    }

    /** Whether the pattern matches what {@code template} makes of {@code input}. */
    private static boolean matchesRendered(TopicTemplate template, String input, PatternSearch search) {
        String rendered = render(template, input);
        return !rendered.isEmpty() && search.matches(rendered);
    }

    /** {@code template} rendered for {@code input}, or a name no topic has when that is too long. */
    private static String render(TopicTemplate template, String input) {
        try {
            return template.render(input);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /** {@code a}, {@code a and b}, {@code a, b and c}. */
    private static String and(List<String> names) {
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    /**
     * Kafka Streams accepts {@code num.stream.threads=0} (threads can be added later through its
     * API); the sanitiser never adds one, so it would run, healthy, and read nothing.
     */
    private void streamThreads() {
        Object value = props.get(NUM_STREAM_THREADS_CONFIG);
        if (value == null) {
            return;
        }
        try {
            int threads = (Integer) ConfigDef.parseType(NUM_STREAM_THREADS_CONFIG, value, ConfigDef.Type.INT);
            if (threads < 1) {
                add(
                        NUM_STREAM_THREADS_CONFIG,
                        "Invalid value " + value + " for configuration " + NUM_STREAM_THREADS_CONFIG
                                + ": the sanitiser needs at least one stream thread, or it reads nothing");
            }
        } catch (ConfigException e) {
            add(NUM_STREAM_THREADS_CONFIG, e.getMessage());
        }
    }

    private void input() {
        if (!parsed.containsKey(INPUT_TOPICS_CONFIG) || !parsed.containsKey(INPUT_PATTERN_CONFIG)) {
            return;
        }
        boolean topics = !((List<?>) parsed.get(INPUT_TOPICS_CONFIG)).isEmpty();
        boolean pattern = !Validators.isAbsent(parsed.get(INPUT_PATTERN_CONFIG));
        if (topics && pattern) {
            add(
                    INPUT_PATTERN_CONFIG,
                    "Set exactly one of " + INPUT_TOPICS_CONFIG + " and " + INPUT_PATTERN_CONFIG + "; both are set");
        } else if (!topics && !pattern && requirements.contains(Requirement.INPUT)) {
            add(
                    INPUT_TOPICS_CONFIG,
                    "Set exactly one of " + INPUT_TOPICS_CONFIG + " and " + INPUT_PATTERN_CONFIG
                            + "; neither is set, so there is nothing to read");
        }
    }

    private void topicsDiffer() {
        template(OUTPUT_TOPIC_CONFIG).ifPresent(output -> template(DLQ_TOPIC_CONFIG)
                .filter(output::equals)
                .ifPresent(dlq -> add(
                        DLQ_TOPIC_CONFIG,
                        OUTPUT_TOPIC_CONFIG + " and " + DLQ_TOPIC_CONFIG + " are both " + output
                                + "; clean and dead-letter records must go to different topics")));
    }

    private void listedInputs() {
        if (!parsed.containsKey(INPUT_TOPICS_CONFIG)) {
            return;
        }
        @SuppressWarnings("unchecked")
        List<String> inputs = (List<String>) parsed.get(INPUT_TOPICS_CONFIG);
        for (String key : List.of(OUTPUT_TOPIC_CONFIG, DLQ_TOPIC_CONFIG)) {
            template(key).ifPresent(template -> {
                List<String> reasons = new ArrayList<>();
                for (String input : inputs) {
                    try {
                        String rendered = template.render(input);
                        if (inputs.contains(rendered)) {
                            reasons.add(
                                    "records from " + input + " would go to " + rendered + ", which is an input topic");
                        }
                    } catch (IllegalArgumentException e) {
                        reasons.add(e.getMessage());
                    }
                }
                if (!reasons.isEmpty()) {
                    add(
                            key,
                            "Invalid value " + template + " for configuration " + key + ": "
                                    + String.join("; ", reasons));
                }
            });
        }
    }

    private void patternInput() {
        Object regex = parsed.get(INPUT_PATTERN_CONFIG);
        if (Validators.isAbsent(regex)) {
            return;
        }
        Pattern pattern = Pattern.compile((String) regex);
        for (String key : List.of(OUTPUT_TOPIC_CONFIG, DLQ_TOPIC_CONFIG)) {
            template(key)
                    .filter(TopicTemplate::isFixed)
                    .filter(template -> pattern.matcher(template.template()).matches())
                    .ifPresent(template -> add(
                            key,
                            "Invalid value " + template + " for configuration " + key + ": " + INPUT_PATTERN_CONFIG
                                    + " matches it, so the sanitiser would read its own output"));
        }
    }

    private void schemaRegistry() {
        SchemaRegistrySettings.crossCheck(parsed, problems);
        Optional<PayloadFormat> format = PayloadFormat.fromConfigName((String) parsed.get(PAYLOAD_FORMAT_CONFIG))
                .filter(PayloadFormat::needsSchemaRegistry);
        if (requirements.contains(Requirement.SCHEMA_REGISTRY_FOR_AVRO)
                && parsed.containsKey(SCHEMA_REGISTRY_URL_CONFIG)
                && Validators.isAbsent(parsed.get(SCHEMA_REGISTRY_URL_CONFIG))
                && format.isPresent()) {
            add(
                    SCHEMA_REGISTRY_URL_CONFIG,
                    "Missing " + SCHEMA_REGISTRY_URL_CONFIG + ": it is required when " + PAYLOAD_FORMAT_CONFIG + " is "
                            + format.get().configName());
        }
    }

    /**
     * ICU4J and Apache Avro are optional dependencies of the published artifacts (docs/library.md):
     * a setting that needs one that is missing is refused here, naming what to add, rather than
     * failing on the first record with a {@code NoClassDefFoundError}.
     */
    private void optionalLibraries() {
        Object normalisation = parsed.get(NORMALISATION_CONFIG);
        boolean normalising =
                normalisation != null && !Normalisation.NONE.name().equalsIgnoreCase((String) normalisation);
        Object rules = parsed.get(CONTENT_RULES_CONFIG);
        boolean checksForm = rules instanceof List<?> list
                && list.stream()
                        .anyMatch(rule -> String.valueOf(rule)
                                        .trim()
                                        .toUpperCase(Locale.ROOT)
                                        .startsWith(ContentRule.NOT_NORMALISED.name() + ":")
                                && !String.valueOf(rule)
                                        .trim()
                                        .toLowerCase(Locale.ROOT)
                                        .endsWith(":allow"));
        if ((normalising || checksForm) && !NormalisationLibrary.isPresent()) {
            add(
                    normalising ? NORMALISATION_CONFIG : CONTENT_RULES_CONFIG,
                    (normalising ? NORMALISATION_CONFIG + "=" + normalisation : "the content rule NOT_NORMALISED")
                            + " needs ICU4J (" + NormalisationLibrary.COORDINATES + ") on the class path; it is an"
                            + " optional dependency of utf8-sanitiser-core: add it to your application");
        }
        Object format = parsed.get(PAYLOAD_FORMAT_CONFIG);
        boolean avro = PayloadFormat.AVRO.configName().equalsIgnoreCase((String) format);
        boolean framedJson = PayloadFormat.JSON.configName().equalsIgnoreCase((String) format)
                && !Validators.isAbsent(parsed.get(SCHEMA_REGISTRY_URL_CONFIG));
        if ((avro || framedJson) && !isPresent("org.apache.avro.Schema")) {
            add(
                    PAYLOAD_FORMAT_CONFIG,
                    PAYLOAD_FORMAT_CONFIG + "=" + format + (framedJson ? " with " + SCHEMA_REGISTRY_URL_CONFIG : "")
                            + " needs Apache Avro (org.apache.avro:avro) on the class path; it is an optional"
                            + " dependency of utf8-sanitiser-serdes: add it to your application");
        }
        boolean protobuf = PayloadFormat.PROTOBUF.configName().equalsIgnoreCase((String) format);
        if (protobuf
                && (!isPresent("com.google.protobuf.DynamicMessage")
                        || !isPresent("com.squareup.wire.schema.internal.parser.ProtoParser"))) {
            add(
                    PAYLOAD_FORMAT_CONFIG,
                    PAYLOAD_FORMAT_CONFIG + "=protobuf needs protobuf-java (com.google.protobuf:protobuf-java) and"
                            + " wire-schema (com.squareup.wire:wire-schema-jvm) on the class path; they are optional"
                            + " dependencies of utf8-sanitiser-serdes: add them to your application");
        }
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, ConfigCrossChecks.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private Optional<TopicTemplate> template(String key) {
        return Optional.ofNullable((String) parsed.get(key)).map(TopicTemplate::parse);
    }

    private void add(String key, String message) {
        problems.add(new ConfigProblem(key, message));
    }
}
