package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.Replay;
import dev.utf8sanitiser.app.dlq.ReplayRun;
import dev.utf8sanitiser.core.Policy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A replay as a page asks for it: the form's fields, checked. The same fields go from the form to
 * the preview and from the preview's confirmation to the replay, so what is confirmed is what was
 * previewed.
 *
 * @param filter the records chosen by the list's filter (its rule, source and field are those of
 *     {@code dlq replay})
 * @param picks with {@code scope=picked}, the ticked records, as {@code P@OFFSET}; empty otherwise
 * @param to the topic to send every record to, or {@link #TO_SOURCE} to send each to the topic it
 *     was read from, as its annotation names it ({@code dlq replay --to-source})
 * @param policy {@code as-is}, {@code strict}, {@code replace} or {@code repair}
 * @param allowRepeat send records the replay log has too ({@code dlq replay --allow-repeat})
 */
record ReplayRequest(
        String topic, RecordFilter filter, Set<String> picks, String to, String policy, boolean allowRepeat) {
    static final String AS_IS = "as-is";
    /** {@code to} for each record's source topic: not a legal topic name, so never a topic's. */
    static final String TO_SOURCE = "(source)";
    /** How long a replay may spend matching regular expressions, over the whole topic. */
    static final Duration MATCH_TIME = Duration.ofMinutes(5);

    /**
     * @param picks the {@code pick} fields (one a ticked record) and the {@code picks} field (a
     *     preview's, comma-separated)
     * @throws RecordFilter.BadFilterException a filter field or a pick that cannot be meant
     */
    static ReplayRequest of(Map<String, String> fields, List<String> picks, Instant now) {
        RecordFilter filter = RecordFilter.of(fields, now);
        Set<String> chosen = new LinkedHashSet<>();
        if (fields.getOrDefault("scope", "").equals("picked")) {
            List<String> all = new ArrayList<>(picks);
            for (String p : fields.getOrDefault("picks", "").split(",")) {
                if (!p.isBlank()) {
                    all.add(p.strip());
                }
            }
            for (String p : all) {
                if (chosen.size() == Pager.MAX_SIZE) {
                    throw new RecordFilter.BadFilterException(
                            "tick at most " + Pager.MAX_SIZE + " records, or replay every match of a filter");
                }
                chosen.add(Cursor.parse(p).toString());
            }
            if (chosen.isEmpty()) {
                throw new RecordFilter.BadFilterException("tick the records to replay, or replay every match");
            }
        }
        return new ReplayRequest(
                fields.getOrDefault("topic", ""),
                filter,
                Set.copyOf(chosen),
                fields.getOrDefault("to", ""),
                fields.getOrDefault("policy", AS_IS),
                fields.getOrDefault("allowRepeat", "").equals("on"));
    }

    /** The fields that give this request back through {@link #of}, but {@code to} and {@code policy}. */
    List<String> chosenFields() {
        List<String> fields = new ArrayList<>(List.of("topic", topic));
        fields.addAll(List.of(filter.fields()));
        if (!picks.isEmpty()) {
            fields.addAll(List.of(
                    "scope",
                    "picked",
                    "picks",
                    String.join(",", picks.stream().sorted().toList())));
        }
        return fields;
    }

    /** The replay to run; the message says what is wrong with the fields. */
    ReplayRun run(boolean dryRun) {
        if (topic.isBlank()) {
            throw new IllegalArgumentException("choose the dead-letter topic to replay from");
        }
        if (to.isBlank()) {
            throw new IllegalArgumentException("choose the topic to replay to");
        }
        Optional<Policy> chosen =
                switch (policy) {
                    case AS_IS -> Optional.empty();
                    case "strict", "replace", "repair" -> Optional.of(Policy.valueOf(policy.toUpperCase(Locale.ROOT)));
                    default -> throw new IllegalArgumentException("no policy " + policy);
                };
        return new ReplayRun(
                topic,
                filter.since(),
                filter.selection(),
                toSource() ? Optional.empty() : Optional.of(to),
                chosen,
                dryRun,
                allowRepeat,
                Replay.DEFAULT_MAX_REPLAYS,
                0);
    }

    /** Whether each record goes to its own source topic. */
    boolean toSource() {
        return to.equals(TO_SOURCE);
    }

    /** Where the records go, in words: the topic, or their source topics. */
    String where() {
        return toSource() ? "their source topics" : to;
    }

    /** What the replay chooses besides {@link ReplayRun#selection()}: the rest of the filter, and the picks. */
    Predicate<DeadLetter> also() {
        ScanBudget budget = new ScanBudget(Long.MAX_VALUE, MATCH_TIME);
        return record -> (picks.isEmpty() || picks.contains(record.partition() + "@" + record.offset()))
                && filter.matches(record, budget);
    }

    /** The request in words, for the pages: which records. */
    String describe() {
        StringBuilder d = new StringBuilder();
        if (!picks.isEmpty()) {
            d.append(picks.size()).append(" ticked records");
        } else {
            d.append("every record");
        }
        String[] f = filter.fields();
        List<String> criteria = new ArrayList<>();
        for (int i = 0; i < f.length; i += 2) {
            if (!f[i + 1].isEmpty()) {
                criteria.add(f[i] + " " + f[i + 1]);
            }
        }
        if (!criteria.isEmpty()) {
            d.append(" matching ").append(String.join(", ", criteria));
        }
        return d.toString();
    }
}
