package dev.utf8sanitiser.app.dlq;

import dev.utf8sanitiser.app.dlq.Foreign.Producer;
import dev.utf8sanitiser.core.Utf8Validator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Header;

/**
 * The one reader of other tools' dead-letter headers (docs/dlq.md). Each tool appends its block
 * after the record's own headers, so the block is read at the end only, and only when the record's
 * last header is one of a known tool's: a record whose last header is no tool's carries no foreign
 * annotation. The block must be what that tool writes (its names, in its order where the order is
 * fixed, its encodings); anything else is {@link Foreign.Refused} with the reason, so that no
 * command reads half of a forged or damaged block, and no replay goes to a topic it names.
 */
public final class ForeignHeaders {
    private static final String STREAMS = Producer.KAFKA_STREAMS.prefix;
    private static final String CONNECT = Producer.KAFKA_CONNECT.prefix;
    private static final String SPRING = Producer.SPRING_KAFKA.prefix;
    private static final String RULE = Producer.CONFLUENT_RULE.prefix;

    /** What Kafka Streams' ExceptionHandlerUtils appends, in its order. */
    static final List<String> STREAMS_BLOCK = List.of(
            STREAMS + "exception",
            STREAMS + "message",
            STREAMS + "stacktrace",
            STREAMS + "topic",
            STREAMS + "partition",
            STREAMS + "offset");

    /** What Connect's DeadLetterQueueReporter appends with context headers on, in its order. */
    static final List<String> CONNECT_BLOCK = List.of(
            CONNECT + "topic",
            CONNECT + "partition",
            CONNECT + "offset",
            CONNECT + "connector.name",
            CONNECT + "task.id",
            CONNECT + "stage",
            CONNECT + "class.name",
            CONNECT + "exception.class.name",
            CONNECT + "exception.message",
            CONNECT + "exception.stacktrace");

    /** The first seven are always written; the exception's only when there is one. */
    private static final int CONNECT_ALWAYS = 7;

    /** Spring Kafka's DeadLetterPublishingRecoverer names (KafkaHeaders.DLT_*); the order varies. */
    static final Set<String> SPRING_NAMES = Set.of(
            SPRING + "original-topic",
            SPRING + "original-partition",
            SPRING + "original-offset",
            SPRING + "original-timestamp",
            SPRING + "original-timestamp-type",
            SPRING + "original-consumer-group",
            SPRING + "exception-fqcn",
            SPRING + "exception-cause-fqcn",
            SPRING + "exception-message",
            SPRING + "exception-stacktrace",
            SPRING + "key-exception-fqcn",
            SPRING + "key-exception-message",
            SPRING + "key-exception-stacktrace");

    /** What Confluent's data-contract DLQ action (DlqAction) appends, in its order; the last only with an exception. */
    static final List<String> RULE_BLOCK =
            List.of(RULE + "name", RULE + "mode", RULE + "subject", RULE + "topic", RULE + "exception");

    /** A legal Kafka topic name: what a replay may be sent to at all. */
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    private ForeignHeaders() {}

    /** Why a block is refused: the message is the operator's. */
    private static final class Refusal extends Exception {
        Refusal(String message) {
            super(message, null, false, false);
        }
    }

