package dev.utf8sanitiser.serdes.record;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.Header;

/**
 * The annotation of a dead-letter record, read back from its headers: what {@link
 * DeadLetterAnnotation} wrote (docs/dlq.md), for the tools that read a dead-letter topic. The one
 * reader of those headers, as the annotation is their one writer.
 *
 * @param rule {@code __utf8.rule}
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
 * @param placeholder whether key, value and original headers were left out ({@code __utf8.omitted})
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
     * The annotation in {@code headers}, the last value of each name; empty when the record carries
     * no {@code __utf8.rule} (not written by the sanitiser) or a number that does not parse.
     */
    public static Optional<DeadLetterHeaders> read(Iterable<Header> headers) {
        Optional<String> rule = last(headers, HeaderNames.RULE);
        if (rule.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new DeadLetterHeaders(
                    rule.get(),
                    last(headers, HeaderNames.PART).orElse(Part.VALUE.name()),
                    last(headers, HeaderNames.FIELD),
                    number(headers, HeaderNames.OFFSET),
                    (int) number(headers, HeaderNames.LENGTH),
                    (int) number(headers, HeaderNames.ERRORS),
                    last(headers, HeaderNames.POLICY).orElse(""),
                    last(headers, HeaderNames.CONTEXT),
                    new DeadLetterAnnotation.Source(
                            last(headers, HeaderNames.SOURCE_TOPIC).orElse(""),
                            (int) number(headers, HeaderNames.SOURCE_PARTITION),
                            number(headers, HeaderNames.SOURCE_OFFSET)),
                    number(headers, HeaderNames.SOURCE_TIMESTAMP),
                    last(headers, HeaderNames.STREAMS_MESSAGE).orElse(""),
                    last(headers, HeaderNames.CAUSE),
                    last(headers, HeaderNames.OMITTED).isPresent()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The record's own headers: {@code headers} without the annotation. {@link DeadLetterAnnotation}
     * appends it after them, starting with {@code __utf8.rule}, so everything before the last
     * {@code __utf8.rule} is the record's own, a header of an annotation name it had itself included.
     */
    public static List<Header> original(Iterable<Header> headers) {
        List<Header> all = new ArrayList<>();
        headers.forEach(all::add);
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).key().equals(HeaderNames.RULE)) {
                return List.copyOf(all.subList(0, i));
            }
        }
        return List.copyOf(all);
    }

    private static Optional<String> last(Iterable<Header> headers, String name) {
        String found = null;
        for (Header header : headers) {
            if (header.key().equals(name) && header.value() != null) {
                found = new String(header.value(), StandardCharsets.UTF_8);
            }
        }
        return Optional.ofNullable(found);
    }

    private static long number(Iterable<Header> headers, String name) {
        return last(headers, name).map(String::trim).map(Long::parseLong).orElse(-1L);
    }
}
