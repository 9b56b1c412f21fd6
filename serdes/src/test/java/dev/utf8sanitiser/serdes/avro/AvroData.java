package dev.utf8sanitiser.serdes.avro;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;

/**
 * Test data written and read by Apache Avro itself, the oracle for the walker: random data for any
 * schema, Avro's binary of it, and an independent list of its strings (by walking the Java objects,
 * not the bytes) with their docs/dlq.md field paths.
 *
 * <p>The order schema is testkit's ({@link dev.utf8sanitiser.testkit.ExampleOrders}); the generator
 * is not. {@code ExampleOrders.random} makes realistic, full orders (the last union branch, small
 * numbers, named map keys) for the demo, whose output CI checks, and the benchmarks. This one
 * explores: any schema, every union branch, numbers of any size, empty and absent collections,
 * random map keys, and the blocking encoder's sized blocks.
 */
final class AvroData {
    static final Schema ORDER = dev.utf8sanitiser.testkit.ExampleOrders.SCHEMA;

    private static final String[] WORDS = {
        "Straße",
        "crème brûlée",
        "東京都",
        "Ελληνικά",
        "😀 emoji",
        "plain ascii",
        "",
        "naïve café",
        "עברית",
        "русский текст",
        "한국어",
        "e\u0301",
        "tab\there",
        "\u0000nul"
    };

    private AvroData() {}

    static Schema load(String resource) {
        try (InputStream in = AvroData.class.getResourceAsStream(resource)) {
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A string with its path, as the oracle sees it. */
    record Str(String path, byte[] bytes) {
        @Override
        public String toString() {
            return path + "=" + new String(bytes, StandardCharsets.UTF_8);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Str s && s.path.equals(path) && Arrays.equals(s.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return path.hashCode() * 31 + Arrays.hashCode(bytes);
        }
    }

    /** Random data; strings come from {@code strings}, which may return ill-formed bytes. */
    static Object random(Schema schema, Random random, Function<Random, byte[]> strings, int depth) {
        return switch (schema.getType()) {
            case NULL -> null;
            case BOOLEAN -> random.nextBoolean();
            case INT -> random.nextInt();
            case LONG -> random.nextLong();
            case FLOAT -> random.nextFloat();
            case DOUBLE -> random.nextDouble();
            case BYTES -> {
                byte[] b = new byte[random.nextInt(6)];
                random.nextBytes(b);
                yield ByteBuffer.wrap(b);
            }
            case STRING -> new Utf8(strings.apply(random));
            case FIXED -> {
                byte[] b = new byte[schema.getFixedSize()];
                random.nextBytes(b);
                yield new GenericData.Fixed(schema, b);
            }
            case ENUM ->
                new GenericData.EnumSymbol(
                        schema,
                        schema.getEnumSymbols()
                                .get(random.nextInt(schema.getEnumSymbols().size())));
            case RECORD -> {
                GenericRecord record = new GenericData.Record(schema);
                for (Schema.Field field : schema.getFields()) {
                    record.put(field.pos(), random(field.schema(), random, strings, depth + 1));
                }
                yield record;
            }
            case ARRAY -> {
                int n = depth > 3 ? 0 : random.nextInt(4);
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    items.add(random(schema.getElementType(), random, strings, depth + 1));
                }
                yield new GenericData.Array<>(schema, items);
            }
            case MAP -> {
                int n = depth > 3 ? 0 : random.nextInt(4);
                Map<Utf8, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    // Keys well-formed: Avro's writer would write an ill-formed one with U+FFFD.
                    map.put(new Utf8(wellFormed(random)), random(schema.getValueType(), random, strings, depth + 1));
                }
                yield map;
            }
            case UNION -> {
                List<Schema> types = schema.getTypes();
                yield random(types.get(random.nextInt(types.size())), random, strings, depth + 1);
            }
        };
    }

    /** Well-formed strings, multilingual. */
    static byte[] wellFormed(Random random) {
        return WORDS[random.nextInt(WORDS.length)].getBytes(StandardCharsets.UTF_8);
    }

    /** Avro's binary of {@code datum}: with the direct encoder, or the blocking one (sized blocks). */
    static byte[] write(Schema schema, Object datum, boolean blocking) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = blocking
                    ? new EncoderFactory().configureBlockSize(64).blockingBinaryEncoder(out, null)
                    : EncoderFactory.get().directBinaryEncoder(out, null);
            new GenericDatumWriter<>(schema).write(datum, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Object read(Schema schema, byte[] bytes, int from) {
        try {
            return new GenericDatumReader<>(schema)
                    .read(null, DecoderFactory.get().binaryDecoder(bytes, from, bytes.length - from, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every string of {@code datum}, in the order Avro writes them, with docs/dlq.md paths. */
    static List<Str> strings(Schema schema, Object datum) {
        List<Str> out = new ArrayList<>();
        collect(schema, datum, "", out);
        return out;
    }

    private static void collect(Schema schema, Object datum, String path, List<Str> out) {
        switch (schema.getType()) {
            case STRING -> out.add(new Str(path, bytesOf(datum)));
            case RECORD -> {
                GenericRecord record = (GenericRecord) datum;
                for (Schema.Field field : schema.getFields()) {
                    String child = path.isEmpty() ? field.name() : path + "." + field.name();
                    collect(field.schema(), record.get(field.pos()), child, out);
                }
            }
            case ARRAY -> {
                int i = 0;
                for (Object item : (List<?>) datum) {
                    collect(schema.getElementType(), item, path + "[" + i++ + "]", out);
                }
            }
            case MAP -> {
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) datum).entrySet()) {
                    byte[] key = keyBytes(entry.getKey());
                    out.add(new Str(path + "{}", key));
                    String shown = new String(key, StandardCharsets.UTF_8);
                    collect(schema.getValueType(), entry.getValue(), path + "{" + shown + "}", out);
                }
            }
            case UNION ->
                collect(schema.getTypes().get(GenericData.get().resolveUnion(schema, datum)), datum, path, out);
            default -> {}
        }
    }

    /** {@code datum} with every string mapped through {@code f}, built anew. */
    static Object mapStrings(Schema schema, Object datum, UnaryOperator<byte[]> f) {
        return switch (schema.getType()) {
            case STRING -> new Utf8(f.apply(bytesOf(datum)));
            case RECORD -> {
                GenericRecord in = (GenericRecord) datum;
                GenericRecord record = new GenericData.Record(schema);
                for (Schema.Field field : schema.getFields()) {
                    record.put(field.pos(), mapStrings(field.schema(), in.get(field.pos()), f));
                }
                yield record;
            }
            case ARRAY -> {
                List<Object> items = new ArrayList<>();
                for (Object item : (List<?>) datum) {
                    items.add(mapStrings(schema.getElementType(), item, f));
                }
                yield new GenericData.Array<>(schema, items);
            }
            case MAP -> {
                Map<Utf8, Object> map = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) datum).entrySet()) {
                    map.put(
                            new Utf8(f.apply(keyBytes(e.getKey()))),
                            mapStrings(schema.getValueType(), e.getValue(), f));
                }
                yield map;
            }
            case UNION -> mapStrings(schema.getTypes().get(GenericData.get().resolveUnion(schema, datum)), datum, f);
            case FIXED -> new GenericData.Fixed(schema, ((GenericFixed) datum).bytes());
            case BYTES -> ((ByteBuffer) datum).duplicate();
            default -> datum;
        };
    }

