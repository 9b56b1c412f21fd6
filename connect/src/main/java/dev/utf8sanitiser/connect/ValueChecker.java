package dev.utf8sanitiser.connect;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.FieldPath;
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
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.header.internals.RecordHeaders;
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
 *   <li>{@code String}: the whole part as text; see {@link Utf16} for what a string can hold;
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
    /** Stands in for the value of a record whose strings a walk checks: not a tombstone. */
    private static final byte[] WALKED = new byte[0];

    private final Part part;
    private final Policy policy;
    private final ContentPolicy content;
    private final FieldSelection selection;
    private final RecordSanitiser wholeParts;

    private ValueChecker(
            Part part, Policy policy, ContentPolicy content, FieldSelection selection, ValueFormat format) {
        this.part = part;
        this.policy = policy;
        this.content = content;
        this.selection = selection;
        this.wholeParts = new RecordSanitiser(policy, content, format, false, List.of());
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

    Part part() {
        return part;
    }

    Policy policy() {
        return policy;
    }

    /** The verdict on {@code value}, whose schema is {@code schema} (null when schemaless). */
    Checked check(Schema schema, Object value) {
        if (value == null) {
            return Checked.PASS; // a tombstone, or a record without key
        }
        if (value instanceof byte[] bytes) {
            return checked(wholeParts.decidePart(part, bytes), this::fixedBytes);
        }
        if (value instanceof ByteBuffer buffer) {
            return checked(
                    wholeParts.decidePart(part, bytesOf(buffer)), changed -> ByteBuffer.wrap(fixedBytes(changed)));
        }
        return walk(schema, value);
    }

    /**
     * Walks a value that is not bytes. {@link RecordSanitiser} hands its {@link RecordChecks} to a
     * {@link ValueFormat}; the walk of this one value is that format, so the findings, the first
     * finding, the error count and the action combine exactly as for a JSON or Avro value.
     */
    private Checked walk(Schema schema, Object value) {
        Object[] walked = {value};
        ValueFormat format = (checkedPart, ignored, checks) -> {
            walked[0] = new Walk(checks).visit(schema, value, Path.ROOT, selection, true);
            return ignored;
        };
        Decision decision = new RecordSanitiser(policy, content, format, false, List.of())
                .decide(null, WALKED, new RecordHeaders());
        return checked(decision, changed -> walked[0]);
    }

    /** The fixed bytes of a whole part, which {@link RecordSanitiser#decidePart} puts where the part is. */
    private byte[] fixedBytes(Decision.Changed changed) {
        return part.equals(Part.KEY) ? changed.key() : changed.value();
    }

    private static Checked checked(Decision decision, Function<Decision.Changed, Object> value) {
        if (decision instanceof Decision.Changed changed) {
            return new Checked.Fixed(value.apply(changed), changed.action(), changed.errors());
        }
        if (decision instanceof Decision.DeadLetter deadLetter) {
            return new Checked.Rejected(deadLetter);
        }
        return Checked.PASS;
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
            int lone = Utf16.firstLoneSurrogate(s);
            String text = s;
            if (lone >= 0) {
                boolean fix = false;
                byte[] context = Utf16.generalisedUtf8(s);
                Optional<String> field = path.field();
                int offset = 0;
                int counted = 0;
                while (lone >= 0) {
                    offset += Utf16.utf8Length(s, counted, lone);
                    counted = lone;
                    // Length 1: the lead byte ED is the maximal subpart of ED A0..BF 80..BF (Unicode §3.9, D93b).
                    fix = checks.illFormed(new Finding(part, field, Rule.SURROGATE.name(), offset, 1, 3, context));
                    lone = Utf16.nextLoneSurrogate(s, lone + 1);
                }
                if (!fix) {
                    return s; // strict: rejected as it is; content rules need well-formed text
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
            StringBuilder s = new StringBuilder();
            append(s);
            return s.toString();
        }

        private void append(StringBuilder s) {
            if (parent == null) {
                return;
            }
            parent.append(s);
            switch (kind) {
                case FIELD -> s.append(s.length() == 0 ? "" : ".").append(step);
                case INDEX -> s.append('[').append(step).append(']');
                case MAP_VALUE -> s.append('{').append(step).append('}');
                case MAP_KEY -> s.append("{}");
            }
        }
    }
}
