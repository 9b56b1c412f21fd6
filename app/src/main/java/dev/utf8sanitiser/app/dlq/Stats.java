package dev.utf8sanitiser.app.dlq;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The counts of {@code dlq stats}: by rule, by source topic and partition, by field path, by hour
 * of the dead-letter record's timestamp (UTC), with the first and last seen; and by producer (the
 * sanitiser, or the other tool whose dead-letter headers the record carries) and by error, {@code
 * PRODUCER ERROR} with the exception class the tool names ({@code utf8-sanitiser RULE} for the
 * sanitiser's own). Records the sanitiser did not annotate are counted under the rule {@code (not
 * annotated)}; under the producer {@code (none)} when no known tool's headers are there either, and
 * under the error {@code PRODUCER (refused)} when a tool's headers are not what it writes.
 */
public final class Stats {
    static final String NOT_ANNOTATED = "(not annotated)";
    static final String NO_PRODUCER = "(none)";
    private static final DateTimeFormatter HOUR =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH':00Z'").withZone(ZoneOffset.UTC);

    /** The key counted for the keys past the limit of a long-lived count ({@link #Stats(int)}). */
    public static final String OTHER = "(other)";

    private final int maxKeys;
    private final Map<String, Long> byRule = new TreeMap<>();
    private final Map<String, Long> bySource = new TreeMap<>();
    private final Map<String, Long> byField = new TreeMap<>();
    private final Map<String, Long> byHour = new TreeMap<>();
    private final Map<String, Long> byProducer = new TreeMap<>();
    private final Map<String, Long> byError = new TreeMap<>();
    private long records;
    private long firstSeen = Long.MAX_VALUE;
    private long lastSeen = Long.MIN_VALUE;

    /** Counts for one read: every distinct key kept. */
    public Stats() {
        this(Integer.MAX_VALUE);
    }

    /**
     * Counts for a long-lived index: each count keeps at most {@code maxKeys} distinct keys and
     * counts the rest under {@link #OTHER}, so that a topic full of distinct field paths (hostile
     * or not) cannot fill the heap.
     */
    public Stats(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    public void add(DeadLetter record) {
        records++;
        String rule = record.annotation().map(DeadLetterHeaders::rule).orElse(NOT_ANNOTATED);
        count(byRule, rule);
        record.annotation().ifPresent(a -> {
            count(bySource, a.source().topic() + "-" + a.source().partition());
            a.field().ifPresent(field -> count(byField, field));
            count(byError, Selection.SANITISER + " " + a.rule());
        });
        count(byProducer, Selection.producerOf(record).orElse(NO_PRODUCER));
        record.foreign().ifPresent(f -> {
            if (f instanceof Foreign.Annotated a) {
                count(
                        bySource,
                        a.source().topic()
                                + (a.source().partition().isPresent()
                                        ? "-" + a.source().partition().getAsInt()
                                        : ""));
                count(byError, f.producer().label + " " + a.error());
            } else {
                count(byError, f.producer().label + " (refused)");
            }
        });
        if (record.timestamp() >= 0) {
            count(byHour, HOUR.format(Instant.ofEpochMilli(record.timestamp())));
            firstSeen = Math.min(firstSeen, record.timestamp());
            lastSeen = Math.max(lastSeen, record.timestamp());
        }
    }

    private void count(Map<String, Long> counts, String key) {
        String counted = counts.containsKey(key) || counts.size() < maxKeys ? key : OTHER;
        counts.merge(counted, 1L, Long::sum);
    }

    /** The earliest timestamp of a record counted; empty when none had one. */
    public Optional<Instant> firstSeen() {
        return firstSeen <= lastSeen ? Optional.of(Instant.ofEpochMilli(firstSeen)) : Optional.empty();
    }

    /** The latest timestamp of a record counted; empty when none had one. */
    public Optional<Instant> lastSeen() {
        return firstSeen <= lastSeen ? Optional.of(Instant.ofEpochMilli(lastSeen)) : Optional.empty();
    }

    public long records() {
        return records;
    }

    public Map<String, Long> byRule() {
        return byRule;
    }

    public Map<String, Long> bySource() {
        return bySource;
    }

    public Map<String, Long> byField() {
        return byField;
    }

    public Map<String, Long> byHour() {
        return byHour;
    }

    public Map<String, Long> byProducer() {
        return byProducer;
    }

    public Map<String, Long> byError() {
        return byError;
    }

    /** Tables for a person: each count, most first (by hour: in time order). */
    public void printTable(PrintStream out, String topics) {
        out.println("Dead letters in " + topics + ": " + records);
        if (records == 0) {
            return;
        }
        if (firstSeen <= lastSeen) {
            out.println("first " + Instant.ofEpochMilli(firstSeen) + ", last " + Instant.ofEpochMilli(lastSeen));
        }
        table(out, "producer", byProducer, true);
        table(out, "rule", byRule, true);
        if (!byError.isEmpty()) {
            table(out, "error", byError, true);
        }
        table(out, "source", bySource, true);
        if (!byField.isEmpty()) {
            table(out, "field", byField, true);
        }
        table(out, "hour (UTC)", byHour, false);
    }

    private static void table(PrintStream out, String title, Map<String, Long> counts, boolean mostFirst) {
        out.println();
        int width = Math.max(
                title.length(),
                counts.keySet().stream().mapToInt(String::length).max().orElse(0));
        out.println(pad(title, width) + "  count");
        counts.entrySet().stream()
                .sorted(
                        mostFirst
                                ? Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                                        .thenComparing(Map.Entry.comparingByKey())
                                : Map.Entry.comparingByKey())
                .forEach(e -> out.println(pad(e.getKey(), width) + "  " + e.getValue()));
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }

    /** One JSON document: {@code {"topics": [...], "records": N, "byRule": {"SURROGATE": 2}, ...}}. */
    public void writeJson(OutputStream out, Iterable<String> topics) throws IOException {
        try (JsonGenerator json =
                new JsonFactory().createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
            json.writeStartObject();
            json.writeArrayFieldStart("topics");
            for (String topic : topics) {
                json.writeString(topic);
            }
            json.writeEndArray();
            json.writeNumberField("records", records);
            if (firstSeen <= lastSeen) {
                json.writeStringField(
                        "firstSeen", Instant.ofEpochMilli(firstSeen).toString());
                json.writeStringField("lastSeen", Instant.ofEpochMilli(lastSeen).toString());
            }
            counts(json, "byRule", byRule);
            counts(json, "bySource", bySource);
            counts(json, "byField", byField);
            counts(json, "byHour", byHour);
            counts(json, "byProducer", byProducer);
            counts(json, "byError", byError);
            json.writeEndObject();
        }
        out.write('\n');
        out.flush();
    }

    private static void counts(JsonGenerator json, String name, Map<String, Long> counts) throws IOException {
        json.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            json.writeNumberField(e.getKey(), e.getValue());
        }
        json.writeEndObject();
    }
}
