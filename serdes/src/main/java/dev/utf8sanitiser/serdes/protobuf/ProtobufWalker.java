package dev.utf8sanitiser.serdes.protobuf;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.protobuf.Descriptors.FieldDescriptor;
import dev.utf8sanitiser.serdes.avro.StringVisitor;
import dev.utf8sanitiser.serdes.record.FieldPath;
import dev.utf8sanitiser.serdes.record.FieldPathSpelling;
import dev.utf8sanitiser.serdes.record.KeysCollideException;
import dev.utf8sanitiser.serdes.record.MapKeys;
import java.util.HashMap;
import java.util.Map;

/**
 * Walks Protobuf's wire format by a message's {@link MessagePlan}, never building the message: tags
 * and wire types are read as protobuf-java reads them, each string its plan checks is shown to a
 * {@link StringVisitor} where it lies, and everything else is stepped over. What protobuf-java would
 * refuse to parse is {@link MalformedProtobufException}: a tag of field 0 or of wire type 6 or 7, a
 * varint of more than ten bytes, a length that is negative or runs past its message, an end-group
 * tag that ends no group, a packed run that ends inside an element, nesting deeper than {@value
 * #MAX_DEPTH} (protobuf-java's recursion limit). A field of a type the schema does not know, or
 * whose wire type is not its own, is unknown, and left as it is, as protobuf-java keeps it.
 *
 * <p>A string the visitor fixes is rewritten in place with its new length, and the length prefix of
 * every message around it is rewritten too (its varint may grow or shrink), so the value keeps its
 * framing and reads back with protobuf-java. A walk of a well-formed value allocates nothing: its
 * state is one reused object per thread, and paths are rendered only when a finding needs them.
 *
 * <p>A fix that makes two keys of one map equal (parsers keep the last entry of a key, so the fixed
 * value would lose one) is {@link KeysCollideException}, once the whole message is read: a value
 * malformed further on is malformed. The entries of one map are those of its field in one message,
 * wherever they lie in it, and in every copy of a singular message field, which parsers merge.
 *
 * <p>Time and memory are linear in the value's size: every length is checked against the bytes left
 * before anything is read by it, and the walk's own stack is bounded by the depth limit.
 */
public final class ProtobufWalker {
    /** How deep messages and groups nest, as protobuf-java's default recursion limit. */
    public static final int MAX_DEPTH = 100;

    private static final ThreadLocal<Walk> WALKS = ThreadLocal.withInitial(Walk::new);

    private ProtobufWalker() {}

    /**
     * Walks the message of {@code plan} in {@code value[from, to)}.
     *
     * @return the value with every string the visitor replaced rewritten; {@code value} itself when
     *     none was
     * @throws MalformedProtobufException the bytes are not such a message
     * @throws KeysCollideException they are, and the visitor's fixes made two keys of a map equal
     */
    static byte[] walk(MessagePlan plan, byte[] value, int from, int to, StringVisitor visitor) {
        Walk walk = WALKS.get();
        try {
            return walk.run(plan, value, from, to, visitor);
        } finally {
            walk.reset();
        }
    }

    /** One walk's state, also the path of the string being shown. */
    private static final class Walk implements FieldPath {
        private final MessagePlan[] plans = new MessagePlan[MAX_DEPTH + 1];
        private final int[] bodyStarts = new int[MAX_DEPTH + 1];
        private final int[] bodyEnds = new int[MAX_DEPTH + 1];
        private final int[] deltas = new int[MAX_DEPTH + 1];
        /** For each level below the top: the field of the level above that holds it, and its tag. */
        private final MessagePlan.Field[] fields = new MessagePlan.Field[MAX_DEPTH + 1];

        private final int[] tagStarts = new int[MAX_DEPTH + 1];
        private final Edits edits = new Edits();
        private byte[] value;
        private StringVisitor visitor;
        // The field being read, for the path: its level, field (null for none) and tag.
        private int level;
        private MessagePlan.Field field;
        private int fieldTag;
        /** The map keys the visitor fixed, by where their text starts; null until the first. */
        private Map<Integer, FixedKey> fixedKeys;

