package dev.utf8sanitiser.connect;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf16;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.FieldPath;
import dev.utf8sanitiser.serdes.record.FieldPathSpelling;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.RecordChecks;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import dev.utf8sanitiser.serdes.registry.SchemaRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Checks one part (key or value) of a Connect record, whatever the converter made of it, through
 * serdes' record layer, so that a Connect record gets the verdict, fixed text and findings that the
 * same text gets in the Kafka Streams sanitiser:
 *
 * <ul>
 *   <li>{@code byte[]} and {@code ByteBuffer}: the whole part, by {@link RecordSanitiser} in the
 *       payload format for a value ({@code text}, {@code json}, or {@code avro} in the Confluent
 *       wire format), as text for a key, offsets from the part's first byte;
 *   <li>{@code String}: the whole part as text, by the core's rules for strings ({@link Utf16}: a
 *       lone surrogate is {@code SURROGATE});
 *   <li>{@code Struct}, {@code Map} and {@code List}: each string {@code sanitiser.fields} selects
 *       (and each bytes field it names), by {@link RecordChecks#string}, with the path docs/dlq.md's {@code
 *       __utf8.field} spells ({@code customer.name}, {@code lines[3].sku}, {@code tags{color}}) and
 *       offsets from the string's first byte in UTF-8. A schemaless {@code Map} is a record, as the
 *       JSON object it was decoded from: its entries are fields. A fixed value is rebuilt with the
 *       same schema, copying only what holds a change.
 * </ul>
 *
 * Numbers, booleans, logical types ({@code Decimal} is bytes) and nulls are never checked.
 * Stateless; one per plugin instance.
 */
final class ValueChecker {
    private final Part part;
    private final ContentPolicy content;
    private final FieldSelection selection;
    private final RecordSanitiser sanitiser;

    private ValueChecker(
            Part part, Policy policy, ContentPolicy content, FieldSelection selection, ValueFormat format) {
        this.part = part;
        this.content = content;
        this.selection = selection;
        this.sanitiser = new RecordSanitiser(policy, content, format, false, List.of());
    }

    /**
     * A checker for {@code part} under {@code policy} and the rest of {@code config}.
     *
     * @param registry asked once, for Avro values only; the plugin owns and closes what it supplies
     */
    static ValueChecker of(Part part, Policy policy, SanitiserConfig config, Supplier<SchemaRegistry> registry) {
        return new ValueChecker(
                part,
                policy,
                ContentPolicy.of(config.contentRules(), config.normalisation()),
                FieldSelection.of(config.fields()),
                part.equals(Part.VALUE) ? ValueFormats.of(config, registry) : ValueFormat.TEXT);
    }

    /**
     * The decision on {@code value}, whose schema is {@code schema} (null when schemaless); a fixed
     * value is of the same Java type and schema as {@code value}.
     */
    Decision<Object> check(Schema schema, Object value) {
        if (value == null) {
            return Decision.pass(); // a tombstone, or a record without key
        }
        if (value instanceof byte[] bytes) {
            return sanitiser.decidePart(part, bytes).map(fixed -> fixed);
        }
        if (value instanceof ByteBuffer buffer) {
            return sanitiser.decidePart(part, bytesOf(buffer)).map(ByteBuffer::wrap);
        }
        // The findings, the first finding, the error count and the outcome combine exactly as for
        // the strings of a JSON or Avro value.
        return sanitiser.decideParsed(checks -> new Walk(checks).visit(schema, value, Path.ROOT, selection, true));
    }

