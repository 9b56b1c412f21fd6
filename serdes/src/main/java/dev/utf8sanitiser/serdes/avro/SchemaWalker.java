package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.serdes.record.FieldPath;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;

/**
 * Walks Avro binary data (the Avro 1.12 specification, "Binary Encoding") written with one writer
 * schema, tells a {@link StringVisitor} of every {@code string} in place, and rewrites the binary
 * when the visitor replaces strings: without building a {@code GenericRecord} or decoding a single
 * string into a Java {@code String}. Apache Avro parses the schema; no Avro reader can do this part,
 * as every one of them decodes (and silently replaces) the strings it reads, which is the damage we
 * look for.
 *
 * <p>Strict where Avro's own decoder is lenient, because a mismatch between the bytes and the
 * schema is what {@code MALFORMED_AVRO} reports: varints longer than their type allows, negative or
 * overlong lengths, union and enum indexes out of range, booleans other than 0 and 1, and bytes left
 * over after the datum all throw {@link MalformedAvroException}.
 *
 * <p>One walker per schema, compiled once; {@link #walk} is thread-safe.
 */
public final class SchemaWalker {
    /**
     * Deeper data (recursive schemas) is refused rather than risk the thread's stack; Avro's own
     * reader recurses too and would overflow instead.
     */
    static final int MAX_DEPTH = 2048;

    private final Node root;

    private SchemaWalker(Node root) {
        this.root = root;
    }

    /** Compiles {@code schema} into a walker. */
    public static SchemaWalker of(Schema schema) {
        return new SchemaWalker(new Compiler().compile(Objects.requireNonNull(schema, "schema")));
    }

    /**
     * Walks the datum in {@code bytes[from, to)}; every string goes to {@code visitor}.
     *
     * @return the binary to send on: the same array when no string was replaced, else a new array
     *     holding {@code bytes[0, from)} unchanged, then the rewritten datum
     * @throws MalformedAvroException the bytes do not match the schema; offsets count from
     *     {@code bytes[0]}
     */
    public byte[] walk(byte[] bytes, int from, int to, StringVisitor visitor) {
        Objects.checkFromToIndex(from, to, bytes.length);
        Walk walk = new Walk(bytes, from, to, visitor, NO_TARGET);
        try {
            walk.all();
        } catch (MalformedAvroException e) {
            // The fast walk keeps no path; walking again with one finds the same fault, and its field.
            new Walk(bytes, from, to, (path, b, offset, length) -> null, NO_TARGET - 1).all();
            throw new IllegalStateException("a second walk of the same bytes found no fault", e);
        }
        return walk.edits == null ? bytes : walk.rewrite();
    }

    /** No string to stop at: a walk to the end. */
    private static final int NO_TARGET = -1;

    /**
     * The path of the string whose length starts at {@code lengthAt}: what a finding needs, found
     * by walking again with the path kept, which a well-formed record never pays for.
     */
    private String pathAt(byte[] bytes, int from, int to, int lengthAt) {
        Walk tracking = new Walk(bytes, from, to, (path, b, offset, length) -> null, lengthAt);
        try {
            tracking.all();
        } catch (PathFound found) {
            return found.path;
        }
        throw new IllegalStateException("no string at byte " + lengthAt + " on the second walk");
    }

    /** Ends a tracking walk at its target string. */
    private static final class PathFound extends RuntimeException {
        final String path;