        /** A map key as fixed, and its path. */
        private record FixedKey(byte[] text, String path) {}

        byte[] run(MessagePlan plan, byte[] value, int from, int to, StringVisitor visitor) {
            this.value = value;
            this.visitor = visitor;
            plans[0] = plan;
            bodyStarts[0] = from;
            bodyEnds[0] = to;
            deltas[0] = 0;
            message(0, from, to, 0);
            if (fixedKeys != null) {
                new MapCollisions().message(plan, from, to, 0, "");
            }
            return edits.size() == 0 ? value : edits.apply(value);
        }

        void reset() {
            value = null;
            visitor = null;
            field = null;
            fixedKeys = null;
            edits.clear();
            java.util.Arrays.fill(plans, null);
            java.util.Arrays.fill(fields, null);
        }

        /** Reads fields from {@code at} to {@code end}, or to the end tag of group {@code group}; returns where it stopped. */
        private int message(int d, int at, int end, int group) {
            MessagePlan plan = plans[d];
            while (true) {
                level = d;
                field = null;
                if (at >= end) {
                    if (group != 0) {
                        throw malformed("a group without its end-group tag", at);
                    }
                    return at;
                }
                int tagStart = at;
                long read = varint(at, end);
                at = (int) (read >>> 32);
                int tag = (int) read;
                int wire = tag & 7;
                int number = tag >>> 3;
                if (number == 0) {
                    throw malformed("a tag of field number 0", tagStart);
                }
                if (wire == 4) {
                    if (number == group) {
                        return at;
                    }
                    throw malformed("an end-group tag that ends no group", tagStart);
                }
                if (wire > 5) {
                    throw malformed("wire type " + wire, tagStart);
                }
                MessagePlan.Field known = plan.field(number);
                if (known != null && wire == known.kind.wireType) {
                    field = known;
                    fieldTag = tagStart;
                    at = known(d, known, tagStart, at, end);
                } else if (known != null && known.packable && wire == 2) {
                    field = known;
                    fieldTag = tagStart;
                    at = packed(known, at, end);
                } else {
                    at = skip(d, wire, number, at, end);
                }
            }
        }

        private int known(int d, MessagePlan.Field known, int tagStart, int at, int end) {
            switch (known.kind) {
                case VARINT:
                    return (int) (scalar(known, at, end) >>> 32);
                case FIXED64:
                    return fixed(at, end, 8);
                case FIXED32:
                    return fixed(at, end, 4);
                case OPAQUE:
                    return start(at, end) + length(at, end);
                case CHECKED_STRING: {
                    int length = length(at, end);
                    int start = start(at, end);
                    byte[] fixed = visitor.string(this, value, start, length);
                    if (fixed != null) {
                        deltas[d] += edits.delimited(at, start + length, fixed);
                        if (plans[d].mapEntry && known.number == 1) {
                            if (fixedKeys == null) {
                                fixedKeys = new HashMap<>();
                            }
                            fixedKeys.put(start, new FixedKey(fixed, render()));
                        }
                    }
                    return start + length;
                }
                case MESSAGE: {
                    int length = length(at, end);
                    int start = start(at, end);
                    enter(d, known, tagStart, start, start + length);
                    message(d + 1, start, start + length, 0);
                    int delta = deltas[d + 1];
                    if (delta != 0) {
                        deltas[d] += delta + edits.length(at, start, length + delta);
                    }
                    return start + length;
                }
                case GROUP: {
                    enter(d, known, tagStart, at, -1);
                    int after = message(d + 1, at, end, known.number);
                    deltas[d] += deltas[d + 1];
                    return after;
                }
                default:
                    throw new IllegalStateException(known.kind.name());
            }
        }

