package dev.utf8sanitiser.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;

/**
 * A realistic Avro record for the demo, the benchmarks and the tests: an order event of 20 fields
 * with nested records, arrays, maps, unions and a recursive type ({@code examples/order.avsc}).
 * Strings come from a function, so callers choose well-formed text or damage; Apache Avro's own
 * writer encodes them. The orders are full and alike in shape (the last union branch, small numbers,
 * keys {@code key0}, {@code key1}, ...), and a seed always gives the same bytes: the demo's output,
 * which CI checks, depends on them. The serdes tests explore every shape with their own generator.
 */
public final class ExampleOrders {
    /** The schema of {@code examples/order.avsc}. */
    public static final Schema SCHEMA = load();

    private ExampleOrders() {}

    private static Schema load() {
        try (InputStream in = ExampleOrders.class.getResourceAsStream("/examples/order.avsc")) {
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A random order: every string from {@code strings}, lists and maps of up to {@code maxItems}
     * entries.
     */
    public static GenericRecord random(Random random, Function<Random, byte[]> strings, int maxItems) {
        return (GenericRecord) datum(SCHEMA, random, strings, maxItems, 0);
    }

    /** Avro's binary encoding of {@code datum} (no wire-format prefix). */
    public static byte[] binary(Schema schema, Object datum) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            new GenericDatumWriter<>(schema).write(datum, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object datum(Schema schema, Random random, Function<Random, byte[]> strings, int max, int depth) {
        return switch (schema.getType()) {
            case NULL -> null;
            case BOOLEAN -> random.nextBoolean();
            case INT -> random.nextInt(1000);
            case LONG -> random.nextLong();
            case FLOAT -> random.nextFloat();
            case DOUBLE -> random.nextDouble() * 1000;
            case BYTES -> ByteBuffer.wrap(new byte[] {(byte) random.nextInt(), (byte) random.nextInt()});
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
                    record.put(field.pos(), datum(field.schema(), random, strings, max, depth + 1));
                }
                yield record;
            }
            case ARRAY -> {
                int n = depth > 4 ? 0 : 1 + random.nextInt(max);
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    items.add(datum(schema.getElementType(), random, strings, max, depth + 2));
                }
                yield new GenericData.Array<>(schema, items);
            }
            case MAP -> {
                int n = depth > 4 ? 0 : 1 + random.nextInt(max);
                Map<Utf8, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    // Avro's writer writes keys through toString(): they are well-formed here.
                    map.put(new Utf8("key" + i), datum(schema.getValueType(), random, strings, max, depth + 2));
                }
                yield map;
            }
            case UNION -> {
                List<Schema> types = schema.getTypes();
                // The last branch: a value rather than null, so the record is full.
                yield datum(types.get(types.size() - 1), random, strings, max, depth);
            }
        };
    }
}
