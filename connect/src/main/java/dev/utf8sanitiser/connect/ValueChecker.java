package dev.utf8sanitiser.connect;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf16;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.FieldPath;
import dev.utf8sanitiser.serdes.record.FieldPathSpelling;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.RecordChecks;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    /**
     * The most Structs, Maps and Lists a value may hold one inside another; deeper is {@link
     * DeadLetterRule#NESTED_TOO_DEEP}. As deep as a JSON document may nest (Jackson's default), so whatever
     * {@code JsonConverter} makes passes; the walk keeps its own stack, so the limit is about the
     * work and the path, not the thread's stack.
     */
    static final int MAX_DEPTH = 1000;

    private static final byte[] NO_BYTES = {};
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
        return sanitiser.decideParsed(checks -> new Walk(checks).walk(schema, value));
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

    /**
     * One walk of one value, with its own stack of the containers it is inside, so that no value can
     * overflow the thread's stack: a container is checked as a {@link Frame}, one child at a time,
     * and each frame returns its container itself when nothing in it changed.
     */
    private final class Walk {
        /** What {@link #visit} returns for a container it entered: its frame gives the result later. */
        private static final Object ENTERED = new Object();
        /** What {@link #visit} returns when the value is rejected whole: too deep, or cyclic. */
        private static final Object STOPPED = new Object();

        private final RecordChecks checks;
        /** The containers entered and not yet left, innermost first. */
        private final Deque<Frame> frames = new ArrayDeque<>();
        /**
         * The same containers, by identity: one met again inside itself is a cycle. A value shared
         * by two places that do not hold each other is met twice, never inside itself.
         */
        private final Map<Object, Object> entered = new IdentityHashMap<>();
        /** The first string fixed since the walk of the current map key began, for a collision. */
        private Change change;
        /** Whether the value was rejected whole, and the walk ends. */
        private boolean stopped;

        Walk(RecordChecks checks) {
            this.checks = checks;
        }

        /** The whole part: the value to send on, the same object when nothing changed. */
        Object walk(Schema schema, Object value) {
            Object result = visit(schema, value, Path.ROOT, selection, true);
            while (result == ENTERED) {
                Frame frame = frames.peek();
                Object child = frame.hasNext() ? frame.next() : leave(frame);
                if (child == STOPPED) {
                    return value; // rejected as it came
                }
                if (child != ENTERED) {
                    if (frames.isEmpty()) {
                        return child;
                    }
                    frames.peek().accept(child);
                    if (stopped) {
                        return value;
                    }
                }
            }
            return result == STOPPED ? value : result;
        }

        private Object leave(Frame frame) {
            frames.pop();
            entered.remove(frame.container());
            return frame.result();
        }

        /**
         * A leaf checked at once, or a container entered ({@link #ENTERED}), or the value stopped
         * ({@link #STOPPED}).
         *
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
            Frame frame;
            if (value instanceof Struct struct) {
                frame = new StructFrame(struct, path, selected);
            } else if (value instanceof Map<?, ?> map) {
                frame = new MapFrame(schema, map, path, selected);
            } else if (value instanceof List<?> list) {
                frame = new ListFrame(schema, list, path, selected);
            } else {
                return value;
            }
            if (frames.size() == MAX_DEPTH) {
                return stop(DeadLetterRule.NESTED_TOO_DEEP, path, "nested deeper than " + MAX_DEPTH + " levels");
            }
            if (entered.put(value, value) != null) {
                return stop(DeadLetterRule.CYCLIC_VALUE, path, "a Map or List that contains itself");
            }
            frames.push(frame);
            return ENTERED;
        }

        private Object stop(DeadLetterRule rule, Path path, String detail) {
            checks.reject(new Finding(part, path.field(), rule, 0, 0, 0, NO_BYTES).withDetail(detail));
            stopped = true;
            return STOPPED;
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
                                DeadLetterRule.of(error.rule()),
                                error.offset(),
                                error.length(),
                                Utf16.SURROGATE_BYTES,
                                context)));
                if (checks.policy() == Policy.STRICT) {
                    return s; // rejected as it is; content rules need well-formed text
                }
                text = Utf16.replaceLoneSurrogates(s);
            }
            if (content != ContentPolicy.none()) {
                byte[] utf8 = text.getBytes(UTF_8);
                byte[] out = checks.string(part, path, utf8, 0, utf8.length);
                text = out == null ? text : new String(out, UTF_8);
            }
            if (change == null && !text.equals(s)) {
                change = new Change(s, path);
            }
            return text;
        }

        private Object bytes(Object value, Path path) {
            byte[] bytes = value instanceof ByteBuffer buffer ? bytesOf(buffer) : (byte[]) value;
            byte[] out = checks.string(part, path, bytes, 0, bytes.length);
            if (out == null) {
                return value;
            }
            return value instanceof ByteBuffer ? ByteBuffer.wrap(out) : out;
        }

        /** A container being walked: its children one by one, then its result. */
        private abstract class Frame {
            /** The container, for the cycle check. */
            abstract Object container();

            abstract boolean hasNext();

            /** Visits the next child: its checked value for {@link #accept}, {@link #ENTERED} or {@link #STOPPED}. */
            abstract Object next();

            /** The child just visited, checked. */
            abstract void accept(Object checked);

            /** The container itself when nothing in it changed, else a copy with the changes. */
            abstract Object result();
        }

        private final class StructFrame extends Frame {
            private final Struct struct;
            private final Path path;
            private final FieldSelection selected;
            private final List<Field> fields;
            private int next;
            private Object old;
            private Struct copy;

            StructFrame(Struct struct, Path path, FieldSelection selected) {
                this.struct = struct;
                this.path = path;
                this.selected = selected;
                this.fields = struct.schema().fields();
            }

            @Override
            Object container() {
                return struct;
            }

            @Override
            boolean hasNext() {
                while (next < fields.size() && selected.field(fields.get(next).name()) == null) {
                    next++;
                }
                return next < fields.size();
            }

            @Override
            Object next() {
                Field field = fields.get(next);
                // Without the default: a null stays null in a rebuilt struct.
                old = struct.getWithoutDefault(field.name());
                return visit(field.schema(), old, path.field(field.name()), selected.field(field.name()), false);
            }

            @Override
            void accept(Object checked) {
                if (checked != old) {
                    try {
                        if (copy == null) {
                            copy = copyOf(struct);
                        }
                        copy.put(fields.get(next), checked);
                    } catch (StackOverflowError e) {
                        // Struct.put validates the whole value put, recursing once a level: Connect's
                        // own stack, not this walk's. A Struct within the limit still needs some
                        // 256 KiB at the limit; on a thread with less, it is too deep all the same.
                        stop(
                                DeadLetterRule.NESTED_TOO_DEEP,
                                path,
                                "too deep for Connect to rebuild on this thread's stack");
                    }
                }
                next++;
            }

            @Override
            Object result() {
                return copy == null ? struct : copy;
            }
        }

        private final class ListFrame extends Frame {
            private final List<?> list;
            private final Schema elements;
            private final Path path;
            private final FieldSelection selected;
            private final Iterator<?> items;
            private int index = -1;
            private Object old;
            private List<Object> copy;

            ListFrame(Schema schema, List<?> list, Path path, FieldSelection selected) {
                this.list = list;
                this.elements = schema == null ? null : schema.valueSchema();
                this.path = path;
                this.selected = selected;
                this.items = list.iterator();
            }

            @Override
            Object container() {
                return list;
            }

            @Override
            boolean hasNext() {
                return items.hasNext();
            }

            @Override
            Object next() {
                old = items.next();
                index++;
                return visit(elements, old, path.index(index), selected, false);
            }

            @Override
            void accept(Object checked) {
                if (checked != old && copy == null) {
                    copy = new ArrayList<>(list);
                }
                if (copy != null) {
                    copy.set(index, checked);
                }
            }

            @Override
            Object result() {
                return copy == null ? list : copy;
            }
        }

        /**
         * A map: with a schema, keys and values are looked through at the map's own selection;
         * without one, it is a record as the JSON object it was decoded from, its entries fields
         * named by their keys (a key that is not a string is looked through, as in a map).
         */
        private final class MapFrame extends Frame {
            private final Schema schema;
            private final Map<?, ?> map;
            private final Path path;
            private final FieldSelection selected;
            private final Iterator<? extends Map.Entry<?, ?>> entries;
            private int index;
            private Map.Entry<?, ?> entry;
            private boolean atKey;
            private Object newKey;
            /** What the walk had found before this key, put back once the key is walked. */
            private Change outer;

            private Change keyChange;
            private Map<Object, Object> copy;
            /** For each fixed key in {@link #copy}, the change that made it, to describe a collision. */
            private Map<Object, Change> fixedKeys;

            MapFrame(Schema schema, Map<?, ?> map, Path path, FieldSelection selected) {
                this.schema = schema;
                this.map = map;
                this.path = path;
                this.selected = selected;
                this.entries = map.entrySet().iterator();
            }

            @Override
            Object container() {
                return map;
            }

            @Override
            boolean hasNext() {
                return atKey || entries.hasNext();
            }

            @Override
            Object next() {
                if (!atKey) {
                    entry = entries.next();
                    atKey = true;
                    outer = change;
                    change = null;
                    Schema keys = schema == null ? null : schema.keySchema();
                    return visit(keys, entry.getKey(), path.mapKey(), selected, false);
                }
                atKey = false;
                Object key = entry.getKey();
                if (schema != null) {
                    return visit(schema.valueSchema(), entry.getValue(), path.mapValue(key), selected, false);
                }
                if (key instanceof String name) {
                    FieldSelection inside = selected.field(name);
                    return inside == null
                            ? entry.getValue()
                            : visit(null, entry.getValue(), path.field(name), inside, false);
                }
                return visit(null, entry.getValue(), path.mapValue(key), selected, false);
            }

            @Override
            void accept(Object checked) {
                if (atKey) {
                    newKey = checked;
                    keyChange = change;
                    change = outer != null ? outer : change;
                    return;
                }
                Object key = entry.getKey();
                Object old = entry.getValue();
                if (copy == null && (newKey != key || checked != old)) {
                    copy = upTo(map, index);
                }
                if (copy != null) {
                    if (copy.containsKey(newKey)) {
                        collision(newKey != key ? keyChange : fixedKeys == null ? null : fixedKeys.get(newKey));
                    }
                    copy.put(newKey, checked);
                    if (newKey != key) {
                        if (fixedKeys == null) {
                            fixedKeys = new HashMap<>();
                        }
                        fixedKeys.put(newKey, keyChange);
                    }
                }
                index++;
            }

            /** Two keys now equal: the change that made one of them, when known, describes it. */
            private void collision(Change made) {
                if (made == null) {
                    return; // equal as they came (an identity map): not the fix's doing
                }
                byte[] original = Utf16.generalisedUtf8(made.original());
                checks.keysCollide(checks.changedKey(part, made.path(), original, 0, original.length));
            }

            @Override
            Object result() {
                return copy == null ? map : copy;
            }
        }
    }

    /** A string the walk fixed, as it came, and where. */
    private record Change(String original, Path path) {}

    private static Struct copyOf(Struct struct) {
        Struct copy = new Struct(struct.schema());
        for (Field field : struct.schema().fields()) {
            copy.put(field, struct.getWithoutDefault(field.name()));
        }
        return copy;
    }

    /** A new map holding the first {@code count} entries of {@code map}, in order. */
    private static Map<Object, Object> upTo(Map<?, ?> map, int count) {
        Map<Object, Object> copy = new LinkedHashMap<>();
        Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
        for (int i = 0; i < count; i++) {
            Map.Entry<?, ?> entry = entries.next();
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