        private void enter(int d, MessagePlan.Field known, int tagStart, int start, int end) {
            if (d >= MAX_DEPTH) {
                throw malformed("messages nested deeper than " + MAX_DEPTH, tagStart);
            }
            plans[d + 1] = known.message;
            fields[d + 1] = known;
            tagStarts[d + 1] = tagStart;
            bodyStarts[d + 1] = start;
            bodyEnds[d + 1] = end;
            deltas[d + 1] = 0;
        }

        /** A packed run of scalars: whole elements, up to its end exactly. */
        private int packed(MessagePlan.Field known, int at, int end) {
            int length = length(at, end);
            int start = start(at, end);
            int stop = start + length;
            switch (known.kind) {
                case VARINT -> {
                    for (int i = start; i < stop; ) {
                        i = (int) (scalar(known, i, stop) >>> 32);
                    }
                }
                case FIXED64, FIXED32 -> {
                    int size = known.kind == MessagePlan.Kind.FIXED64 ? 8 : 4;
                    if (length % size != 0) {
                        throw malformed("a packed run that ends inside an element", start + length - length % size);
                    }
                }
                default -> throw new IllegalStateException(known.kind.name());
            }
            return stop;
        }

        /** Steps over a field the plan does not read; a group counts towards the depth limit. */
        private int skip(int d, int wire, int number, int at, int end) {
            switch (wire) {
                case 0:
                    return (int) (varint(at, end) >>> 32);
                case 1:
                    return fixed(at, end, 8);
                case 2:
                    return start(at, end) + length(at, end);
                case 5:
                    return fixed(at, end, 4);
                case 3: {
                    if (d >= MAX_DEPTH) {
                        throw malformed("messages nested deeper than " + MAX_DEPTH, at);
                    }
                    int i = at;
                    while (true) {
                        if (i >= end) {
                            throw malformed("a group without its end-group tag", i);
                        }
                        int tagStart = i;
                        long read = varint(i, end);
                        i = (int) (read >>> 32);
                        int tag = (int) read;
                        int innerWire = tag & 7;
                        int innerNumber = tag >>> 3;
                        if (innerNumber == 0) {
                            throw malformed("a tag of field number 0", tagStart);
                        }
                        if (innerWire == 4) {
                            if (innerNumber == number) {
                                return i;
                            }
                            throw malformed("an end-group tag that ends no group", tagStart);
                        }
                        if (innerWire > 5) {
                            throw malformed("wire type " + innerWire, tagStart);
                        }
                        i = skip(d + 1, innerWire, innerNumber, i, end);
                    }
                }
                default:
                    throw malformed("wire type " + wire, at);
            }
        }

        /**
         * A second reading of a message the walk read whole and in which it fixed a map key: the
         * keys of each map as read and as fixed, in wire order. A map is named by the path of
         * field numbers to it, with where each repeated message starts (each is a message of its
         * own) and without it for singular ones (copies are merged; so is a oneof set again).
         */
        private final class MapCollisions {
            private final Map<String, MapKeys> maps = new HashMap<>();

            /** Reads the message at {@code [at, end)} (a group: to its end tag); returns where it stopped. */
            int message(MessagePlan plan, int at, int end, int group, String name) {
                while (true) {
                    if (at >= end) {
                        return at;
                    }
                    int tagStart = at;
                    long read = varint(at, end);
                    at = (int) (read >>> 32);
                    int wire = (int) read & 7;
                    int number = (int) read >>> 3;
                    if (wire == 4 && number == group) {
                        return at;
                    }
                    MessagePlan.Field known = plan.field(number);
                    if (known != null && wire == known.kind.wireType && known.kind == MessagePlan.Kind.MESSAGE) {
                        int length = length(at, end);
                        int start = start(at, end);
                        String inner = name + "/" + number + (known.repeated ? "@" + tagStart : "");
                        if (known.map) {
                            entry(known, start, start + length, name + "/" + number);
                        }
                        message(known.message, start, start + length, 0, inner);
                        at = start + length;
                    } else if (known != null && wire == known.kind.wireType && known.kind == MessagePlan.Kind.GROUP) {
                        String inner = name + "/" + number + (known.repeated ? "@" + tagStart : "");
                        at = message(known.message, at, end, number, inner);
                    } else {
                        at = skip(0, wire, number, at, end);
                    }
                }
            }

