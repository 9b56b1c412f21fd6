package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.content.ContentRule;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every reason a record can be dead-lettered, each with its family, the section of the
 * documentation that explains it and a description: the one vocabulary of {@code __utf8.rule},
 * {@code __utf8.cause}, the {@code rule} tag of the metrics, the one-line message and the DLQ
 * tools. The spellings are a public contract (docs/dlq.md): they never change once released.
 *
 * <p>The seven UTF-8 rules and the content rules are core's {@link Rule} and {@link ContentRule}
 * under the same names; the others exist only where records are read. A new family (a payload
 * format, say) is a constant of {@link Family} and its rules' constants here, nothing else.
 */
public enum DeadLetterRule {
    UNEXPECTED_CONTINUATION(Rule.UNEXPECTED_CONTINUATION),
    NON_SHORTEST_FORM(Rule.NON_SHORTEST_FORM),
    SURROGATE(Rule.SURROGATE),
    OUT_OF_RANGE(Rule.OUT_OF_RANGE),
    INVALID_BYTE(Rule.INVALID_BYTE),
    TRUNCATED(Rule.TRUNCATED),
    TRUNCATED_AT_END(Rule.TRUNCATED_AT_END),

    NUL(ContentRule.NUL),
    C0_CONTROL(ContentRule.C0_CONTROL),
    C1_CONTROL(ContentRule.C1_CONTROL),
    NONCHARACTER(ContentRule.NONCHARACTER),
    BYTE_ORDER_MARK(ContentRule.BYTE_ORDER_MARK),
    PRIVATE_USE(ContentRule.PRIVATE_USE),
    LINE_SEPARATOR(ContentRule.LINE_SEPARATOR),
    CR(ContentRule.CR),
    NOT_NORMALISED(ContentRule.NOT_NORMALISED),

    /** Shorter than the wire format's prefix, another magic byte, or an id of a schema not Avro. */
    NOT_AVRO(Family.AVRO, "not Avro in Confluent's wire format, or its schema id names no Avro schema"),
    /** The registry answered that the id does not exist (Avro, and Confluent-framed JSON). */
    UNKNOWN_SCHEMA(Family.AVRO, "the registry has no schema of this id"),
    /** The registry has a schema for the id, but it cannot be used. */
    UNUSABLE_SCHEMA(Family.AVRO, "the registry's schema of this id cannot be used"),
    /** The binary does not match the writer schema. */
    MALFORMED_AVRO(Family.AVRO, "the binary does not match the writer schema"),

    /** Shorter than the prefix, another magic byte, or an id of a schema not Protobuf. */
    NOT_PROTOBUF(Family.PROTOBUF, "not Protobuf in Confluent's wire format, or its schema id names no Protobuf schema"),
    /** The message indexes or the message do not match the schema, as protobuf-java reads them. */
    MALFORMED_PROTOBUF(Family.PROTOBUF, "the bytes are not a message of the type the schema names"),

    /** Not one JSON document, or nested too deep. */
    INVALID_JSON(Family.JSON, "not a JSON document"),
    /** An escape such as {@code \uD800} with no partner, when checked. */
    LONE_SURROGATE_ESCAPE(Family.JSON, "a \\u escape of half a surrogate pair"),

    /** Replaced, repaired or normalised, the record would be larger than the output topic takes. */
    REPLACEMENT_TOO_LARGE(Family.SIZE, "the changed record is larger than the output topic takes"),
    /** The record, as it is, is larger than the topic it must go to takes. */
    RECORD_TOO_LARGE(Family.SIZE, "the record is larger than the topic it must go to takes"),

    /** A Connect value whose Structs, Maps and Lists nest deeper than the walk goes. */
    NESTED_TOO_DEEP(Family.CONNECT_VALUE, "a value nested too deep"),
    /** A Connect Map or List that contains itself, so that no walk of it ends. */
    CYCLIC_VALUE(Family.CONNECT_VALUE, "a Map or List that contains itself");

    /** A kind of rule, and the section of the documentation (from the repository's root) on it. */
    public enum Family {
        /** The seven UTF-8 rules of core's validator. */
        UTF8("docs/rules.md#the-seven-rules", true),
        /** Core's content rules, when their action is {@code reject}. */
        CONTENT("docs/content-rules.md#content-rules", true),
        /** Avro in Confluent's wire format, and the registry's answers about a schema id. */
        AVRO("docs/payload-formats.md", false),
        /** Protobuf in Confluent's wire format (the registry's answers are {@link #AVRO}'s rules). */
        PROTOBUF("docs/payload-formats.md", false),
        /** JSON documents. */
        JSON("docs/payload-formats.md", false),
        /** A copy too large for the topic it was meant for. */
        SIZE("docs/dlq.md#records-too-large", false),
        /** The shape of a value the Connect transformation walks. */
        CONNECT_VALUE("docs/connect.md#deep-and-cyclic-values", false);

        private final String docs;
        private final boolean text;

        Family(String docs, boolean text) {
            this.docs = docs;
            this.text = text;
        }

        /** The page, and the heading's anchor if any: {@code docs/rules.md#the-seven-rules}. */
        public String docs() {
            return docs;
        }

        /**
         * Whether its rules are about the text itself, the same in any payload format (core's): their
         * description says what the marked bytes are. The other families' rules are about the record,
         * and its message says more than a line could.
         */
        public boolean text() {
            return text;
        }

        /** Its rules, in declaration order. */
        public List<DeadLetterRule> rules() {
            return Arrays.stream(DeadLetterRule.values())
                    .filter(r -> r.family == this)
                    .toList();
        }
    }

    private static final Map<String, DeadLetterRule> BY_SPELLING = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(DeadLetterRule::spelling, Function.identity()));

    private final Family family;
    private final String description;

    DeadLetterRule(Rule rule) {
        this(Family.UTF8, rule.description());
    }

    DeadLetterRule(ContentRule rule) {
        this(Family.CONTENT, rule.description());
    }

    DeadLetterRule(Family family, String description) {
        this.family = Objects.requireNonNull(family, "family");
        this.description = Objects.requireNonNull(description, "description");
    }

    /** The rule core's validator names. */
    public static DeadLetterRule of(Rule rule) {
        return valueOf(rule.name());
    }

    /** The rule a content finding names. */
    public static DeadLetterRule of(ContentRule rule) {
        return valueOf(rule.name());
    }

    /**
     * The rule a header names, or empty for a name this version does not know: a record written by a
     * newer version or by another tool, which a reader shows by its spelling as it came.
     */
    public static Optional<DeadLetterRule> named(String spelling) {
        return Optional.ofNullable(BY_SPELLING.get(spelling));
    }

    /** Every rule's spelling, in declaration order: what a name given by a user may be. */
    public static List<String> spellings() {
        return Arrays.stream(values()).map(DeadLetterRule::spelling).toList();
    }

    /** How {@code __utf8.rule}, the metrics' {@code rule} tag and messages spell it: its name. */
    public String spelling() {
        return name();
    }

    public Family family() {
        return family;
    }

    /** The section of the documentation that explains it, as {@link Family#docs()}. */
    public String docs() {
        return family.docs();
    }

    /** One line for humans: core's description for a UTF-8 or content rule. */
    public String description() {
        return description;
    }
}
