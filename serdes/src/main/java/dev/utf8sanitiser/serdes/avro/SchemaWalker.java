package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.serdes.record.FieldPath;
import dev.utf8sanitiser.serdes.record.FieldPathSpelling;
import dev.utf8sanitiser.serdes.record.KeysCollideException;
import dev.utf8sanitiser.serdes.record.MapKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * overlong lengths, union and enum indexes out of range, booleans other than 0 and 1, bytes left
 * over after the datum, and a block whose byte size is not that of its items all throw {@link
 * MalformedAvroException}; so do data nested deeper than {@link #MAX_DEPTH}, more than {@link
 * #MAX_EMPTY_ITEMS} values in array items that take no bytes, and every value of a schema that
 * holds a type with no finite value (a record that holds itself through records only): whatever
 * the walker accepts, Avro's own reader reads.
 *
 * <p>{@link #scan} is the fast path of a valid value ({@link StringScan}), and it accepts exactly
 * the bytes {@link #walk} accepts, with the same strings, values nested deeper than {@link
 * StringScan#MAX_DEPTH} apart, which it leaves to the walk. That contract is written in
 * docs/payload-formats.md ("The fast path") and docs/reliability.md ("Fuzzing"); {@code
 * StringScanTest} checks it in every test run, and so do the fuzz targets {@code AvroOrdersFuzzTest},
 * {@code AvroRecursiveFuzzTest} and {@code AvroSchemaFuzzTest} (their seed corpus in every test run,
 * a short fuzzing run in {@code verify}, so in CI), which also hold the walker to Avro's own reader.
 *
 * <p>One walker per schema, compiled once; {@link #walk} is thread-safe.
 */
public final class SchemaWalker {
    /**
     * The deepest nesting of records, arrays and maps a value may have (a recursive schema); deeper
     * is {@code MALFORMED_AVRO}. The walk keeps its own stack on the heap, so this is not what keeps
     * its own thread's stack safe: it keeps that of Avro's reader, which recurses, a few frames a
     * level. Fully interpreted (a consumer's first records) it reads about 450 levels of a linked
     * list, its deepest shape, on a 512 KB stack; this leaves it room for its caller's frames.
     */
    public static final int MAX_DEPTH = 256;

    /**
     * How many values array items that take no bytes at all ({@code null}, a record of such fields,
     * a {@code fixed} of size 0) one value may declare, in all its arrays together, each item
     * counting the values Avro builds for it (a record, and each of its fields); more is {@code
     * MALFORMED_AVRO}. Such items are not read, but a block count declares them, so eleven bytes can
     * declare two billion, each of which Avro's reader builds (and fails, or takes the heap). 2^20
     * is as many as a value of 1 MB (Kafka's default largest record) could hold of one-byte items;
     * Avro's own limit on them, 1/32 of its heap, lets a reader with 32 MB read them.
     */
    static final int MAX_EMPTY_ITEMS = 1 << 20;

    private final Node root;
    private final StringScan scan;
    /**
     * Empty, or why no value of the schema is read: it holds a type with no finite value. Avro's
     * readers cannot read a value that holds one, and the classic reader no value at all of a
     * schema with a record that holds itself through records only (building its grammar recurses
     * without end). Such a schema is a mistake, or hostile: none of its records is passed.
     */
    private final String unreadable;

    private SchemaWalker(Node root, String unreadable) {
        this.root = root;
        this.scan = StringScan.of(root);
        this.unreadable = unreadable;
    }

    /** Compiles {@code schema} into a walker. */
    public static SchemaWalker of(Schema schema) {
        Compiler compiler = new Compiler();
        Node root = compiler.compileRoot(Objects.requireNonNull(schema, "schema"));
        String unreadable = compiler.firstWithoutValue()
                .map(type -> "the writer schema holds " + type + ", a type with no finite value")
                .orElse("");
        return new SchemaWalker(root, unreadable);
    }

    /**
     * Walks the datum in {@code bytes[from, to)}; every string goes to {@code visitor}.
     *
     * @return the binary to send on: the same array when no string was replaced, else a new array
     *     holding {@code bytes[0, from)} unchanged, then the rewritten datum
     * @throws MalformedAvroException the bytes do not match the schema; offsets count from
     *     {@code bytes[0]}
     * @throws KeysCollideException the bytes match the schema, and the replacements made two keys of
     *     a map equal
     */
    public byte[] walk(byte[] bytes, int from, int to, StringVisitor visitor) {
        Objects.checkFromToIndex(from, to, bytes.length);
        if (!unreadable.isEmpty()) {
            throw new MalformedAvroException(unreadable, from, "");
        }
        Walk walk = new Walk(bytes, from, to, visitor);
        walk.all();
        return walk.edits == null ? bytes : walk.edits.apply(bytes);
    }

    /**
     * Blanks in {@code batch}, started on the datum in {@code bytes[from, to)}, every byte outside
     * its strings that is not ASCII, so that one validation of the batch checks all its strings,
     * when the walk would accept the value; the fast path of a value that is valid.
     *
     * @return true when {@link #walk} would not throw; false when only {@link #walk} can say
     */
    boolean scan(byte[] bytes, int from, int to, StringBatch batch) {
        Objects.checkFromToIndex(from, to, bytes.length);
        return unreadable.isEmpty() && scan.scan(bytes, from, to, batch);
    }

    // ---------------------------------------------------------------------------------------------
    // The compiled schema

    enum Kind {
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
    static final class Node {
        final Kind kind;
        /** The type's full name, or its kind's: for messages. */
        final String type;
        /** FIXED: its size; ENUM: the number of symbols. */
        int size;
        /** RECORD: the fields' types; UNION: the branches; ARRAY and MAP: the item type at [0]. */
        Node[] children;
        /** RECORD: the field names. */
        String[] names;
        /**
         * Whether the type has a finite value. Not so for a record that holds itself through records
         * only ({@code Z{z: Z}}), a record with a field of such a type, a union of only such types,
         * an enum without symbols: no bytes are a value of it, and Avro's reader, asked for one,
         * recurses until its stack overflows. Arrays and maps always have one, the empty one.
         */
        boolean inhabited;
        /**
         * The fewest bytes a datum of this type takes, at most {@link Integer#MAX_VALUE}; 0 only for
         * types that take no bytes at all. Meaningful only for inhabited types.
         */
        int minSize;
        /**
         * Types that take no bytes: the values Avro builds for one datum (a record, and each of its
         * fields), at most {@code MAX_EMPTY_ITEMS + 1}.
         */
        int weight;
        /** Types that take no bytes: how deep one datum nests, counted as the walk counts (records). */
        int nesting;

        Node(Kind kind, String type) {
            this.kind = kind;
            this.type = type;
        }
    }

    private static final class Compiler {
        private final Map<Schema, Node> records = new IdentityHashMap<>();
        /** Every node compiled, in the order compiled. */
        private final List<Node> nodes = new ArrayList<>();

        /** The root's node, with every node's {@link Node#inhabited} and sizes worked out. */
        Node compileRoot(Schema schema) {
            Node root = compile(schema);
            new Inhabitants(nodes).solve();
            return root;
        }

        /** The first type compiled, the outermost, that has no finite value, if any. */
        Optional<String> firstWithoutValue() {
            return nodes.stream()
                    .filter(node -> !node.inhabited)
                    .map(node -> node.type)
                    .findFirst();
        }

        private Node compile(Schema schema) {
            return switch (schema.getType()) {
                case NULL -> node(Kind.NULL, schema);
                case BOOLEAN -> node(Kind.BOOLEAN, schema);
                case INT -> node(Kind.INT, schema);
                case LONG -> node(Kind.LONG, schema);
                case FLOAT -> node(Kind.FLOAT, schema);
                case DOUBLE -> node(Kind.DOUBLE, schema);
                case BYTES -> node(Kind.BYTES, schema);
                case STRING -> node(Kind.STRING, schema);
                case FIXED -> {
                    Node node = node(Kind.FIXED, schema);
                    node.size = schema.getFixedSize();
                    yield node;
                }
                case ENUM -> {
                    Node node = node(Kind.ENUM, schema);
                    node.size = schema.getEnumSymbols().size();
                    yield node;
                }
                case RECORD -> record(schema);
                case ARRAY -> container(Kind.ARRAY, schema, schema.getElementType());
                case MAP -> container(Kind.MAP, schema, schema.getValueType());
                case UNION -> {
                    Node node = node(Kind.UNION, schema);
                    node.children =
                            schema.getTypes().stream().map(this::compile).toArray(Node[]::new);
                    yield node;
                }
            };
        }

        private Node record(Schema schema) {
            Node known = records.get(schema);
            if (known != null) {
                return known; // a recursive reference: the node is being compiled further up
            }
            Node node = node(Kind.RECORD, schema);
            records.put(schema, node);
            List<Schema.Field> fields = schema.getFields();
            node.names = fields.stream().map(Schema.Field::name).toArray(String[]::new);
            node.children = new Node[fields.size()];
            for (int i = 0; i < fields.size(); i++) {
                node.children[i] = compile(fields.get(i).schema());
            }
            return node;
        }

        private Node container(Kind kind, Schema schema, Schema items) {
            Node node = node(kind, schema);
            node.children = new Node[] {compile(items)};
            return node;
        }

        private Node node(Kind kind, Schema schema) {
            Node node = new Node(kind, schema.getFullName());
            nodes.add(node);
            return node;
        }
    }

    /**
     * Which types have a finite value: the least fixpoint of "a leaf, an enum with a symbol, an
     * array or a map is inhabited; a union is when one of its branches is; a record is when all its
     * fields are", found with a work list in time linear in the schema. A type's sizes are worked
     * out when it is found inhabited, at which point those of everything it needs are known: so
     * the sizes never meet a cycle (an inhabited record holds itself only through a union, an
     * array or a map, whose sizes do not depend on their items').
     */
    private static final class Inhabitants {
        private final List<Node> nodes;
        /** For each node, the unions and records that have it as a child, once per time they do. */
        private final Map<Node, List<Node>> parents = new IdentityHashMap<>();
        /** RECORD: how many of its fields are not known to be inhabited yet. */
        private final Map<Node, Integer> missing = new IdentityHashMap<>();

        private final ArrayDeque<Node> found = new ArrayDeque<>();

        Inhabitants(List<Node> nodes) {
            this.nodes = nodes;
        }

        void solve() {
            for (Node node : nodes) {
                switch (node.kind) {
                    case RECORD -> {
                        missing.put(node, node.children.length);
                        for (Node child : node.children) {
                            parents.computeIfAbsent(child, c -> new ArrayList<>())
                                    .add(node);
                        }
                        if (node.children.length == 0) {
                            inhabit(node);
                        }
                    }
                    case UNION -> {
                        for (Node child : node.children) {
                            parents.computeIfAbsent(child, c -> new ArrayList<>())
                                    .add(node);
                        }
                    }
                    case ENUM -> {
                        if (node.size > 0) {
                            inhabit(node);
                        }
                    }
                    default -> inhabit(node); // leaves, arrays and maps
                }
            }
            while (!found.isEmpty()) {
                for (Node parent : parents.getOrDefault(found.poll(), List.of())) {
                    if (parent.inhabited) {
                        continue;
                    }
                    if (parent.kind == Kind.UNION) {
                        inhabit(parent);
                    } else {
                        int left = missing.merge(parent, -1, Integer::sum);
                        if (left == 0) {
                            inhabit(parent);
                        }
                    }
                }
            }
        }

        private void inhabit(Node node) {
            node.inhabited = true;
            sizes(node);
            found.add(node);
        }

        /** A node's sizes, from those of the children it needs, all inhabited by now. */
        private static void sizes(Node node) {
            switch (node.kind) {
                case NULL -> empty(node, 1, 0);
                case FLOAT -> node.minSize = 4;
                case DOUBLE -> node.minSize = 8;
                case FIXED -> {
                    node.minSize = node.size;
                    if (node.size == 0) {
                        empty(node, 1, 0);
                    }
                }
                case RECORD -> {
                    long min = 0;
                    long weight = 1;
                    int nesting = 0;
                    for (Node child : node.children) {
                        min += child.minSize;
                        weight += child.weight;
                        nesting = Math.max(nesting, child.nesting);
                    }
                    node.minSize = (int) Math.min(min, Integer.MAX_VALUE);
                    if (node.minSize == 0) {
                        empty(node, weight, nesting + 1);
                    }
                }
                // A union's branch index, an array's or a map's final zero count, a number, a
                // length: at least one byte.
                default -> node.minSize = 1;
            }
        }

        private static void empty(Node node, long weight, int nesting) {
            node.weight = (int) Math.min(weight, MAX_EMPTY_ITEMS + 1L);
            node.nesting = nesting;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // One walk

    /**
     * The state of one walk: the position, the records, arrays and maps it is inside (a stack on the
     * heap, so no value can overflow the thread's stack), and the edits so far. The stack is also
     * the path: a finding renders it from there, and a well-formed record never does.
     */
    private final class Walk implements FieldPath {
        final byte[] bytes;
        final int to;
        final StringVisitor visitor;

        int pos;
        /** The containers entered and not yet left, outermost first; {@code frames[depth - 1]} is read. */
        Frame[] frames = new Frame[8];
        /** How many containers are entered. */
        int depth;
        /** Where the text of the string read last starts: a map key, for its value's path. */
        int textStart;
        /** The length of that text. */
        int textLength;
        /** Replacements of ranges of {@code bytes}; null until the first. */
        Edits edits;
        /** Array items declared so far that take no bytes, in all arrays. */
        long emptyItems;
        /**
         * The first map whose keys a fix made equal; thrown once the whole datum is read, so that a
         * value malformed further on is described as malformed.
         */
        KeysCollideException collision;

        Walk(byte[] bytes, int from, int to, StringVisitor visitor) {
            this.bytes = bytes;
            this.to = to;
            this.visitor = visitor;
            this.pos = from;
        }

        /** The whole datum, and nothing after it. */
        void all() {
            datum(root);
            while (depth > 0) {
                Frame frame = frames[depth - 1];
                boolean entered = frame.node.kind == Kind.RECORD ? fields(frame) : items(frame);
                if (!entered) {
                    depth--; // read to its end
                }
            }
            if (pos != to) {
                throw malformed((to - pos) + " bytes after the end of the datum");
            }
            if (collision != null) {
                throw collision;
            }
        }

        /** Reads a record's fields until one is a container, entered (true), or the record ends. */
        private boolean fields(Frame frame) {
            Node[] fields = frame.node.children;
            while (frame.next < fields.length) {
                if (datum(fields[frame.next++])) {
                    return true;
                }
            }
            return false;
        }

        /** Reads items or entries until one is a container, entered (true), or the array or map ends. */
        private boolean items(Frame frame) {
            while (frame.left > 0 || nextBlock(frame)) {
                if (item(frame)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * One datum: read at once if it holds no other, else entered, to be read from the loop in
         * {@link #all}.
         *
         * @return whether it was entered
         */
        private boolean datum(Node node) {
            if (node.kind == Kind.UNION) {
                int at = pos;
                int branch = readInt();
                if (branch < 0 || branch >= node.children.length) {
                    pos = at;
                    throw malformed("union branch " + branch + " of " + node.children.length);
                }
                node = node.children[branch]; // union branches add nothing to the path; never a union
            }
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
                case RECORD, ARRAY, MAP -> {
                    enter(node);
                    return true;
                }
                case UNION -> throw new IllegalStateException("a union directly inside a union");
            }
            return false;
        }

        private void enter(Node node) {
            if (depth == MAX_DEPTH) {
                throw malformed("data nested deeper than " + MAX_DEPTH + " levels");
            }
            if (depth == frames.length) {
                frames = Arrays.copyOf(frames, 2 * depth);
            }
            Frame frame = frames[depth];
            if (frame == null) {
                frame = frames[depth] = new Frame();
            }
            frame.start(node);
            depth++;
        }

        /** @return the string's replacement, or null when it stays */
        private byte[] string() {
            int lengthAt = pos;
            int length = readLength();
            textStart = pos;
            textLength = length;
            pos += length;
            byte[] replacement = visitor.string(this, bytes, textStart, length);
            if (replacement != null) {
                edits().string(lengthAt, pos, replacement);
            }
            return replacement;
        }

        /**
         * The next array item or map entry of the current block.
         *
         * @return whether it was entered
         */
        private boolean item(Frame frame) {
            frame.left--;
            frame.index++;
            if (frame.node.kind == Kind.MAP) {
                frame.place = Frame.KEY;
                byte[] fixed = string();
                frame.keyStart = textStart;
                frame.keyLength = textLength;
                int[] collision = frame.keys.add(bytes, textStart, textLength, fixed);
                if (collision != null && this.collision == null) {
                    this.collision = new KeysCollideException(collision[0], collision[1], render());
                }
                frame.place = Frame.VALUE;
            } else {
                frame.place = Frame.ITEM;
            }
            return datum(frame.node.children[0]);
        }

        /**
         * Ends the block just read and reads the next one's header (a count, then with a negative
         * count a byte size); false at the zero count that ends the array or map.
         */
        private boolean nextBlock(Frame frame) {
            while (true) {
                endBlock(frame);
                frame.place = Frame.BETWEEN;
                int headerAt = pos;
                long count = readLong();
                if (count == 0) {
                    return false;
                }
                if (count < 0) {
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
                    frame.sized(headerAt, pos, (int) size, count, edits == null ? 0 : edits.size());
                }
                Node item = frame.node.children[0];
                long minItem = frame.node.kind == Kind.MAP ? 1L + item.minSize : item.minSize;
                int left = to - pos;
                if (minItem > 0 && count > left / minItem) {
                    pos = headerAt;
                    throw malformed("block of " + count + " items with " + left + " bytes left");
                }
                if (minItem > 0) {
                    frame.left = count;
                    return true;
                }
                // Items that take no bytes hold no strings: none is read, but each is counted, by
                // the values Avro's reader builds for it, and must fit the depth as if entered.
                if (count > (MAX_EMPTY_ITEMS - emptyItems) / item.weight) {
                    pos = headerAt;
                    throw malformed("more than " + MAX_EMPTY_ITEMS + " values in items that take no bytes");
                }
                if (depth + item.nesting > MAX_DEPTH) {
                    pos = headerAt;
                    throw malformed("data nested deeper than " + MAX_DEPTH + " levels, in items that take no bytes");
                }
                emptyItems += count * item.weight;
                frame.index += count;
            }
        }

        /**
         * After the last item of a block: a block with a byte size must hold exactly its items (a
         * reader that skips it by its size would see other data than one that reads its items), and
         * gets a new header if a string in it changed.
         */
        private void endBlock(Frame frame) {
            if (frame.headerEnd < 0) {
                return;
            }
            if (pos != frame.headerEnd + frame.size) {
                String reason = "block of " + frame.size + " bytes whose items take " + (pos - frame.headerEnd);
                pos = frame.headerAt;
                throw malformed(reason);
            }
            if (edits != null && edits.size() > frame.editsBefore) {
                // Strings in this block changed length: write the count without a byte size.
                edits().varint(frame.headerAt, frame.headerEnd, frame.count);
            }
            frame.headerEnd = -1;
        }

        /** docs/dlq.md's {@code __utf8.field}: {@code customer.name}, {@code lines[3].sku}, {@code tags{color}}. */
        @Override
        public String render() {
            FieldPathSpelling path = new FieldPathSpelling();
            for (int i = 0; i < depth; i++) {
                Frame frame = frames[i];
                switch (frame.node.kind) {
                    case RECORD -> {
                        if (frame.next > 0) {
                            path.field(frame.node.names[frame.next - 1]);
                        }
                    }
                    case ARRAY -> {
                        if (frame.place == Frame.ITEM) {
                            path.index(frame.index);
                        }
                    }
                    default -> {
                        if (frame.place == Frame.KEY) {
                            path.mapKey();
                        } else if (frame.place == Frame.VALUE) {
                            // A key that is itself ill-formed shows U+FFFD where its bad bytes are.
                            path.mapValue(new String(bytes, frame.keyStart, frame.keyLength, StandardCharsets.UTF_8));
                        }
                    }
                }
            }
            return path.toString();
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
            return new MalformedAvroException(reason, pos, render());
        }

        private Edits edits() {
            if (edits == null) {
                edits = new Edits();
            }
            return edits;
        }
    }

    /** A record, array or map being read: where the walk is inside it. */
    private static final class Frame {
        static final byte BETWEEN = 0;
        static final byte ITEM = 1;
        static final byte KEY = 2;
        static final byte VALUE = 3;

        Node node;
        /** RECORD: the field after the one being read. */
        int next;
        /** ARRAY, MAP: the items left in the block. */
        long left;
        /** ARRAY, MAP: the index of the current item, from 0 across blocks. */
        long index;
        /**
         * ARRAY, MAP: {@link #BETWEEN} items (reading a block header), or reading an {@link #ITEM},
         * a {@link #KEY} or its {@link #VALUE}.
         */
        byte place;
        /** MAP: where the current entry's key text starts. */
        int keyStart;
        /** MAP: the length of that text. */
        int keyLength;
        /** MAP: its keys, to find a fix that makes two equal. */
        final MapKeys keys = new MapKeys();
        /** A block with a byte size: where its header starts. */
        int headerAt;
        /** A block with a byte size: where its header ends; -1 for any other block. */
        int headerEnd;
        /** A block with a byte size: that size. */
        int size;
        /** A block with a byte size: its item count, for a header without the size. */
        long count;
        /** A block with a byte size: how many edits there were before it. */
        int editsBefore;

        void start(Node node) {
            this.node = node;
            next = 0;
            left = 0;
            index = -1;
            place = BETWEEN;
            headerEnd = -1;
            keys.clear();
        }

        void sized(int headerAt, int headerEnd, int size, long count, int editsBefore) {
            this.headerAt = headerAt;
            this.headerEnd = headerEnd;
            this.size = size;
            this.count = count;
            this.editsBefore = editsBefore;
        }
    }
}
