package dev.utf8sanitiser.app.dlq;

import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which dead-letter records a command acts on: by rule, by source ({@code TOPIC}, {@code
 * TOPIC-P} or {@code TOPIC-P@OFFSET}) and by field path. Empty criteria select everything; a
 * record the sanitiser did not annotate is selected only when no criterion is given.
 */
public record Selection(Optional<String> rule, Optional<Source> source, Optional<String> field) {
    /** Everything. */
    public static final Selection ALL = new Selection(Optional.empty(), Optional.empty(), Optional.empty());

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
        return rule.isEmpty() && source.isEmpty() && field.isEmpty();
    }

    public boolean matches(DeadLetter record) {
        if (record.annotation().isEmpty()) {
            return isAll();
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
}
