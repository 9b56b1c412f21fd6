package dev.utf8sanitiser.serdes.avro;

import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Random Avro schemas of every shape the walker compiles, recursive ones and ones with types that
 * have no finite value among them ({@code Z{z: Z}}, a record holding such a type, a union of only
 * such types), and random binary for them: written by following the schema, with small counts,
 * lengths and indexes, some of them out of range, huge counts, blocks with a byte size, then
 * sometimes cut, grown or corrupted. Every choice comes from a {@link Choices}, so that a property
 * drives it with a {@link Random} and a fuzz target with its input's bytes.
 */
final class RandomAvro {
    /** A source of choices. */
    interface Choices {
        /** A number from 0 to {@code bound - 1}; {@code bound} is at most 256. */
        int below(int bound);

        static Choices of(Random random) {
            return random::nextInt;
        }

        /**
         * One byte a choice, in order; 0 once they run out. {@code used[0]} counts the bytes taken,
         * from where it starts.
         */
        static Choices of(byte[] bytes, int[] used) {
            return new Choices() {
                private int next;

                @Override
                public int below(int bound) {
                    if (next >= bytes.length) {
                        return 0;
                    }
                    used[0]++;
                    return (bytes[next++] & 0xFF) % bound;
                }
            };
        }
    }

    private static final String[] PRIMITIVES = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"};
    private static final int MAX_SCHEMA_DEPTH = 4;
    /** The binary of one value grows to about this many bytes, then the rest of it is left out. */
    private static final int VALUE_BUDGET = 160;

    private RandomAvro() {}

    /** A random schema. */
    static Schema schema(Choices choices) {
        return new Schema.Parser().parse(new SchemaWriter(choices).type(0, false));
    }

    /** Random binary for {@code schema}, often valid, often not quite. */
    static byte[] value(Schema schema, Choices choices) {
        ValueWriter writer = new ValueWriter(choices);
        writer.datum(schema, 0);
        byte[] bytes = writer.out.toByteArray();
        return mutate(bytes, choices);
    }

    private static byte[] mutate(byte[] bytes, Choices choices) {
        switch (choices.below(8)) {
            case 0 -> { // cut
                return java.util.Arrays.copyOf(
                        bytes, bytes.length == 0 ? 0 : choices.below(Math.min(bytes.length, 256)));
            }
            case 1 -> { // a byte more
                byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
                longer[bytes.length] = (byte) choices.below(256);
                return longer;
            }
            case 2 -> { // one byte changed, often to a small number: an index, a count, a length
                if (bytes.length > 0) {
                    int at = choices.below(Math.min(bytes.length, 256));
                    bytes[at] = (byte) (choices.below(2) == 0 ? choices.below(6) : choices.below(256));
                }
                return bytes;
            }
            default -> {
                return bytes;
            }
        }
    }

    /** Writes a schema as JSON; named types get names of their own, records may refer to enclosing ones. */
    private static final class SchemaWriter {
        private final Choices choices;
        private final Deque<String> enclosing = new ArrayDeque<>();
        private int names;

        SchemaWriter(Choices choices) {
            this.choices = choices;
        }

        String type(int depth, boolean inUnion) {
            int pick = depth >= MAX_SCHEMA_DEPTH ? choices.below(3) : choices.below(16);
            if (pick == 0 && !enclosing.isEmpty()) {
                return quote(reference()); // recursion, through whatever holds it
            }
            return switch (pick) {
                case 0, 1, 2 -> quote(PRIMITIVES[choices.below(PRIMITIVES.length)]);
                case 3 -> enumType();
                case 4 -> fixed();
                case 5, 6 -> "{\"type\":\"array\",\"items\":" + type(depth + 1, false) + "}";
                case 7 -> "{\"type\":\"map\",\"values\":" + type(depth + 1, false) + "}";
                case 8, 9 -> inUnion ? quote("string") : union(depth);
                case 10 -> selfOnly();
                default -> record(depth);
            };
        }

        private String reference() {
            List<String> names = new ArrayList<>(enclosing);
            return names.get(choices.below(names.size()));
        }

        private String enumType() {
            int symbols = 1 + choices.below(3);
            StringBuilder json = new StringBuilder("{\"type\":\"enum\",\"name\":\"E" + names++ + "\",\"symbols\":[");
            for (int i = 0; i < symbols; i++) {
                json.append(i == 0 ? "" : ",").append("\"S").append(i).append('"');
            }
            return json.append("]}").toString();
        }

        private String fixed() {
            return "{\"type\":\"fixed\",\"name\":\"F" + names++ + "\",\"size\":" + choices.below(4) + "}";
        }

