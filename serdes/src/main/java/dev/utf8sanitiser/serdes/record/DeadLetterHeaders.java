package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Header;

/**
 * The annotation of a dead-letter record, read back from its headers: what {@link
 * DeadLetterAnnotation} wrote (docs/dlq.md), for the tools that read a dead-letter topic. The one
 * reader of those headers, as the annotation is their one writer.
 *
 * <p>The record's own headers stay in a dead-letter record byte for byte, and an input record may
 * carry headers of any name, {@code __utf8.*} and {@code __streams.errors.*} included. So the
 * annotation is read from one block only: the headers from the last {@code __utf8.rule} to the
 * end, which the writer appends in one piece after the record's own. The block must be exactly
 * what the writer writes: only its names, each at most once, the ones it always writes present,
 * numbers in their decimal form, text in UTF-8. Anything else (a header appended after the
 * annotation, as Kafka Streams' and Connect's own dead-letter queues append theirs; a forged
 * {@code __utf8.rule} among the record's own headers followed by others) is no sanitiser dead
 * letter, and none of its headers is read as an annotation.
 *
 * @param rule {@code __utf8.rule} as it came, shown as it is: a name this version may not know
 * @param part {@code __utf8.part}: {@code value}, {@code key} or {@code header:NAME}
 * @param field {@code __utf8.field}, when there is one
 * @param offset {@code __utf8.offset}, from the part's first byte
 * @param length {@code __utf8.length}
 * @param errors {@code __utf8.errors}
 * @param policy {@code __utf8.policy}
 * @param context {@code __utf8.context}, when there is one
 * @param source the {@code __utf8.source.*} coordinates
 * @param sourceTimestamp {@code __utf8.source.timestamp}
 * @param message {@code __streams.errors.message}
 * @param cause {@code __utf8.cause} of a placeholder: the rule the record would have had
 * @param placeholder whether key, value and original headers (all, or all but the trace-context
 *     headers) were left out ({@code __utf8.omitted})
 */