            /** Adds the key of the entry at {@code [at, end)} to its map's: its last key field, or "". */
            private void entry(MessagePlan.Field map, int at, int end, String name) {
                MessagePlan.Field keyField = map.message.field(1);
                if (keyField == null || keyField.kind != MessagePlan.Kind.CHECKED_STRING) {
                    return; // keys no fix can change
                }
                int keyStart = at;
                int keyLength = 0;
                int i = at;
                while (i < end) {
                    long read = varint(i, end);
                    i = (int) (read >>> 32);
                    int wire = (int) read & 7;
                    int number = (int) read >>> 3;
                    if (number == 1 && wire == 2) {
                        keyLength = length(i, end);
                        keyStart = start(i, end);
                    }
                    i = skip(0, wire, number, i, end);
                }
                FixedKey fixed = keyLength == 0 ? null : fixedKeys.get(keyStart);
                int[] collision = maps.computeIfAbsent(name, n -> new MapKeys())
                        .add(value, keyStart, keyLength, fixed == null ? null : fixed.text());
                if (collision != null) {
                    FixedKey changed = fixedKeys.get(collision[0]);
                    throw new KeysCollideException(collision[0], collision[1], changed == null ? "" : changed.path());
                }
            }
        }

        /**
         * A varint of at most ten bytes, as protobuf-java reads tags, lengths and scalars: its low 64
         * bits' low half in the low half of the answer, where it ends in the high half.
         */
        private long varint(int at, int end) {
            int i = at;
            long low = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (i >= end) {
                    throw malformed("a varint cut short", at);
                }
                byte b = value[i++];
                low |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return ((long) i << 32) | (low & 0xFFFFFFFFL);
                }
            }
            throw malformed("a varint longer than ten bytes", at);
        }

        /** The varint of a known scalar field, read as protobuf-java reads that field's type. */
        private long scalar(MessagePlan.Field known, int at, int end) {
            return known.wide ? wideVarint(at, end) : varint(at, end);
        }

        /**
         * A varint as protobuf-java's {@code readRawVarint64} reads it from an array: as {@link
         * #varint}, but a tenth byte with its high bit set still ends it when its low bit is set (the
         * fast path folds that byte's low bit in and checks only the sign; protobuf-java takes such
         * a varint, so the walk does too). Only where it ends matters here.
         */
        private long wideVarint(int at, int end) {
            int i = at;
            for (int n = 0; n < 10; n++) {
                if (i >= end) {
                    throw malformed("a varint cut short", at);
                }
                byte b = value[i++];
                if (b >= 0 || (n == 9 && (b & 1) != 0)) {
                    return (long) i << 32;
                }
            }
            throw malformed("a varint longer than ten bytes", at);
        }

        private int fixed(int at, int end, int size) {
            if (end - at < size) {
                throw malformed("a fixed-size value cut short", at);
            }
            return at + size;
        }

        /** The length a length-delimited field declares at {@code at}, checked against what is left. */
        private int length(int at, int end) {
            long read = varint(at, end);
            int length = (int) read;
            int start = (int) (read >>> 32);
            if (length < 0) {
                throw malformed("a negative length", at);
            }
            if (length > end - start) {
                throw malformed("a length of " + length + " past the end of its message", at);
            }
            return length;
        }

        /** Where the data of a length-delimited field whose length is at {@code at} starts. */
        private int start(int at, int end) {
            return (int) (varint(at, end) >>> 32);
        }

        private MalformedProtobufException malformed(String reason, int offset) {
            return new MalformedProtobufException(reason, offset, render());
        }

        @Override
        public String render() {
            FieldPathSpelling path = new FieldPathSpelling();
            for (int d = 1; d <= level; d++) {
                step(path, d - 1, fields[d], tagStarts[d]);
            }
            if (field != null) {
                step(path, level, field, fieldTag);
            }
            return path.toString();
        }

        /** The step of {@code known}, whose tag is at {@code tag} in the message of level {@code d}. */
        private void step(FieldPathSpelling path, int d, MessagePlan.Field known, int tag) {
            if (plans[d].mapEntry) {
                if (known.number == 1) {
                    path.mapKey();
                } else {
                    path.mapValue(key(d));
                }
                return;
            }
            path.field(known.name);
            if (known.repeated && !known.map) {
                path.index(occurrencesBefore(d, known, tag));
            }
        }

        /** How many elements of {@code known} the message of level {@code d} holds before {@code tag}. */
        private int occurrencesBefore(int d, MessagePlan.Field known, int tag) {
            int count = 0;
            int i = bodyStarts[d];
            while (i < tag) {
                long read = varint(i, tag);
                i = (int) (read >>> 32);
                int wire = (int) read & 7;
                int number = (int) read >>> 3;
                if (number == known.number && wire == 2 && known.packable) {
                    int first = start(i, tag);
                    int stop = first + length(i, tag);
                    for (int j = first; j < stop; ) {
                        j = known.kind == MessagePlan.Kind.VARINT
                                ? (int) (scalar(known, j, stop) >>> 32)
                                : j + (known.kind == MessagePlan.Kind.FIXED64 ? 8 : 4);
                        count++;
                    }
                    i = stop;
                    continue;
                }
                if (number == known.number && wire == known.kind.wireType) {
                    count++;
                }
                i = skip(d, wire, number, i, value.length);
            }
            return count;
        }

        /** The key of the map entry of level {@code d} as text: its last key field, or the default. */
        private String key(int d) {
            MessagePlan.Field keyField = plans[d].field(1);
            if (keyField == null) {
                return "";
            }
            int i = bodyStarts[d];
            int end = bodyEnds[d];
            long raw = 0;
            int keyStart = -1;
            int keyLength = 0;
            while (i < end) {
                long read = varint(i, end);
                int tagEnd = (int) (read >>> 32);
                int wire = (int) read & 7;
                int number = (int) read >>> 3;
                if (wire > 5 || wire == 4 || number == 0) {
                    break;
                }
                if (number == 1 && wire == keyField.kind.wireType) {
                    switch (keyField.kind) {
                        case VARINT -> raw = fullVarint(tagEnd, end);
                        case FIXED32 -> raw = littleEndian(tagEnd, 4);
                        case FIXED64 -> raw = littleEndian(tagEnd, 8);
                        default -> {
                            keyLength = length(tagEnd, end);
                            keyStart = start(tagEnd, end);
                        }
                    }
                }
                i = skip(d, wire, number, tagEnd, end);
            }
            return keyText(keyField.descriptor, raw, keyStart, keyLength);
        }

        private String keyText(FieldDescriptor key, long raw, int start, int length) {
            return switch (key.getType()) {
                case STRING -> start < 0 ? "" : new String(value, start, length, UTF_8);
                case BOOL -> Boolean.toString(raw != 0);
                case INT32, SFIXED32, ENUM -> Integer.toString((int) raw);
                case UINT32, FIXED32 -> Integer.toUnsignedString((int) raw);
                case SINT32 -> Integer.toString(((int) raw >>> 1) ^ -((int) raw & 1));
                case SINT64 -> Long.toString((raw >>> 1) ^ -(raw & 1));
                case UINT64, FIXED64 -> Long.toUnsignedString(raw);
                default -> Long.toString(raw);
            };
        }

        private long fullVarint(int at, int end) {
            long result = 0;
            int i = at;
            for (int shift = 0; shift < 64 && i < end; shift += 7) {
                byte b = value[i++];
                result |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    break;
                }
            }
            return result;
        }

        private long littleEndian(int at, int size) {
            long result = 0;
            for (int i = size - 1; i >= 0; i--) {
                result = (result << 8) | (value[at + i] & 0xFF);
            }
            return result;
        }
    }
}