    /**
     * {@code datum} as plain lists, hex strings and numbers, with map entries sorted by key: for
     * comparing data that Avro's reader read back. That reader decodes every map key into a Java
     * String, so an ill-formed key comes back with U+FFFD where its bad bytes were (silent damage
     * again); keys are therefore compared as the JDK decodes them, and byte-exact elsewhere.
     */
    static Object canonical(Schema schema, Object datum) {
        return switch (schema.getType()) {
            case STRING -> HexFormat.of().formatHex(bytesOf(datum));
            case BYTES -> {
                ByteBuffer b = ((ByteBuffer) datum).duplicate();
                byte[] out = new byte[b.remaining()];
                b.get(out);
                yield HexFormat.of().formatHex(out);
            }
            case FIXED -> HexFormat.of().formatHex(((GenericFixed) datum).bytes());
            case ENUM -> datum.toString();
            case RECORD -> {
                List<Object> fields = new ArrayList<>();
                for (Schema.Field field : schema.getFields()) {
                    fields.add(canonical(field.schema(), ((GenericRecord) datum).get(field.pos())));
                }
                yield fields;
            }
            case ARRAY ->
                ((List<?>) datum)
                        .stream()
                                .map(item -> canonical(schema.getElementType(), item))
                                .toList();
            case MAP -> {
                TreeMap<String, Object> sorted = new TreeMap<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) datum).entrySet()) {
                    sorted.put(
                            new String(bytesOf(e.getKey()), StandardCharsets.UTF_8),
                            canonical(schema.getValueType(), e.getValue()));
                }
                yield sorted;
            }
            case UNION -> {
                int branch = GenericData.get().resolveUnion(schema, datum);
                yield List.of(branch, String.valueOf(canonical(schema.getTypes().get(branch), datum)));
            }
            default -> String.valueOf(datum);
        };
    }

    /**
     * A map key as Avro's GenericDatumWriter writes it: through {@code toString()}, so an ill-formed
     * key is written with U+FFFD (silent damage on the writing side too).
     */
    static byte[] keyBytes(Object key) {
        return key.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytesOf(Object string) {
        if (string instanceof Utf8 utf8) {
            return Arrays.copyOf(utf8.getBytes(), utf8.getByteLength());
        }
        return string.toString().getBytes(StandardCharsets.UTF_8);
    }
}