        PathFound(String path) {
            super(null, null, false, false);
            this.path = path;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The compiled schema

    private enum Kind {
        NULL,
        BOOLEAN,
        INT,
        LONG,
        FLOAT,
        DOUBLE,
        BYTES,
        STRING,
        FIXED,
        ENUM,
        RECORD,
        ARRAY,
        MAP,
        UNION
    }

    /** One schema node; records are shared, so recursive schemas compile to a cyclic graph. */
    private static final class Node {
        final Kind kind;
        /** FIXED: its size; ENUM: the number of symbols. */
        int size;
        /** RECORD: the fields' types; UNION: the branches; ARRAY and MAP: the item type at [0]. */
        Node[] children;
        /** RECORD: the field names. */
        String[] names;
        /** The fewest bytes a datum of this type takes; 0 only for types that take no bytes at all. */
        int minSize;

        Node(Kind kind) {
            this.kind = kind;
        }
    }

    private static final class Compiler {
        private final Map<Schema, Node> records = new IdentityHashMap<>();

        Node compile(Schema schema) {
            return switch (schema.getType()) {
                case NULL -> leaf(Kind.NULL, 0);
                case BOOLEAN -> leaf(Kind.BOOLEAN, 1);
                case INT -> leaf(Kind.INT, 1);
                case LONG -> leaf(Kind.LONG, 1);
                case FLOAT -> leaf(Kind.FLOAT, 4);
                case DOUBLE -> leaf(Kind.DOUBLE, 8);
                case BYTES -> leaf(Kind.BYTES, 1);
                case STRING -> leaf(Kind.STRING, 1);
                case FIXED -> {
                    Node node = leaf(Kind.FIXED, schema.getFixedSize());
                    node.size = schema.getFixedSize();
                    yield node;
                }
                case ENUM -> {
                    Node node = leaf(Kind.ENUM, 1);
                    node.size = schema.getEnumSymbols().size();
                    yield node;
                }
                case RECORD -> record(schema);
                case ARRAY -> container(Kind.ARRAY, schema.getElementType());
                case MAP -> container(Kind.MAP, schema.getValueType());
                case UNION -> {
                    Node node = new Node(Kind.UNION);
                    node.children =
                            schema.getTypes().stream().map(this::compile).toArray(Node[]::new);
                    node.minSize = 1;
                    yield node;
                }
            };
        }

        private Node record(Schema schema) {
            Node known = records.get(schema);
            if (known != null) {
                return known; // a recursive reference: the node is being compiled further up
            }
            Node node = new Node(Kind.RECORD);
            records.put(schema, node);
            List<Schema.Field> fields = schema.getFields();
            node.names = fields.stream().map(Schema.Field::name).toArray(String[]::new);
            node.children = new Node[fields.size()];
            for (int i = 0; i < fields.size(); i++) {
                node.children[i] = compile(fields.get(i).schema());
            }
            // A recursive record always holds a union or a container that ends the recursion, so
            // counting a not-yet-sized node as 0 only makes the figure a safe underestimate.
            int min = 0;
            for (Node child : node.children) {
                min += child.minSize;
            }
            node.minSize = min;
            return node;
        }

        private Node container(Kind kind, Schema items) {
            Node node = new Node(kind);
            node.children = new Node[] {compile(items)};
            node.minSize = 1; // the zero count that ends the blocks
            return node;
        }

        private static Node leaf(Kind kind, int minSize) {
            Node node = new Node(kind);
            node.minSize = minSize;
            return node;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // One walk

    /**
     * The state of one walk: position, the edits so far, and on a tracking walk the path to the
     * current datum. The fast walk keeps no path: it is rendered, when a finding asks, by a tracking
     * walk to the same string.
     */
    private final class Walk implements FieldPath {
        private static final byte FIELD = 0;
        private static final byte INDEX = 1;
        private static final byte MAP_VALUE = 2;
        private static final byte MAP_KEY = 3;

        final byte[] bytes;
        final int from;
        final int to;
        final StringVisitor visitor;
        /** Whether the path is kept: on the second walks only. */
        final boolean tracking;
        /** A tracking walk to a string stops there: the offset of its length; else below 0. */
        final int target;

        int pos;
        /** Where the length of the string being visited starts, for {@link #render}. */
        int stringAt;

        // The path, as a stack of segments: a field name, an array index, a map key.
        byte[] segmentKinds;
        String[] segmentNames;
        long[] segmentValues; // INDEX: the index; MAP_VALUE: key offset << 32 | length
        int depth;

        /** Replacements of {@code bytes[start, end)}, in order of start; null until the first. */
        List<Edit> edits;

        /** @param target {@link #NO_TARGET} for the fast walk; any other value tracks the path */
        Walk(byte[] bytes, int from, int to, StringVisitor visitor, int target) {
            this.bytes = bytes;
            this.from = from;
            this.to = to;
            this.visitor = visitor;
            this.pos = from;
            this.target = target;
            this.tracking = target != NO_TARGET;
            if (tracking) {
                segmentKinds = new byte[16];
                segmentNames = new String[16];
                segmentValues = new long[16];
            }
        }

        /** The whole datum, and nothing after it. */
        void all() {
            datum(root, 0);
            if (pos != to) {
                throw malformed((to - pos) + " bytes after the end of the datum");
            }
        }

        void datum(Node node, int nesting) {
            switch (node.kind) {
                case NULL -> {}
                case BOOLEAN -> {
                    need(1);
                    if ((bytes[pos] & 0xFF) > 1) {
                        throw malformed("boolean byte " + (bytes[pos] & 0xFF) + ", not 0 or 1");
                    }
                    pos++;
                }
                case INT -> readInt();
                case LONG -> readLong();
                case FLOAT -> skip(4);
                case DOUBLE -> skip(8);
                case BYTES -> skip(readLength());
                case STRING -> string();
                case FIXED -> skip(node.size);
                case ENUM -> {
                    int at = pos;
                    int index = readInt();
                    if (index < 0 || index >= node.size) {
                        pos = at;
                        throw malformed("enum index " + index + " of " + node.size + " symbols");
                    }
                }
                case RECORD -> {
                    nest(nesting);
                    for (int i = 0; i < node.children.length; i++) {
                        push(FIELD, node.names[i], 0);
                        datum(node.children[i], nesting + 1);
                        pop();
                    }
                }
                case ARRAY -> {
                    nest(nesting);
                    blocks(node.children[0], false, nesting + 1);
                }
                case MAP -> {
                    nest(nesting);
                    blocks(node.children[0], true, nesting + 1);
                }
                case UNION -> {
                    int at = pos;
                    int branch = readInt();
                    if (branch < 0 || branch >= node.children.length) {
                        pos = at;
                        throw malformed("union branch " + branch + " of " + node.children.length);
                    }
                    datum(node.children[branch], nesting); // union branches add nothing to the path
                }
            }
        }

        private void string() {
            int lengthAt = pos;
            if (tracking && lengthAt == target) {
                throw new PathFound(render());
            }
            int length = readLength();
            int start = pos;
            skip(length);
            stringAt = lengthAt;
            byte[] replacement = visitor.string(this, bytes, start, length);
            if (replacement != null) {
                edit(lengthAt, pos, encoded(replacement));
            }
        }

        /** Array items or map entries: blocks of a count, then items, until a zero count. */
        private void blocks(Node item, boolean map, int nesting) {
            long index = 0;
            while (true) {
                int headerAt = pos;
                long count = readLong();
                if (count == 0) {
                    return;
                }
                int editsBefore = edits == null ? 0 : edits.size();
                boolean sized = count < 0;
                if (sized) {
                    if (count == Long.MIN_VALUE) {
                        pos = headerAt;
                        throw malformed("block count out of range");
                    }
                    count = -count;
                    long size = readLong(); // the block's size in bytes, which a rewrite must fix
                    int left = to - pos;
                    if (size < 0 || size > left) {
                        pos = headerAt;
                        throw malformed("block size " + size + " with " + left + " bytes left");
                    }
                }
                int headerEnd = pos;
                long minItem = map ? 1 + item.minSize : item.minSize;
                int left = to - pos;
                if (minItem > 0 && count > left / minItem) {
                    pos = headerAt;
                    throw malformed("block of " + count + " items with " + left + " bytes left");
                }
                if (minItem == 0) {
                    // Items that take no bytes hold no strings: nothing to read, however many.
                    index += count;
                    continue;
                }
                for (long i = 0; i < count; i++, index++) {
                    if (map) {
                        int keyAt = pos;
                        push(MAP_KEY, null, 0);
                        string();
                        pop();
                        if (tracking) {
                            int keyLengthEnd = keyStart(keyAt);
                            push(MAP_VALUE, null, ((long) keyLengthEnd << 32) | (pos - keyLengthEnd));
                        }
                    } else {
                        push(INDEX, null, index);
                    }
                    datum(item, nesting);
                    pop();
                }
                if (sized && edits != null && edits.size() > editsBefore) {
                    // Strings in this block changed length: write the count without a byte size.
                    edits.add(editsBefore, new Edit(headerAt, headerEnd, zigZag(count)));
                }
            }
        }

        /** The first byte of a map key's text, given where its length varint starts. */
        private int keyStart(int lengthAt) {
            int at = lengthAt;
            while ((bytes[at] & 0x80) != 0) {
                at++;
            }
            return at + 1;
        }

        private void nest(int nesting) {
            if (nesting >= MAX_DEPTH) {
                throw malformed("data nested deeper than " + MAX_DEPTH + " levels");
            }
        }

        private void pop() {
            if (tracking) {
                depth--;
            }
        }

        private void push(byte kind, String name, long value) {
            if (!tracking) {
                return;
            }
            if (depth == segmentKinds.length) {
                int grown = depth * 2;
                segmentKinds = java.util.Arrays.copyOf(segmentKinds, grown);
                segmentNames = java.util.Arrays.copyOf(segmentNames, grown);
                segmentValues = java.util.Arrays.copyOf(segmentValues, grown);
            }
            segmentKinds[depth] = kind;
            segmentNames[depth] = name;
            segmentValues[depth] = value;
            depth++;
        }

        /** docs/dlq.md's {@code __utf8.field}: {@code customer.name}, {@code lines[3].sku}, {@code tags{color}}. */
        @Override
        public String render() {
            if (!tracking) {
                return pathAt(bytes, from, to, stringAt);
            }
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < depth; i++) {
                switch (segmentKinds[i]) {
                    case FIELD -> {
                        if (s.length() > 0) {
                            s.append('.');
                        }
                        s.append(segmentNames[i]);
                    }
                    case INDEX -> s.append('[').append(segmentValues[i]).append(']');
                    case MAP_VALUE -> {
                        int offset = (int) (segmentValues[i] >>> 32);
                        int length = (int) segmentValues[i];
                        // A key that is itself ill-formed shows U+FFFD where its bad bytes are.
                        s.append('{')
                                .append(new String(bytes, offset, length, StandardCharsets.UTF_8))
                                .append('}');
                    }
                    default -> s.append("{}");
                }
            }
            return s.toString();
        }

        private int readLength() {
            int at = pos;
            long length = readLong();
            if (length < 0) {
                pos = at;
                throw malformed("negative length " + length);
            }
            int left = to - pos;
            if (length > left) {
                pos = at;
                throw malformed("length " + length + " with " + left + " bytes left");
            }
            return (int) length;
        }

        /** A zig-zag varint of at most 5 bytes, whose value fits 32 bits, as Avro's int is. */
        private int readInt() {
            if (pos < to && bytes[pos] >= 0) {
                int n = bytes[pos++];
                return (n >>> 1) ^ -(n & 1);
            }
            int at = pos;
            long raw = 0;
            for (int shift = 0; ; shift += 7) {
                if (pos >= to) {
                    throw malformed("varint cut short");
                }
                int b = bytes[pos++] & 0xFF;
                raw |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
                if (shift == 28) {
                    pos = at;
                    throw malformed("int varint longer than 5 bytes");
                }
            }
            if (raw > 0xFFFF_FFFFL) {
                pos = at;
                throw malformed("int varint out of range");
            }
            int n = (int) raw;
            return (n >>> 1) ^ -(n & 1);
        }

        /** A zig-zag varint of at most 10 bytes, as Avro's long is. */
        private long readLong() {
            // Most varints are one byte (lengths, counts, small numbers): no loop for them.
            if (pos < to && bytes[pos] >= 0) {
                int n = bytes[pos++];
                return (n >>> 1) ^ -(n & 1);
            }
            int at = pos;
            long raw = 0;
            for (int shift = 0; ; shift += 7) {
                if (pos >= to) {
                    throw malformed("varint cut short");
                }
                int b = bytes[pos++] & 0xFF;
                if (shift == 63 && b > 1) {
                    pos = at;
                    throw malformed("long varint out of range");
                }
                raw |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
                if (shift == 63) {
                    pos = at;
                    throw malformed("long varint longer than 10 bytes");
                }
            }
            return (raw >>> 1) ^ -(raw & 1);
        }

        private void skip(int n) {
            need(n);
            pos += n;
        }

        private void need(int n) {
            if (n > to - pos) {
                throw malformed("data ends " + (n - (to - pos)) + " bytes early");
            }
        }

        MalformedAvroException malformed(String reason) {
            return new MalformedAvroException(reason, pos, tracking ? render() : "");
        }

        private void edit(int start, int end, byte[] replacement) {
            if (edits == null) {
                edits = new ArrayList<>();
            }
            edits.add(new Edit(start, end, replacement));
        }

        /** The walked array with every edit applied. */
        byte[] rewrite() {
            ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 16 * edits.size());
            int at = 0;
            for (Edit edit : edits) {
                out.write(bytes, at, edit.start - at);
                out.writeBytes(edit.replacement);
                at = edit.end;
            }
            out.write(bytes, at, bytes.length - at);
            return out.toByteArray();
        }

        /** A string as Avro writes it: the zig-zag length, then the bytes. */
        private static byte[] encoded(byte[] text) {
            byte[] length = zigZag(text.length);
            byte[] out = java.util.Arrays.copyOf(length, length.length + text.length);
            System.arraycopy(text, 0, out, length.length, text.length);
            return out;
        }

        private static byte[] zigZag(long n) {
            long v = (n << 1) ^ (n >> 63);
            byte[] buffer = new byte[10];
            int i = 0;
            while ((v & ~0x7FL) != 0) {
                buffer[i++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buffer[i++] = (byte) v;
            return java.util.Arrays.copyOf(buffer, i);
        }
    }

    /** Replace {@code [start, end)} of the walked array with {@code replacement}. */
    private record Edit(int start, int end, byte[] replacement) {}
}