public record DeadLetterHeaders(
        String rule,
        String part,
        Optional<String> field,
        long offset,
        int length,
        int errors,
        String policy,
        Optional<String> context,
        DeadLetterAnnotation.Source source,
        long sourceTimestamp,
        String message,
        Optional<String> cause,
        boolean placeholder) {

    /**
     * The rule {@link #rule()} names, or empty for a name this version does not know (a newer
     * version's, another tool's).
     */
    public Optional<DeadLetterRule> knownRule() {
        return DeadLetterRule.named(rule);
    }

    /** The names {@link DeadLetterAnnotation} writes in every annotation, a placeholder's too. */
    static final Set<String> ALWAYS = Set.of(
            HeaderNames.RULE,
            HeaderNames.OFFSET,
            HeaderNames.LENGTH,
            HeaderNames.ERRORS,
            HeaderNames.PART,
            HeaderNames.POLICY,
            HeaderNames.SOURCE_TOPIC,
            HeaderNames.SOURCE_PARTITION,
            HeaderNames.SOURCE_OFFSET,
            HeaderNames.SOURCE_TIMESTAMP,
            HeaderNames.STREAMS_EXCEPTION,
            HeaderNames.STREAMS_MESSAGE,
            HeaderNames.STREAMS_TOPIC,
            HeaderNames.STREAMS_PARTITION,
            HeaderNames.STREAMS_OFFSET);

    /** The names it writes in some annotations only. */
    static final Set<String> SOMETIMES = Set.of(
            HeaderNames.FIELD,
            HeaderNames.CONTEXT,
            HeaderNames.SIZE,
            HeaderNames.LIMIT,
            HeaderNames.CAUSE,
            HeaderNames.OMITTED);

    /**
     * The annotation at the end of {@code headers}; empty when the record carries none there, or
     * one the sanitiser cannot have written (see the class comment): it is no sanitiser dead letter.
     */
    public static Optional<DeadLetterHeaders> read(Iterable<Header> headers) {
        List<Header> all = list(headers);
        return block(all, start(all));
    }

    /**
     * The record's own headers, byte-exact and in their order: {@code headers} without the
     * annotation {@link #read} finds; all of them when it finds none, as they are then all the
     * record's own. Headers of annotation names the record had itself stay in.
     */
    public static List<Header> original(Iterable<Header> headers) {
        List<Header> all = list(headers);
        int start = start(all);
        return block(all, start).isPresent() ? List.copyOf(all.subList(0, start)) : List.copyOf(all);
    }

    private static List<Header> list(Iterable<Header> headers) {
        List<Header> all = new ArrayList<>();
        headers.forEach(all::add);
        return all;
    }

    /** Where the annotation would start: the last {@code __utf8.rule}, or -1. */
    private static int start(List<Header> all) {
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).key().equals(HeaderNames.RULE)) {
                return i;
            }
        }
        return -1;
    }

    private static Optional<DeadLetterHeaders> block(List<Header> all, int start) {
        if (start < 0) {
            return Optional.empty();
        }
        Map<String, String> block = new HashMap<>();
        for (Header header : all.subList(start, all.size())) {
            String name = header.key();
            byte[] value = header.value();
            if (!(ALWAYS.contains(name) || SOMETIMES.contains(name))
                    || value == null
                    || !Utf8Validator.isWellFormed(value)
                    || block.put(name, new String(value, StandardCharsets.UTF_8)) != null) {
                return Optional.empty();
            }
        }
        if (!block.keySet().containsAll(ALWAYS) || !consistent(block)) {
            return Optional.empty();
        }
        try {
            var source = new DeadLetterAnnotation.Source(
                    block.get(HeaderNames.SOURCE_TOPIC),
                    integer(block, HeaderNames.SOURCE_PARTITION),
                    number(block, HeaderNames.SOURCE_OFFSET));
            return Optional.of(new DeadLetterHeaders(
                    block.get(HeaderNames.RULE),
                    block.get(HeaderNames.PART),
                    Optional.ofNullable(block.get(HeaderNames.FIELD)),
                    number(block, HeaderNames.OFFSET),
                    integer(block, HeaderNames.LENGTH),
                    integer(block, HeaderNames.ERRORS),
                    block.get(HeaderNames.POLICY),
                    Optional.ofNullable(block.get(HeaderNames.CONTEXT)),
                    source,
                    number(block, HeaderNames.SOURCE_TIMESTAMP),
                    block.get(HeaderNames.STREAMS_MESSAGE),
                    Optional.ofNullable(block.get(HeaderNames.CAUSE)),
                    block.containsKey(HeaderNames.OMITTED)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the headers that go together are there together, as the writer writes them: size and
     * limit; a placeholder's cause, size and limit, and no field or context; the Kafka Streams
     * headers repeating the sanitiser's own.
     */
    private static boolean consistent(Map<String, String> block) {
        boolean placeholder = block.containsKey(HeaderNames.OMITTED);
        boolean sized = block.containsKey(HeaderNames.SIZE);
        try {
            if (sized) {
                number(block, HeaderNames.SIZE);
                integer(block, HeaderNames.LIMIT);
            }
        } catch (NumberFormatException e) {
            return false;
        }
        return sized == block.containsKey(HeaderNames.LIMIT)
                && placeholder == block.containsKey(HeaderNames.CAUSE)
                && (!placeholder
                        || (sized
                                && omitted(block.get(HeaderNames.OMITTED))
                                && !block.containsKey(HeaderNames.FIELD)
                                && !block.containsKey(HeaderNames.CONTEXT)))
                && block.get(HeaderNames.STREAMS_EXCEPTION).equals(DeadLetterAnnotation.EXCEPTION_NAME)
                && block.get(HeaderNames.STREAMS_TOPIC).equals(block.get(HeaderNames.SOURCE_TOPIC))
                && block.get(HeaderNames.STREAMS_PARTITION).equals(block.get(HeaderNames.SOURCE_PARTITION))
                && block.get(HeaderNames.STREAMS_OFFSET).equals(block.get(HeaderNames.SOURCE_OFFSET));
    }

    /** The values of {@code __utf8.omitted} the writer writes. */
    private static boolean omitted(String value) {
        return value.equals(DeadLetterAnnotation.OMITTED_ALL)
                || value.equals(DeadLetterAnnotation.OMITTED_ALL_BUT_TRACE);
    }

    /** A number as the writer writes it ({@link Long#toString}): no sign but minus, no padding. */
    private static long number(Map<String, String> block, String name) {
        String text = block.get(name);
        long n = Long.parseLong(text);
        if (!Long.toString(n).equals(text)) {
            throw new NumberFormatException(name + ": " + text);
        }
        return n;
    }

    private static int integer(Map<String, String> block, String name) {
        long n = number(block, name);
        if (n != (int) n) {
            throw new NumberFormatException(name + " out of range: " + n);
        }
        return (int) n;
    }
}