        /** A record that holds itself and, maybe, a string: no finite value. */
        private String selfOnly() {
            String name = "Z" + names++;
            String other = choices.below(2) == 0 ? "" : ",{\"name\":\"s\",\"type\":\"string\"}";
            return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[{\"name\":\"z\",\"type\":\"" + name
                    + "\"}" + other + "]}";
        }

        private String record(int depth) {
            String name = "R" + names++;
            enclosing.push(name);
            int fields = choices.below(4);
            StringBuilder json = new StringBuilder("{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[");
            for (int i = 0; i < fields; i++) {
                json.append(i == 0 ? "" : ",")
                        .append("{\"name\":\"f")
                        .append(i)
                        .append("\",\"type\":")
                        .append(type(depth + 1, false))
                        .append('}');
            }
            enclosing.pop();
            return json.append("]}").toString();
        }

        /** Up to three branches, no two of one unnamed kind, none a union. */
        private String union(int depth) {
            List<String> branches = new ArrayList<>();
            Set<String> kinds = new HashSet<>();
            int wanted = 1 + choices.below(3);
            for (int i = 0; i < wanted; i++) {
                String branch = type(depth + 1, true);
                if (kinds.add(kind(branch))) {
                    branches.add(branch);
                }
            }
            return "[" + String.join(",", branches) + "]";
        }

        /** What makes two union branches the same: the primitive, array, map, or the name. */
        private static String kind(String branch) {
            if (branch.startsWith("\"")) {
                return branch;
            }
            int name = branch.indexOf("\"name\":\"");
            String type = branch.substring(9, branch.indexOf('"', 9));
            return (type.equals("array") || type.equals("map")) || name < 0
                    ? type
                    : branch.substring(name + 8, branch.indexOf('"', name + 8));
        }

        private static String quote(String name) {
            return '"' + name + '"';
        }
    }

    /** Writes binary by following a schema, with choices that are sometimes out of range. */
    private static final class ValueWriter {
        private static final int STEP_BUDGET = 2000;

        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final Choices choices;
        /** Steps taken, shared with the writers of blocks inside. */
        private final int[] steps;

        ValueWriter(Choices choices) {
            this(choices, new int[1]);
        }

        private ValueWriter(Choices choices, int[] steps) {
            this.choices = choices;
            this.steps = steps;
        }

        void datum(Schema schema, int depth) {
            // Types that take no bytes may branch without end (R{a: R, b: R}): steps are counted too.
            if (out.size() > VALUE_BUDGET || depth > 40 || ++steps[0] > STEP_BUDGET) {
                return; // left out: most such values end up cut short
            }
            switch (schema.getType()) {
                case NULL -> {}
                case BOOLEAN -> out.write(choices.below(16) == 0 ? 2 : choices.below(2));
                case INT, LONG -> varint(number());
                case FLOAT -> raw(4);
                case DOUBLE -> raw(8);
                case BYTES -> {
                    int length = choices.below(5);
                    varint(length);
                    raw(length);
                }
                case STRING -> string();
                case FIXED -> raw(schema.getFixedSize());
                case ENUM -> varint(choices.below(schema.getEnumSymbols().size() + 1));
                case UNION -> {
                    int branches = schema.getTypes().size();
                    int branch = choices.below(branches + (choices.below(16) == 0 ? 1 : 0));
                    varint(branch);
                    if (branch < branches) {
                        datum(schema.getTypes().get(branch), depth + 1);
                    }
                }
                case RECORD -> {
                    for (Schema.Field field : schema.getFields()) {
                        datum(field.schema(), depth + 1);
                    }
                }
                case ARRAY -> blocks(schema.getElementType(), false, depth);
                case MAP -> blocks(schema.getValueType(), true, depth);
            }
        }

        private void blocks(Schema items, boolean map, int depth) {
            int blocks = choices.below(3);
            for (int b = 0; b < blocks; b++) {
                switch (choices.below(12)) {
                    case 0 -> {
                        varint(new long[] {1_000_000, (1L << 31) - 1, 1 << 20, (1 << 20) + 1}[choices.below(4)]);
                        return; // a count the bytes after it do not back, unless the items take none
                    }
                    case 1 -> { // a block with its byte size
                        ValueWriter block = new ValueWriter(choices, steps);
                        int count = 1 + choices.below(3);
                        for (int i = 0; i < count; i++) {
                            block.item(items, map, depth);
                        }
                        varint(-count);
                        varint(block.out.size() + (choices.below(8) == 0 ? 1 : 0));
                        out.writeBytes(block.out.toByteArray());
                    }
                    default -> {
                        int count = 1 + choices.below(3);
                        varint(count);
                        for (int i = 0; i < count; i++) {
                            item(items, map, depth);
                        }
                    }
                }
            }
            varint(0);
        }

        private void item(Schema items, boolean map, int depth) {
            if (map) {
                string();
            }
            datum(items, depth + 1);
        }

        private void string() {
            int length = choices.below(4);
            varint(length);
            for (int i = 0; i < length; i++) {
                out.write(choices.below(4) == 0 ? 0x80 + choices.below(128) : 'a' + choices.below(26));
            }
        }

        private long number() {
            return switch (choices.below(4)) {
                case 0 -> choices.below(256) - 128;
                case 1 -> Integer.MAX_VALUE + (long) choices.below(2);
                default -> choices.below(64);
            };
        }

        private void raw(int n) {
            for (int i = 0; i < n && out.size() <= VALUE_BUDGET + 64; i++) {
                out.write(choices.below(256));
            }
        }

        private void varint(long n) {
            long v = (n << 1) ^ (n >> 63);
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }
    }
}
