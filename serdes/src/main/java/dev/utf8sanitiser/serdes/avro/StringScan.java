package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.serdes.avro.SchemaWalker.Node;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fast path of {@link SchemaWalker} for the value every record nearly always is: valid Avro,
 * to be passed on. It blanks, in a {@link StringBatch}'s copy of the value, every byte outside the
 * strings that is not ASCII, for one validation of the whole copy, and answers only "valid", or
 * "undecided": anything the walker would refuse is undecided, and so is a value nested deeper than
 * {@link #MAX_DEPTH}; the walker itself then reads the value and says what and where. So the scan
 * never needs a path, an offset or a reason, and gives up on deep nesting without being wrong.
 *
 * <p>Why not the walker itself: the walker interprets its schema graph one datum at a time, on a
 * stack of frames on the heap, so that it can name the field of any fault and nest as deep as it
 * allows on a small thread stack, and it hands strings to a visitor; that walk costs most of an Avro
 * record's decision. Here the schema is compiled into flat programs of int codes: a record's
 * fields are laid out in line in the program of the datum that holds it, fixed-size runs (doubles,
 * floats, fixed) merge into one skip, a string or number in a union branch or an array is read in
 * line, and only other branches and items and recursive records call another program, on the Java
 * stack, for values at most {@link #MAX_DEPTH} deep. It allocates no frames (docs/benchmarks.md).
 * No bytecode library is needed for that, and none of the Avro readers can skip to the strings
 * without decoding them.
 *
 * <p>The contract: the scan accepts exactly the bytes the walker accepts, with the same strings,
 * except a value nested deeper than {@link #MAX_DEPTH}, which it leaves to the walker. So it refuses
 * whatever the walker refuses: the same varint limits, boolean bytes, union and enum ranges, lengths,
 * block counts and sizes, items that take no bytes, values of types that have none, depth, and bytes
 * left over. The contract is written in docs/payload-formats.md ("The fast path") and, with each
 * fuzz target's oracle, in docs/reliability.md ("Fuzzing"). {@code StringScanTest#agree} checks it on
 * one value, against the walker: {@code StringScanTest} on random, corrupted and over-limit values in
 * every test run, and the fuzz targets {@code AvroOrdersFuzzTest}, {@code AvroRecursiveFuzzTest} and
 * {@code AvroSchemaFuzzTest} on their seed corpus in every test run and fuzzing for a short while in
 * {@code verify}, so in CI. One per schema, thread-safe.
 */
final class StringScan {
    /**
     * The deepest a value may nest (records, arrays and maps, counted as the walker counts) for the
     * scan to read it; deeper ones, up to the walker's own {@link SchemaWalker#MAX_DEPTH}, are left to
     * the walker. It bounds the Java stack the scan takes: a few frames a level.
     */
    static final int MAX_DEPTH = 64;

    /** A record whose fields take more codes than this is called, not laid out in line. */
    private static final int INLINE_LIMIT = 96;

    // The codes of a program, each followed by its operands.
    /** Operand: a byte count. float, double, fixed, and runs of them. */
    private static final int SKIP = 0;

    private static final int BOOLEAN = 1;
    private static final int INT = 2;
    private static final int LONG = 3;
    private static final int BYTES = 4;
    private static final int STRING = 5;
    /** Operand: the number of symbols. */
    private static final int ENUM = 6;
    /** Operands: the depth at which it stands in its program, the branch count, each branch's {@link #NOTHING callee}. */
    private static final int UNION = 7;
    /**
     * Operands: the items' {@link #NOTHING callee}, the depth at which it stands, the fewest bytes an
     * item takes, and for items that take none, the values of one and how deep one nests ({@link
     * SchemaWalker.Node#weight}, {@link SchemaWalker.Node#nesting}).
     */
    private static final int ARRAY = 8;
    /** As {@link #ARRAY}, an entry's fewest bytes counting its key. */
    private static final int MAP = 9;
    /** Operands: a record's program, the depth at which it stands. */
    private static final int CALL = 10;
    /** A value of a type that has none: never valid. */
    private static final int NEVER = 11;

    /**
     * A callee, what a union branch, an array item or a map value runs, is a program (0 and up),
     * {@code NOTHING} for {@code null}, or {@link #leaf} of the one code, without operands, that
     * reads its type in line: most branches and items are strings, and a call of a program for
     * each cost more than reading it.
     */
    private static final int NOTHING = -1;

    private static int leaf(int code) {
        return -2 - code;
    }

    /** Every compiled program: the codes for one datum of one type. */
    private final int[][] programs;
    /**
     * For each program, the deepest the walker would be inside it, counted as the walker counts
     * (records, arrays and maps entered), from where the program starts.
     */
    private final int[] nesting;

    private final int root;

    private StringScan(int[][] programs, int[] nesting, int root) {
        this.programs = programs;
        this.nesting = nesting;
        this.root = root;
    }

    static StringScan of(Node root) {
        Compiler compiler = new Compiler();
        int program = compiler.program(root);
        return new StringScan(
                compiler.programs.toArray(new int[0][]),
                compiler.nesting.stream().mapToInt(Integer::intValue).toArray(),
                program);
    }

    /**
     * Scans the datum in {@code bytes[from, to)}, blanking in {@code batch} (started by the caller
     * on the same bytes) what lies outside its strings and is not ASCII.
     *
     * @return true when the walker would accept the value, false when it is for the walker to say
     */
    boolean scan(byte[] bytes, int from, int to, StringBatch batch) {
        try {
            return new Scan(bytes, to, batch).run(root, 0, from) == to;
        } catch (Undecided e) {
            return false;
        }
    }

    // ---------------------------------------------------------------------------------------------

    /** Thrown, without a stack trace, where the scan leaves the value to the walker. */
    private static final class Undecided extends RuntimeException {
        static final Undecided INSTANCE = new Undecided();

        private Undecided() {
            super(null, null, false, false);
        }
    }

    /**
     * One scan. Every method takes the position it reads from and returns the position after what
     * it read, rather than keeping it in a field that every step writes and the next reads again,
     * waiting for the store. A number a caller needs comes back {@linkplain #packed packed} with the
     * position, or, for the counts of arrays and maps and lengths above 8191, in {@link #count}.
     */
    private final class Scan {
        final byte[] bytes;
        final int to;
        final StringBatch batch;
        /** The long {@link #readLong} read last: a block count or size, or a length above 8191. */
        long count;
        /** Array items declared so far that take no bytes, in all arrays. */
        long emptyItems;

        Scan(byte[] bytes, int to, StringBatch batch) {
            this.bytes = bytes;
            this.to = to;
            this.batch = batch;
        }

        /** Runs one program for a datum at {@code pos} that starts with the walker {@code depth} deep. */
        int run(int program, int depth, int pos) {
            if (depth + nesting[program] > MAX_DEPTH) {
                throw Undecided.INSTANCE;
            }
            int[] code = programs[program];
            int pc = 0;
            while (pc < code.length) {
                switch (code[pc]) {
                    case SKIP -> {
                        pos = skip(pos, code[pc + 1]);
                        pc += 2;
                    }
                    case BOOLEAN -> {
                        pos = readBoolean(pos);
                        pc++;
                    }
                    case INT -> {
                        pos = position(readInt(pos));
                        pc++;
                    }
                    case LONG -> {
                        pos = skipLong(pos);
                        pc++;
                    }
                    case BYTES -> {
                        pos = bytesValue(pos);
                        pc++;
                    }
                    case STRING -> {
                        pos = string(pos);
                        pc++;
                    }
                    case ENUM -> {
                        long read = readInt(pos);
                        int index = value(read);
                        if (index < 0 || index >= code[pc + 1]) {
                            throw Undecided.INSTANCE;
                        }
                        pos = position(read);
                        pc += 2;
                    }
                    case UNION -> {
                        int branches = code[pc + 2];
                        long read = readInt(pos);
                        int branch = value(read);
                        if (branch < 0 || branch >= branches) {
                            throw Undecided.INSTANCE;
                        }
                        pos = call(code[pc + 3 + branch], depth + code[pc + 1], position(read));
                        pc += 3 + branches;
                    }
                    case ARRAY, MAP -> {
                        pos = items(code, pc, depth + code[pc + 2] + 1, pos);
                        pc += 6;
                    }
                    case CALL -> {
                        pos = run(code[pc + 1], depth + code[pc + 2], pos);
                        pc += 3;
                    }
                    case NEVER -> throw Undecided.INSTANCE;
                    default -> throw new IllegalStateException("code " + code[pc]);
                }
            }
            return pos;
        }

        /**
         * The blocks of an array or map at {@code pos}, whose {@link #ARRAY} code is at {@code
         * code[pc]}, standing {@code depth} deep.
         */
        private int items(int[] code, int pc, int depth, int pos) {
            boolean map = code[pc] == MAP;
            int callee = code[pc + 1];
            int minItem = code[pc + 3];
            while (true) {
                pos = readLong(pos);
                long count = this.count;
                if (count == 0) {
                    return pos;
                }
                int end = -1;
                if (count < 0) {
                    if (count == Long.MIN_VALUE) {
                        throw Undecided.INSTANCE;
                    }
                    count = -count;
                    pos = readLong(pos);
                    long size = this.count;
                    if (size < 0 || size > to - pos) {
                        throw Undecided.INSTANCE;
                    }
                    end = pos + (int) size;
                }
                if (minItem > 0) {
                    if (count > (to - pos) / minItem) {
                        throw Undecided.INSTANCE;
                    }
                    for (long i = 0; i < count; i++) {
                        if (map) {
                            pos = string(pos);
                        }
                        pos = call(callee, depth, pos);
                    }
                } else {
                    int weight = code[pc + 4];
                    if (count > (SchemaWalker.MAX_EMPTY_ITEMS - emptyItems) / weight
                            || depth + code[pc + 5] > MAX_DEPTH) {
                        throw Undecided.INSTANCE;
                    }
                    emptyItems += count * weight;
                }
                if (end >= 0 && pos != end) {
                    throw Undecided.INSTANCE;
                }
            }
        }

        /** Runs a callee for a datum at {@code pos} that starts with the walker {@code depth} deep. */
        private int call(int callee, int depth, int pos) {
            if (callee >= 0) {
                return run(callee, depth, pos);
            }
            return switch (-2 - callee) {
                case -2 - NOTHING -> pos;
                case BOOLEAN -> readBoolean(pos);
                case INT -> position(readInt(pos));
                case LONG -> skipLong(pos);
                case BYTES -> bytesValue(pos);
                case STRING -> string(pos);
                case NEVER -> throw Undecided.INSTANCE;
                default -> throw new IllegalStateException("callee " + callee);
            };
        }

        private int readBoolean(int pos) {
            if (pos >= to || (bytes[pos] & 0xFE) != 0) {
                throw Undecided.INSTANCE;
            }
            return pos + 1;
        }

        /** A string: left where it lies, for the batch to validate with the value. */
        private int string(int pos) {
            long read = readLength(pos);
            return position(read) + value(read);
        }

        /** A bytes value: blanked for the batch, since any of its bytes may be above ASCII. */
        private int bytesValue(int pos) {
            long read = readLength(pos);
            return skip(position(read), value(read));
        }

        /** Bytes that are not a string: blanked for the batch, since any of them may be above ASCII. */
        private int skip(int pos, int n) {
            if (n > to - pos) {
                throw Undecided.INSTANCE;
            }
            if (n > 0) {
                batch.blank(pos, pos + n);
            }
            return pos + n;
        }

        /**
         * A length at {@code pos}: a varint of a value from 0 to the bytes left, {@linkplain #packed
         * packed}; one and two bytes (up to 8191) in line.
         */
        private long readLength(int pos) {
            if (to - pos >= 2) {
                int b0 = bytes[pos];
                if (b0 >= 0) { // up to 63: most map keys and short strings
                    return length(b0, pos + 1);
                }
                int b1 = bytes[pos + 1];
                if (b1 >= 0) { // up to 8191: most sentences
                    batch.blank(pos);
                    return length((b0 & 0x7F) | (b1 << 7), pos + 2);
                }
            }
            pos = readLong(pos);
            long length = count;
            if (length < 0 || length > to - pos) {
                throw Undecided.INSTANCE;
            }
            return packed((int) length, pos);
        }

        /** The length whose zig-zag varint, {@code zigZag}, ends before {@code pos}: {@linkplain #packed packed}. */
        private long length(int zigZag, int pos) {
            int length = zigZag >>> 1;
            if ((zigZag & 1) != 0 || length > to - pos) { // negative, or more than is left
                throw Undecided.INSTANCE;
            }
            return packed(length, pos);
        }

        /** A zig-zag varint of at most 5 bytes whose value fits 32 bits, as the walker reads it; packed. */
        private long readInt(int pos) {
            if (pos < to && bytes[pos] >= 0) {
                int n = bytes[pos];
                return packed((n >>> 1) ^ -(n & 1), pos + 1);
            }
            int start = pos;
            long raw = 0;
            for (int shift = 0; ; shift += 7) {
                if (pos >= to) {
                    throw Undecided.INSTANCE;
                }
                int b = bytes[pos++] & 0xFF;
                raw |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
                if (shift == 28) {
                    throw Undecided.INSTANCE;
                }
            }
            batch.blank(start, pos - 1); // all but the last byte are above ASCII
            if (raw > 0xFFFF_FFFFL) {
                throw Undecided.INSTANCE;
            }
            int n = (int) raw;
            return packed((n >>> 1) ^ -(n & 1), pos);
        }

        /** A long whose value is not needed, only that it is one: one byte in line. */
        private int skipLong(int pos) {
            if (pos < to && bytes[pos] >= 0) {
                return pos + 1;
            }
            return readLong(pos);
        }

        /**
         * A zig-zag varint of at most 10 bytes, as the walker reads it, into {@link #count}; one and
         * two bytes in line.
         */
        private int readLong(int pos) {
            if (to - pos >= 2) {
                int b0 = bytes[pos];
                if (b0 >= 0) {
                    count = (b0 >>> 1) ^ -(b0 & 1);
                    return pos + 1;
                }
                int b1 = bytes[pos + 1];
                if (b1 >= 0) {
                    batch.blank(pos);
                    int n = (b0 & 0x7F) | (b1 << 7);
                    count = (n >>> 1) ^ -(n & 1);
                    return pos + 2;
                }
            }
            int start = pos;
            long raw = 0;
            for (int shift = 0; ; shift += 7) {
                if (pos >= to) {
                    throw Undecided.INSTANCE;
                }
                int b = bytes[pos++] & 0xFF;
                if (shift == 63 && b > 1) {
                    throw Undecided.INSTANCE;
                }
                raw |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    break;
                }
                if (shift == 63) {
                    throw Undecided.INSTANCE;
                }
            }
            if (pos - 1 > start) {
                batch.blank(start, pos - 1);
            }
            count = (raw >>> 1) ^ -(raw & 1);
            return pos;
        }
    }

    /** An int and a position in one long, for a read that must give back both: the int high. */
    private static long packed(int value, int position) {
        return ((long) value << 32) | (position & 0xFFFF_FFFFL);
    }

    private static int value(long packed) {
        return (int) (packed >> 32);
    }

    private static int position(long packed) {
        return (int) packed;
    }

    // ---------------------------------------------------------------------------------------------

    /** Compiles the walker's schema graph into programs, one per datum type that is called. */
    private static final class Compiler {
        final List<int[]> programs = new ArrayList<>();
        final List<Integer> nesting = new ArrayList<>();
        private final Map<Node, Integer> compiled = new IdentityHashMap<>();
        /** The records being laid out or compiled: one met again inside itself is called. */
        private final Set<Node> open = Collections.newSetFromMap(new IdentityHashMap<>());

        /** The program of one datum of {@code node}'s type, compiled once. */
        int program(Node node) {
            Integer known = compiled.get(node);
            if (known != null) {
                return known;
            }
            int index = programs.size();
            compiled.put(node, index);
            programs.add(null);
            nesting.add(0);
            Codes codes = new Codes();
            if (!node.inhabited) {
                codes.add(NEVER);
            } else if (node.kind == SchemaWalker.Kind.RECORD) {
                fields(node, codes, 0, null); // its own program: never a call to itself
            } else {
                datum(node, codes, 0);
            }
            programs.set(index, codes.toArray());
            nesting.set(index, codes.nesting);
            return index;
        }

        /** The callee that reads one datum of {@code node}'s type for another program. */
        int callee(Node node) {
            if (!node.inhabited) {
                return leaf(NEVER);
            }
            if (node.kind == SchemaWalker.Kind.NULL) {
                return NOTHING;
            }
            int code = leafCode(node.kind);
            return code >= 0 ? leaf(code) : program(node);
        }

        /** The one code without operands that reads a datum of {@code kind}, or -1. */
        private static int leafCode(SchemaWalker.Kind kind) {
            return switch (kind) {
                case BOOLEAN -> BOOLEAN;
                case INT -> INT;
                case LONG -> LONG;
                case BYTES -> BYTES;
                case STRING -> STRING;
                default -> -1;
            };
        }

        /** Lays out the codes of one datum of {@code node}, standing {@code depth} deep in its program. */
        private void datum(Node node, Codes codes, int depth) {
            if (!node.inhabited) {
                codes.add(NEVER);
                return;
            }
            int leaf = leafCode(node.kind);
            if (leaf >= 0) {
                codes.add(leaf);
                return;
            }
            switch (node.kind) {
                case NULL -> {} // takes no bytes
                case FLOAT -> codes.skip(4);
                case DOUBLE -> codes.skip(8);
                case FIXED -> codes.skip(node.size);
                case ENUM -> codes.add(ENUM, node.size);
                case RECORD -> record(node, codes, depth);
                case ARRAY, MAP -> {
                    codes.nested(depth + 1);
                    Node item = node.children[0];
                    // Items of a type without a value: any is refused by its callee.
                    long minItem =
                            !item.inhabited ? 1 : node.kind == SchemaWalker.Kind.MAP ? 1L + item.minSize : item.minSize;
                    codes.add(
                            node.kind == SchemaWalker.Kind.MAP ? MAP : ARRAY,
                            callee(item),
                            depth,
                            (int) Math.min(minItem, Integer.MAX_VALUE),
                            item.weight,
                            item.nesting);
                }
                case UNION -> {
                    int[] branches = new int[node.children.length];
                    for (int i = 0; i < branches.length; i++) {
                        branches[i] = callee(node.children[i]);
                    }
                    codes.add(UNION, depth, branches.length);
                    for (int branch : branches) {
                        codes.add(branch);
                    }
                }
                default -> throw new IllegalStateException("kind " + node.kind); // leaf codes return above
            }
        }

        /** A record's fields in line when it is not inside itself and they are few, else a call. */
        private void record(Node node, Codes codes, int depth) {
            if (!open.contains(node)) {
                Codes.Mark mark = codes.mark();
                if (fields(node, codes, depth, mark)) {
                    return;
                }
                codes.reset(mark);
            }
            // The program called counts the record itself in its nesting.
            codes.add(CALL, program(node), depth);
        }

        /**
         * Lays out a record's fields, the record standing {@code depth} deep.
         *
         * @param inline where laying them out in line started, to give up once they take more than
         *     {@link #INLINE_LIMIT} codes; null for a record's own program, which has no limit
         * @return false when it gave up
         */
        private boolean fields(Node record, Codes codes, int depth, Codes.Mark inline) {
            codes.nested(depth + 1);
            boolean opened = open.add(record);
            try {
                for (Node field : record.children) {
                    datum(field, codes, depth + 1);
                    if (inline != null && codes.since(inline) > INLINE_LIMIT) {
                        return false;
                    }
                }
                return true;
            } finally {
                if (opened) {
                    open.remove(record);
                }
            }
        }
    }

    /** A program being laid out. */
    private static final class Codes {
        private int[] codes = new int[16];
        private int size;
        /** Where the last code is, when it is a {@link #SKIP}, which the next may grow; else -1. */
        private int lastSkip = -1;
        /** The deepest the walker is inside this program. */
        int nesting;

        record Mark(int size, int lastSkip, int lastSkipBytes) {}

        void nested(int depth) {
            nesting = Math.max(nesting, depth);
        }

        void skip(int n) {
            if (n == 0) {
                return;
            }
            if (lastSkip >= 0 && (long) codes[lastSkip + 1] + n <= Integer.MAX_VALUE) {
                codes[lastSkip + 1] += n;
                return;
            }
            add(SKIP, n);
            lastSkip = size - 2;
        }

        void add(int... values) {
            if (size + values.length > codes.length) {
                codes = Arrays.copyOf(codes, Math.max(2 * codes.length, size + values.length));
            }
            System.arraycopy(values, 0, codes, size, values.length);
            size += values.length;
            lastSkip = -1;
        }

        Mark mark() {
            return new Mark(size, lastSkip, lastSkip >= 0 ? codes[lastSkip + 1] : 0);
        }

        int since(Mark mark) {
            return size - mark.size();
        }

        void reset(Mark mark) {
            size = mark.size();
            lastSkip = mark.lastSkip();
            if (lastSkip >= 0) {
                codes[lastSkip + 1] = mark.lastSkipBytes();
            }
        }

        int[] toArray() {
            return Arrays.copyOf(codes, size);
        }
    }
}