    /** The buffer's remaining bytes, without moving its position. */
    private static byte[] bytesOf(ByteBuffer buffer) {
        if (buffer.hasArray()
                && buffer.arrayOffset() == 0
                && buffer.position() == 0
                && buffer.remaining() == buffer.array().length) {
            return buffer.array();
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** One walk of one value: each method returns its argument itself when nothing in it changed. */
    private final class Walk {
        private final RecordChecks checks;

        Walk(RecordChecks checks) {
            this.checks = checks;
        }

        /**
         * @param whole whether {@code value} is the whole part, which is checked whatever the selection
         */
        Object visit(Schema schema, Object value, Path path, FieldSelection selected, boolean whole) {
            if (value == null) {
                return null;
            }
            if (value instanceof String s) {
                return whole || selected.strings() ? string(s, path) : s;
            }
            if (value instanceof byte[] || value instanceof ByteBuffer) {
                boolean logical = schema != null && Decimal.LOGICAL_NAME.equals(schema.name());
                return selected.named() && !logical ? bytes(value, path) : value;
            }
            if (value instanceof Struct struct) {
                return struct(struct, path, selected);
            }
            if (value instanceof Map<?, ?> map) {
                return schema == null ? record(map, path, selected) : map(schema, map, path, selected);
            }
            if (value instanceof List<?> list) {
                return list(schema, list, path, selected);
            }
            return value;
        }

        private String string(String s, Path path) {
            String text = s;
            if (Utf16.firstLoneSurrogate(s) >= 0) {
                byte[] context = Utf16.generalisedUtf8(s);
                Optional<String> field = path.field();
                Utf16.forEachLoneSurrogate(
                        s,
                        error -> checks.illFormed(new Finding(
                                part,
                                field,
                                error.rule().name(),
                                error.offset(),
                                error.length(),
                                Utf16.SURROGATE_BYTES,
                                context)));
                if (checks.policy() == Policy.STRICT) {
                    return s; // rejected as it is; content rules need well-formed text
                }
                text = Utf16.replaceLoneSurrogates(s);
            }
            if (content == ContentPolicy.none()) {
                return text; // well-formed now, and nothing else to check
            }
            byte[] utf8 = text.getBytes(UTF_8);
            byte[] out = checks.string(part, path, utf8, 0, utf8.length);
            return out == null ? text : new String(out, UTF_8);
        }

        private Object bytes(Object value, Path path) {
            byte[] bytes = value instanceof ByteBuffer buffer ? bytesOf(buffer) : (byte[]) value;
            byte[] out = checks.string(part, path, bytes, 0, bytes.length);
            if (out == null) {
                return value;
            }
            return value instanceof ByteBuffer ? ByteBuffer.wrap(out) : out;
        }

        private Struct struct(Struct struct, Path path, FieldSelection selected) {
            Struct copy = null;
            for (Field field : struct.schema().fields()) {
                FieldSelection inside = selected.field(field.name());
                if (inside == null) {
                    continue;
                }
                // Without the default: a null stays null in a rebuilt struct.
                Object old = struct.getWithoutDefault(field.name());
                Object checked = visit(field.schema(), old, path.field(field.name()), inside, false);
                if (checked != old) {
                    if (copy == null) {
                        copy = copyOf(struct);
                    }
                    copy.put(field, checked);
                }
            }
            return copy == null ? struct : copy;
        }

        /**
         * A schemaless map, as a JSON object decodes: its entries are fields, named by their keys,
         * which are strings too. (An entry whose key is not a string is looked through, as in a map.)
         */
        private Map<?, ?> record(Map<?, ?> map, Path path, FieldSelection selected) {
            Map<Object, Object> copy = null;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Object key = entry.getKey();
                Object old = entry.getValue();
                Object newKey = key;
                Object checked = old;
                if (key instanceof String name) {
                    newKey = selected.strings() ? string(name, path.mapKey()) : name;
                    FieldSelection inside = selected.field(name);
                    if (inside != null) {
                        checked = visit(null, old, path.field(name), inside, false);
                    }
                } else {
                    checked = visit(null, old, path.mapValue(key), selected, false);
                }
                if (copy == null && (newKey != key || checked != old)) {
                    copy = upTo(map, key);
                }
                if (copy != null) {
                    copy.put(newKey, checked);
                }
            }
            return copy == null ? map : copy;
        }

        /** A map with a schema: keys and values are looked through, at the map's own selection. */
        private Map<?, ?> map(Schema schema, Map<?, ?> map, Path path, FieldSelection selected) {
            Map<Object, Object> copy = null;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Object key = entry.getKey();
                Object newKey = visit(schema.keySchema(), key, path.mapKey(), selected, false);
                Object old = entry.getValue();
                Object checked = visit(schema.valueSchema(), old, path.mapValue(key), selected, false);
                if (copy == null && (newKey != key || checked != old)) {
                    copy = upTo(map, key);
                }
                if (copy != null) {
                    copy.put(newKey, checked);
                }
            }
            return copy == null ? map : copy;
        }

        private List<?> list(Schema schema, List<?> list, Path path, FieldSelection selected) {
            Schema elements = schema == null ? null : schema.valueSchema();
            List<Object> copy = null;
            for (int i = 0; i < list.size(); i++) {
                Object old = list.get(i);
                Object checked = visit(elements, old, path.index(i), selected, false);
                if (checked != old && copy == null) {
                    copy = new ArrayList<>(list);
                }
                if (copy != null) {
                    copy.set(i, checked);
                }
            }
            return copy == null ? list : copy;
        }
    }

    private static Struct copyOf(Struct struct) {
        Struct copy = new Struct(struct.schema());
        for (Field field : struct.schema().fields()) {
            copy.put(field, struct.getWithoutDefault(field.name()));
        }
        return copy;
    }

    /** A new map holding the entries of {@code map} before {@code key}, in order. */
    private static Map<Object, Object> upTo(Map<?, ?> map, Object key) {
        Map<Object, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (Objects.equals(entry.getKey(), key)) {
                break;
            }
            copy.put(entry.getKey(), entry.getValue());
        }
        return copy;
    }

    /**
     * Where a string sits, built as the walk descends and rendered only for a finding, in docs/dlq.md's
     * spelling: fields joined by dots, {@code [i]} for an array element, {@code {key}} for a map
     * value, {@code {}} for a map key itself.
     */
    private static final class Path implements FieldPath {
        static final Path ROOT = new Path(null, Kind.FIELD, null);

        private enum Kind {
            FIELD,
            INDEX,
            MAP_VALUE,
            MAP_KEY
        }

        private final Path parent;
        private final Kind kind;
        /** The field name, the index or the map key. */
        private final Object step;

        private Path(Path parent, Kind kind, Object step) {
            this.parent = parent;
            this.kind = kind;
            this.step = step;
        }

        Path field(String name) {
            return new Path(this, Kind.FIELD, name);
        }

        Path index(int i) {
            return new Path(this, Kind.INDEX, i);
        }

        Path mapValue(Object key) {
            return new Path(this, Kind.MAP_VALUE, key);
        }

        Path mapKey() {
            return new Path(this, Kind.MAP_KEY, null);
        }

        /** The rendered path, or empty at the top. */
        Optional<String> field() {
            return parent == null ? Optional.empty() : Optional.of(render());
        }

        @Override
        public String render() {
            List<Path> steps = new ArrayList<>();
            for (Path p = this; p.parent != null; p = p.parent) {
                steps.add(p);
            }
            FieldPathSpelling spelling = new FieldPathSpelling();
            for (int i = steps.size() - 1; i >= 0; i--) {
                Path step = steps.get(i);
                switch (step.kind) {
                    case FIELD -> spelling.field((String) step.step);
                    case INDEX -> spelling.index((Integer) step.step);
                    case MAP_VALUE -> spelling.mapValue(String.valueOf(step.step));
                    case MAP_KEY -> spelling.mapKey();
                }
            }
            return spelling.toString();
        }
    }
}
