package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.testkit.ExampleOrders;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/**
 * The demo's Avro traffic: orders of testkit's example schema (20 fields, nested), in Confluent's
 * wire format, some with ill-formed bytes deep inside, as a CDC source or a legacy producer writes
 * them. Avro's own writer encodes them: it copies a string's bytes as they are.
 */
final class DemoOrders {
    /** One record, and the field the demo damaged (empty for none). */
    record Sample(String label, byte[] value, String damaged) {}

    private DemoOrders() {}

    static List<Sample> samples(int schemaId) {
        return List.of(
                new Sample("well-formed order", order(schemaId, 1, o -> {}), ""),
                new Sample("well-formed order, every script", order(schemaId, 2, o -> city(o, utf8("東京都 Zürich"))), ""),
                new Sample(
                        "CESU-8 city (a database export)",
                        order(schemaId, 3, o -> city(o, bytes("M", 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, "nchen"))),
                        "customer.address.city"),
                new Sample(
                        "overlong '/' in a line's sku",
                        order(schemaId, 4, o -> line(o, 1).put("sku", new Utf8(bytes("..", 0xC0, 0xAF, "etc")))),
                        "lines[1].sku"),
                new Sample(
                        "Latin-1 'é' in a tag value",
                        order(schemaId, 5, o -> tags(o).put(new Utf8("key0"), new Utf8(bytes("caf", 0xE9)))),
                        "tags{key0}"),
                new Sample("JSON sent to an Avro topic", utf8("{\"id\":\"1042\"}"), ""),
                new Sample("an id the registry never gave", withId(schemaId + 100, order(schemaId, 6, o -> {})), ""),
                new Sample("cut short in transit", cut(order(schemaId, 7, o -> {})), ""));
    }

    /** An order whose every string is plain, then {@code damage} applied, in the wire format. */
    private static byte[] order(int schemaId, long seed, Consumer<GenericRecord> damage) {
        String[] words = {"order", "Grüße", "naïve", "shipped", "ok"};
        GenericRecord order = ExampleOrders.random(new Random(seed), r -> utf8(words[r.nextInt(words.length)]), 2);
        damage.accept(order);
        byte[] binary = ExampleOrders.binary(ExampleOrders.SCHEMA, order);
        byte[] value = Arrays.copyOf(WireFormat.prefix(schemaId), 5 + binary.length);
        System.arraycopy(binary, 0, value, 5, binary.length);
        return value;
    }

    private static void city(GenericRecord order, byte[] city) {
        ((GenericRecord) ((GenericRecord) order.get("customer")).get("address")).put("city", new Utf8(city));
    }

    @SuppressWarnings("unchecked")
    private static GenericRecord line(GenericRecord order, int index) {
        List<GenericRecord> lines = (List<GenericRecord>) order.get("lines");
        while (lines.size() <= index) {
            GenericRecord copy = new GenericData.Record(lines.get(0).getSchema());
            lines.get(0)
                    .getSchema()
                    .getFields()
                    .forEach(f -> copy.put(f.pos(), lines.get(0).get(f.pos())));
            lines.add(copy);
        }
        return lines.get(index);
    }

    @SuppressWarnings("unchecked")
    private static Map<Utf8, Object> tags(GenericRecord order) {
        return (Map<Utf8, Object>) order.get("tags");
    }

    private static byte[] withId(int id, byte[] value) {
        byte[] out = value.clone();
        System.arraycopy(WireFormat.prefix(id), 0, out, 0, 5);
        return out;
    }

    private static byte[] cut(byte[] value) {
        return Arrays.copyOf(value, value.length - 3);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The bytes of {@code parts}: each string in UTF-8, each integer as one byte. */
    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(utf8(s));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }
}
