package dev.utf8sanitiser.serdes.avro;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Values of four recursive shapes nested exactly {@link SchemaWalker#MAX_DEPTH} deep, as the walker
 * counts, which the walker accepts; a main for a JVM of its own ({@code -Xint}, as Avro's reader
 * runs before the JIT compiler has seen it), that prints what stopped Avro's readers on a 512 KB
 * stack ({@link AvroReadBack}) and exits 1 if anything did.
 */
final class DeepReadBack {
    private DeepReadBack() {}

    /** Each shape's schema, and its value nested {@code depth} deep (an even number). */
    static Map<Schema, byte[]> values(int depth) {
        ByteArrayOutputStream list = new ByteArrayOutputStream(); // a record, a union of it: 1 level
        for (int i = 0; i < depth - 1; i++) {
            list.write(0); // v = ""
            list.write(2); // next = branch 1
        }
        list.write(0);
        list.write(0);
        ByteArrayOutputStream tree = new ByteArrayOutputStream(); // a record, an array of it: 2 levels
        ByteArrayOutputStream map = new ByteArrayOutputStream(); // a record, a map of a union of it
        ByteArrayOutputStream arrays = new ByteArrayOutputStream(); // a union of an array of a union of it
        for (int i = 0; i < depth / 2 - 1; i++) {
            tree.write(2);
            map.writeBytes(new byte[] {2, 0, 2}); // one entry, key "", branch 1
            arrays.writeBytes(new byte[] {2, 2, 2}); // branch 1, one item, branch 1
        }
        tree.write(0); // the last record's empty array, map, and union of an empty array
        map.write(0);
        arrays.writeBytes(new byte[] {2, 0});
        for (int i = 0; i < depth / 2 - 1; i++) {
            tree.write(0);
            map.write(0);
            arrays.write(0);
        }
        return Map.of(
                HostileAvroTest.LIST,
                list.toByteArray(),
                parse("{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"kids\",\"type\":"
                        + "{\"type\":\"array\",\"items\":\"T\"}}]}"),
                tree.toByteArray(),
                parse("{\"type\":\"record\",\"name\":\"M\",\"fields\":[{\"name\":\"m\",\"type\":"
                        + "{\"type\":\"map\",\"values\":[\"null\",\"M\"]}}]}"),
                map.toByteArray(),
                parse("{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\","
                        + "{\"type\":\"array\",\"items\":[\"null\",\"A\"]}]}]}"),
                arrays.toByteArray());
    }

    private static Schema parse(String json) {
        return new Schema.Parser().parse(json);
    }

    public static void main(String[] args) {
        List<String> failures = new ArrayList<>();
        values(SchemaWalker.MAX_DEPTH).forEach((schema, value) -> {
            SchemaWalker.of(schema).walk(value, 0, value.length, (path, bytes, offset, length) -> null);
            AvroReadBack.failures(schema, value, 0).forEach(f -> failures.add(schema.getName() + ": " + f));
        });
        failures.forEach(System.out::println);
        System.exit(failures.isEmpty() ? 0 : 1);
    }
}