    /** The foreign annotation at the end of {@code headers}; empty when the last header is no known tool's. */
    public static Optional<Foreign> read(List<Header> headers) {
        if (headers.isEmpty()) {
            return Optional.empty();
        }
        Optional<Producer> producer =
                Producer.ofHeader(headers.get(headers.size() - 1).key());
        if (producer.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    switch (producer.get()) {
                        case KAFKA_STREAMS -> streams(headers);
                        case KAFKA_CONNECT -> connect(headers);
                        case SPRING_KAFKA -> spring(headers);
                        case CONFLUENT_RULE -> rule(headers);
                    });
        } catch (Refusal e) {
            return Optional.of(new Foreign.Refused(producer.get(), e.getMessage()));
        }
    }

    private static Foreign streams(List<Header> headers) throws Refusal {
        int start = headers.size() - STREAMS_BLOCK.size();
        if (start < 0 || !names(headers, start).equals(STREAMS_BLOCK)) {
            throw new Refusal("its last headers are not the six Kafka Streams writes, in its order ("
                    + String.join(", ", STREAMS_BLOCK) + ")");
        }
        Map<String, byte[]> block = block(headers, start);
        Foreign.Source source = new Foreign.Source(
                topic(block, STREAMS + "topic"),
                OptionalInt.of(partition(block, STREAMS + "partition")),
                OptionalLong.of(offset(block, STREAMS + "offset")));
        return new Foreign.Annotated(
                Producer.KAFKA_STREAMS,
                source,
                className(block, STREAMS + "exception"),
                optionalText(block, STREAMS + "message"),
                Map.of(),
                start,
                Optional.empty());
    }

    private static Foreign connect(List<Header> headers) throws Refusal {
        int start = lastIndexOf(headers, CONNECT + "topic");
        List<String> names = start < 0 ? List.of() : names(headers, start);
        boolean inOrder = names.size() >= CONNECT_ALWAYS
                && names.size() <= CONNECT_BLOCK.size()
                && names.equals(CONNECT_BLOCK.subList(0, names.size()));
        if (!inOrder) {
            throw new Refusal("its last headers are not the context headers Kafka Connect writes, in its order ("
                    + String.join(", ", CONNECT_BLOCK.subList(0, CONNECT_ALWAYS)) + ", then the exception's)");
        }
        Map<String, byte[]> block = block(headers, start);
        Foreign.Source source = new Foreign.Source(
                topic(block, CONNECT + "topic"),
                OptionalInt.of(partition(block, CONNECT + "partition")),
                OptionalLong.of(offset(block, CONNECT + "offset")));
        Map<String, String> details = new LinkedHashMap<>();
        for (String name : List.of("connector.name", "task.id", "stage", "class.name")) {
            details.put(name, text(block, CONNECT + name));
        }
        partition(block, CONNECT + "task.id"); // a task number, as Connect writes it
        String error = block.containsKey(CONNECT + "exception.class.name")
                ? className(block, CONNECT + "exception.class.name")
                : "(no exception named)";
        return new Foreign.Annotated(
                Producer.KAFKA_CONNECT,
                source,
                error,
                optionalText(block, CONNECT + "exception.message"),
                details,
                start,
                Optional.empty());
    }

    private static Foreign spring(List<Header> headers) throws Refusal {
        // The trailing run of its names, each once: a record dead-lettered again carries the earlier
        // run's original-* headers before this one's, which the first repeated name ends.
        int start = headers.size();
        Set<String> seen = new HashSet<>();
        while (start > 0) {
            String name = headers.get(start - 1).key();
            if (!name.startsWith(SPRING) || !seen.add(name)) {
                break;
            }
            start--;
        }
        Map<String, byte[]> block = block(headers, start);
        for (String name : block.keySet()) {
            if (!SPRING_NAMES.contains(name)) {
                throw new Refusal(name + " is not a header Spring Kafka's DeadLetterPublishingRecoverer writes");
            }
        }
        Foreign.Source source = new Foreign.Source(
                topic(block, SPRING + "original-topic"),
                OptionalInt.of(fixed(block, SPRING + "original-partition", Integer.BYTES)
                        .getInt()),
                OptionalLong.of(
                        fixed(block, SPRING + "original-offset", Long.BYTES).getLong()));
        if (source.partition().getAsInt() < 0 || source.offset().getAsLong() < 0) {
            throw new Refusal("negative original partition or offset: " + source);
        }
        Map<String, String> details = new LinkedHashMap<>();
        if (block.containsKey(SPRING + "original-timestamp")) {
            details.put(
                    "original-timestamp",
                    Long.toString(fixed(block, SPRING + "original-timestamp", Long.BYTES)
                            .getLong()));
        }
        for (String name : List.of("original-timestamp-type", "original-consumer-group", "exception-cause-fqcn")) {
            if (block.containsKey(SPRING + name)) {
                details.put(name, text(block, SPRING + name));
            }
        }
        String prefix = block.containsKey(SPRING + "exception-fqcn") ? "exception-" : "key-exception-";
        if (!block.containsKey(SPRING + prefix + "fqcn")) {
            throw new Refusal("no " + SPRING + "exception-fqcn nor " + SPRING + "key-exception-fqcn");
        }
        if (prefix.startsWith("key")) {
            details.put("failed", "key");
        }
        return new Foreign.Annotated(
                Producer.SPRING_KAFKA,
                source,
                className(block, SPRING + prefix + "fqcn"),
                optionalText(block, SPRING + prefix + "message"),
                details,
                start,
                Optional.empty());
    }

    private static Foreign rule(List<Header> headers) throws Refusal {
        int start = lastIndexOf(headers, RULE + "name");
        List<String> names = start < 0 ? List.of() : names(headers, start);
        if (!(names.equals(RULE_BLOCK) || names.equals(RULE_BLOCK.subList(0, RULE_BLOCK.size() - 1)))) {
            throw new Refusal("its last headers are not those Confluent's DLQ rule action writes, in its order ("
                    + String.join(", ", RULE_BLOCK) + ")");
        }
        Map<String, byte[]> block = block(headers, start);
        String name = text(block, RULE + "name");
        String mode = text(block, RULE + "mode");
        Map<String, String> details = new LinkedHashMap<>();
        details.put("name", name);
        details.put("mode", mode);
        optionalText(block, RULE + "subject").ifPresent(subject -> details.put("subject", subject));
        Optional<String> notReplayable = mode.equals("READ")
                ? Optional.empty()
                : Optional.of("Confluent's rule action ran in mode " + mode
                        + ": the record holds what the producer gave its serializer, not bytes its topic held");
        return new Foreign.Annotated(
                Producer.CONFLUENT_RULE,
                new Foreign.Source(topic(block, RULE + "topic"), OptionalInt.empty(), OptionalLong.empty()),
                "rule " + name,
                optionalText(block, RULE + "exception"),
                details,
                start,
                notReplayable);
    }

    private static int lastIndexOf(List<Header> headers, String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).key().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> names(List<Header> headers, int start) {
        return headers.subList(start, headers.size()).stream().map(Header::key).toList();
    }

    /** The block by name; every name once (the callers' checks of names and order ensure it). */
    private static Map<String, byte[]> block(List<Header> headers, int start) throws Refusal {
        Map<String, byte[]> block = new LinkedHashMap<>();
        for (Header header : headers.subList(start, headers.size())) {
            if (block.containsKey(header.key())) {
                throw new Refusal(header.key() + " twice");
            }
            block.put(header.key(), header.value());
        }
        return block;
    }

    private static Optional<String> optionalText(Map<String, byte[]> block, String name) throws Refusal {
        byte[] value = block.get(name);
        if (value == null) {
            return Optional.empty(); // the tool writes a null value for an exception without a message
        }
        if (!Utf8Validator.isWellFormed(value)) {
            throw new Refusal(name + " is not UTF-8");
        }
        return Optional.of(new String(value, StandardCharsets.UTF_8));
    }

    private static String text(Map<String, byte[]> block, String name) throws Refusal {
        return optionalText(block, name).orElseThrow(() -> new Refusal(name + " is missing or has no value"));
    }

    private static String topic(Map<String, byte[]> block, String name) throws Refusal {
        String topic = text(block, name);
        if (!TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new Refusal(name + " is not a topic name: '" + printable(topic) + "'");
        }
        return topic;
    }

    private static String className(Map<String, byte[]> block, String name) throws Refusal {
        String text = text(block, name);
        if (text.isEmpty() || text.length() > 1000 || text.chars().anyMatch(Character::isISOControl)) {
            throw new Refusal(name + " is not a class name");
        }
        return text;
    }

    /** A decimal in the form the tool writes ({@link Long#toString}): 0 or more, no sign, no padding. */
    private static long decimal(Map<String, byte[]> block, String name, long max) throws Refusal {
        String text = text(block, name);
        long n;
        try {
            n = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new Refusal(name + " is not a number: '" + printable(text) + "'");
        }
        if (!Long.toString(n).equals(text) || n < 0 || n > max) {
            throw new Refusal(name + " is not a number from 0 to " + max + ": '" + printable(text) + "'");
        }
        return n;
    }

    private static int partition(Map<String, byte[]> block, String name) throws Refusal {
        return (int) decimal(block, name, Integer.MAX_VALUE);
    }

    private static long offset(Map<String, byte[]> block, String name) throws Refusal {
        return decimal(block, name, Long.MAX_VALUE);
    }

    /** A big-endian number of exactly {@code bytes} bytes, as Spring Kafka writes it. */
    private static ByteBuffer fixed(Map<String, byte[]> block, String name, int bytes) throws Refusal {
        byte[] value = block.get(name);
        if (value == null) {
            throw new Refusal(name + " is missing");
        }
        if (value.length != bytes) {
            throw new Refusal(name + " has " + value.length + " bytes, not " + bytes);
        }
        return ByteBuffer.wrap(value);
    }

    /** Text for a message: control characters shown as {@code ?}, and at most 200 characters. */
    static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(200).forEach(c -> {
            if (Character.isISOControl(c)) {
                out.append('?');
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
