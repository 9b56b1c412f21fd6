package dev.utf8sanitiser.app.dlq;

import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which dead-letter records a command acts on: by rule, by source ({@code TOPIC}, {@code
 * TOPIC-P} or {@code TOPIC-P@OFFSET}), by field path and by the tool that wrote the record. Empty
 * criteria select everything. A rule and a field are the sanitiser's: a record another tool wrote
 * ({@link Foreign}) has neither, so either criterion leaves it out; a source criterion matches the
 * coordinates its tool wrote (Confluent's rule action writes a topic only, which no partition
 * matches). A record with no annotation read, or a refused foreign one, is selected only when no
 * criterion but its producer is given.
 *
 * @param producer {@link #SANITISER} or a {@link Foreign.Producer#label}
 */
public record Selection(
        Optional<String> rule, Optional<Source> source, Optional<String> field, Optional<String> producer) {
    /** The producer name of the sanitiser's own dead letters. */
    public static final String SANITISER = "utf8-sanitiser";

    /** Everything. */
    public static final Selection ALL = new Selection(Optional.empty(), Optional.empty(), Optional.empty());

    /** A selection of any producer's records. */
    public Selection(Optional<String> rule, Optional<Source> source, Optional<String> field) {
        this(rule, source, field, Optional.empty());
    }

    /** The producer of a record: {@link #SANITISER}, a tool's label, or empty when none is known. */
    public static Optional<String> producerOf(DeadLetter record) {
        if (record.annotation().isPresent()) {
            return Optional.of(SANITISER);
        }
        return record.foreign().map(f -> f.producer().label);
    }

    /** A source criterion: a topic, or one partition of it, or one record. */
    public record Source(String topic, OptionalInt partition, OptionalLong offset) {
        private static final Pattern PARTITION = Pattern.compile("(.+)-(\\d+)(?:@(\\d+))?");

        /**
         * {@code TOPIC}, {@code TOPIC-P} or {@code TOPIC-P@OFFSET}. A topic whose own name ends in
         * {@code -N} must be given with its partition ({@code orders-2-0}).
         */
        public static Source parse(String text) {
            Matcher m = PARTITION.matcher(text);
            if (m.matches()) {
                return new Source(
                        m.group(1),
                        OptionalInt.of(Integer.parseInt(m.group(2))),
                        m.group(3) == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(m.group(3))));
            }
            if (text.contains("@")) {
                throw new IllegalArgumentException(
                        "'" + text + "' is not TOPIC, TOPIC-P or TOPIC-P@OFFSET: an offset needs a partition");
            }
            return new Source(text, OptionalInt.empty(), OptionalLong.empty());
        }
    }

    public boolean isAll() {
        return rule.isEmpty() && source.isEmpty() && field.isEmpty() && producer.isEmpty();
    }

    public boolean matches(DeadLetter record) {
        if (producer.isPresent() && !producer.equals(producerOf(record))) {
            return false;
        }
        if (record.annotation().isEmpty()) {
            Optional<Foreign.Annotated> foreign = record.foreignAnnotation();
            if (foreign.isEmpty() || rule.isPresent() || field.isPresent()) {
                return rule.isEmpty() && source.isEmpty() && field.isEmpty();
            }
            return source.isEmpty() || matches(source.get(), foreign.get().source());
        }
        DeadLetterHeaders a = record.annotation().get();
        if (rule.isPresent() && !rule.get().equals(a.rule())) {
            return false;
        }
        if (field.isPresent() && !field.get().equals(a.field().orElse(""))) {
            return false;
        }
        if (source.isPresent()) {
            Source s = source.get();
            if (!s.topic().equals(a.source().topic())) {
                return false;
            }
            if (s.partition().isPresent()
                    && s.partition().getAsInt() != a.source().partition()) {
                return false;
            }
            return s.offset().isEmpty() || s.offset().getAsLong() == a.source().offset();
        }
        return true;
    }

    private static boolean matches(Source s, Foreign.Source at) {
        if (!s.topic().equals(at.topic())) {
            return false;
        }
        if (s.partition().isPresent()
                && (at.partition().isEmpty()
                        || s.partition().getAsInt() != at.partition().getAsInt())) {
            return false;
        }
        return s.offset().isEmpty()
                || (at.offset().isPresent()
                        && s.offset().getAsLong() == at.offset().getAsLong());
    }
}
