package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.utf8sanitiser.serdes.avro.AvroData.Str;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SchemaWalkerTest {
    private static final SchemaWalker ORDER = SchemaWalker.of(AvroData.ORDER);

    /** The walker's view: every string with its rendered path, in order. */
    private static List<Str> walked(SchemaWalker walker, byte[] bytes) {
        List<Str> seen = new ArrayList<>();
        byte[] out = walker.walk(bytes, 0, bytes.length, (path, b, offset, length) -> {
            seen.add(new Str(path.render(), Arrays.copyOfRange(b, offset, offset + length)));
            return null;
        });
        assertThat(out).isSameAs(bytes);
        return seen;
    }

    @Property(tries = 300)
    void visitsEveryStringAvroWroteWithItsPath(@ForAll long seed, @ForAll boolean blocking) {
        Object order = AvroData.random(AvroData.ORDER, new Random(seed), AvroData::wellFormed, 0);
        byte[] bytes = AvroData.write(AvroData.ORDER, order, blocking);

        assertThat(walked(ORDER, bytes)).containsExactlyElementsOf(AvroData.strings(AvroData.ORDER, order));
    }

    @Property(tries = 300)
    void visitsIllFormedStringsByteForByte(@ForAll long seed) {
        Random random = new Random(seed);
        Object order = AvroData.random(AvroData.ORDER, random, SchemaWalkerTest::anyBytes, 0);
        byte[] bytes = AvroData.write(AvroData.ORDER, order, random.nextBoolean());

        assertThat(walked(ORDER, bytes)).containsExactlyElementsOf(AvroData.strings(AvroData.ORDER, order));
    }

    @Property(tries = 300)
    void rewritesStringsOfNewLengthsAsAvroWouldWriteThem(@ForAll long seed, @ForAll boolean blocking) {
        Random random = new Random(seed);
        Object order = AvroData.random(AvroData.ORDER, random, SchemaWalkerTest::anyBytes, 0);
        Object expected = AvroData.mapStrings(AvroData.ORDER, order, SchemaWalkerTest::longer);
        byte[] bytes = AvroData.write(AvroData.ORDER, order, blocking);
        byte[] prefixed = concat(WireFormat.prefix(7), bytes);

        byte[] rewritten = ORDER.walk(
                prefixed,
                5,
                prefixed.length,
                (path, b, offset, length) -> longer(Arrays.copyOfRange(b, offset, offset + length)));

        assertThat(Arrays.copyOf(rewritten, 5)).isEqualTo(WireFormat.prefix(7));
        assertThat(AvroData.canonical(AvroData.ORDER, AvroData.read(AvroData.ORDER, rewritten, 5)))
                .isEqualTo(AvroData.canonical(AvroData.ORDER, expected));
        // Avro's decoder reads our rewrite; the walker walks it again, and finds the new strings.
        assertThat(walked(ORDER, Arrays.copyOfRange(rewritten, 5, rewritten.length)))
                .containsExactlyElementsOf(AvroData.strings(AvroData.ORDER, expected));
    }

    @Property(tries = 200)
    void keepsTheArrayWhenNothingIsReplaced(@ForAll long seed) {
        Object order = AvroData.random(AvroData.ORDER, new Random(seed), AvroData::wellFormed, 0);
        byte[] bytes = AvroData.write(AvroData.ORDER, order, true);

        assertThat(ORDER.walk(bytes, 0, bytes.length, (path, b, offset, length) -> null))
                .isSameAs(bytes);
    }

    @Test
    void rendersThePathsOfDlqMd() {
        Schema line =
                SchemaBuilder.record("Line").fields().requiredString("sku").endRecord();
        Schema schema = SchemaBuilder.record("Order")
                .fields()
                .name("customer")
                .type(SchemaBuilder.record("Customer")
                        .fields()
                        .requiredString("name")
                        .endRecord())
                .noDefault()
                .name("lines")
                .type(SchemaBuilder.array().items(line))
                .noDefault()
                .name("tags")
                .type(SchemaBuilder.map().values().stringType())
                .noDefault()
                .endRecord();
        GenericRecord order = new GenericData.Record(schema);
        GenericRecord customer =
                new GenericData.Record(schema.getField("customer").schema());
        customer.put("name", "Ann");
        order.put("customer", customer);
        List<GenericRecord> lines = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            GenericRecord l = new GenericData.Record(line);
            l.put("sku", "sku-" + i);
            lines.add(l);
        }
        order.put("lines", lines);
        order.put("tags", Map.of(new Utf8("color"), new Utf8("red")));

        List<Str> strings = walked(SchemaWalker.of(schema), AvroData.write(schema, order, false));

        assertThat(strings.stream().map(Str::path))
                .containsExactly(
                        "customer.name",
                        "lines[0].sku",
                        "lines[1].sku",
                        "lines[2].sku",
                        "lines[3].sku",
                        "tags{}",
                        "tags{color}");
    }

    @Test
    void visitsAnIllFormedMapKeyAndNamesTheValueWithTheKeyAsDecoded() {
        // Avro's own writer cannot write such a key (it writes key.toString()), other writers can.
        Schema schema = SchemaBuilder.map().values().stringType();
        byte[] bytes = bytes(0x02, 0x04, 'a', 0xC0, 0x02, 'v', 0x00);

        assertThat(walked(SchemaWalker.of(schema), bytes))
                .containsExactly(new Str("{}", bytes('a', 0xC0)), new Str("{a\uFFFD}", bytes('v')));
    }

    @Test
    void walksARecursiveSchema() {
        Object order = AvroData.random(AvroData.ORDER, new Random(1), AvroData::wellFormed, 0);
        GenericRecord record = (GenericRecord) order;
        Schema comment = AvroData.ORDER.getField("comments").schema().getElementType();
        GenericRecord reply = new GenericData.Record(comment);
        reply.put("author", "b");
        reply.put("text", "réponse");
        reply.put("rating", null);
        reply.put("replies", List.of());
        GenericRecord top = new GenericData.Record(comment);
        top.put("author", "a");
        top.put("text", "question");
        top.put("rating", 4);
        top.put("replies", List.of(reply));
        record.put("comments", List.of(top));

        List<Str> strings = walked(ORDER, AvroData.write(AvroData.ORDER, record, false));

        assertThat(strings)
                .contains(new Str("comments[0].replies[0].text", "réponse".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void everyTruncationIsMalformedNeverACrash() {
        Object order = AvroData.random(AvroData.ORDER, new Random(5), AvroData::wellFormed, 0);
        byte[] bytes = AvroData.write(AvroData.ORDER, order, false);
        for (int cut = 0; cut < bytes.length; cut++) {
            int end = cut;
            MalformedAvroException e = catchThrowableOfType(
                    MalformedAvroException.class, () -> ORDER.walk(bytes, 0, end, (p, b, o, l) -> null));
            assertThat(e).as("cut at %d of %d", cut, bytes.length).isNotNull();
            assertThat(e.offset()).isBetween(0, cut);
        }
    }

    @Property(tries = 1000)
    void corruptBinaryIsWalkedOrMalformed(@ForAll long seed) {
        Random random = new Random(seed);
        Object order = AvroData.random(AvroData.ORDER, random, AvroData::wellFormed, 0);
        byte[] bytes = AvroData.write(AvroData.ORDER, order, random.nextBoolean());
        for (int i = 0; i < 1 + random.nextInt(3); i++) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        try {
            ORDER.walk(bytes, 0, bytes.length, (p, b, o, l) -> null);
        } catch (MalformedAvroException e) {
            assertThat(e.offset()).isBetween(0, bytes.length);
        }
    }

    @Test
    void namesWhatIsMalformedAndWhere() {
        Schema schema = SchemaBuilder.record("R")
                .fields()
                .requiredString("a")
                .name("u")
                .type()
                .unionOf()
                .nullType()
                .and()
                .stringType()
                .endUnion()
                .nullDefault()
                .requiredBoolean("b")
                .endRecord();
        SchemaWalker walker = SchemaWalker.of(schema);

        assertMalformed(walker, bytes(0x01), 0, "a", "negative length -1");
        assertMalformed(walker, bytes(0x08, 'x'), 0, "a", "length 4 with 1 bytes left");
        assertMalformed(walker, bytes(0x02, 'x', 0x04), 2, "u", "union branch 2 of 2");
        assertMalformed(walker, bytes(0x02, 'x', 0x00, 0x02), 3, "b", "boolean byte 2, not 0 or 1");
        assertMalformed(walker, bytes(0x02, 'x', 0x00, 0x01, 0x00), 4, "", "1 bytes after the end of the datum");
        assertMalformed(
                walker, bytes(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01), 0, "a", "long varint");
    }

    @Test
    void refusesAHugeBlockCountWithoutLooping() {
        Schema schema = SchemaBuilder.array().items().stringType();
        // count 2^40 items, 0 bytes left for them
        assertMalformed(SchemaWalker.of(schema), bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x40), 0, "", "block of");
    }

    @Test
    void fixesTheByteSizeOfSizedBlocks() {
        Schema schema = SchemaBuilder.array().items().stringType();
        // A sized block (count -2, 4 bytes) of "a" and "b", then the end of the array.
        byte[] bytes = bytes(0x03, 0x08, 0x02, 'a', 0x02, 'b', 0x00);
        byte[] out = SchemaWalker.of(schema).walk(bytes, 0, bytes.length, (p, b, o, l) -> "xyz".getBytes());

        assertThat(out).isEqualTo(bytes(0x04, 0x06, 'x', 'y', 'z', 0x06, 'x', 'y', 'z', 0x00));
        assertThat(AvroData.read(schema, out, 0)).isEqualTo(List.of(new Utf8("xyz"), new Utf8("xyz")));
    }

    @Test
    void avroItselfTurnsIllFormedStringsIntoReplacementCharactersWithoutAWord() {
        // What this module exists for: Avro's reader decodes ED A0 80 (a CESU-8 surrogate half)
        // into one U+FFFD when the string is used (with the JDK's decoder, so not even one per
        // maximal subpart), and says nothing; the walker sees the bytes.
        Schema schema =
                SchemaBuilder.record("R").fields().requiredString("name").endRecord();
        GenericRecord record = new GenericData.Record(schema);
        byte[] illFormed = bytes('a', 0xED, 0xA0, 0x80, 'b');
        record.put("name", new Utf8(illFormed));
        byte[] bytes = AvroData.write(schema, record, false);

        GenericRecord read = (GenericRecord) AvroData.read(schema, bytes, 0);

        assertThat(read.get("name").toString()).isEqualTo("a\uFFFDb");
        assertThat(walked(SchemaWalker.of(schema), bytes)).containsExactly(new Str("name", illFormed));
    }

    private static void assertMalformed(SchemaWalker walker, byte[] bytes, int offset, String field, String reason) {
        assertThatThrownBy(() -> walker.walk(bytes, 0, bytes.length, (p, b, o, l) -> null))
                .isInstanceOfSatisfying(MalformedAvroException.class, e -> {
                    assertThat(e.offset()).isEqualTo(offset);
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).contains(reason);
                });
    }

    /** Any bytes at all, often ill-formed: ASCII, stray continuations, CESU-8, Latin-1. */
    private static byte[] anyBytes(Random random) {
        byte[] b = new byte[random.nextInt(8)];
        random.nextBytes(b);
        return random.nextInt(3) == 0 ? AvroData.wellFormed(random) : b;
    }

    private static byte[] longer(byte[] s) {
        byte[] out = Arrays.copyOf(s, s.length + 3);
        out[s.length] = '!';
        out[s.length + 1] = '!';
        out[s.length + 2] = '!';
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    // A hang guard, not a performance assertion: a walker that compiled a named type once per
    // path to it would take 20^39 steps.
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void namedTypesFormingADiamondCompileOnceEach() {
        // 40 levels of 20 records, each with a field of every record of the level below.
        List<Schema> below = List.of();
        for (int l = 39; l >= 0; l--) {
            List<Schema> level = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                List<Schema.Field> fields = new ArrayList<>();
                for (int j = 0; j < below.size(); j++) {
                    fields.add(new Schema.Field(
                            "f" + j, Schema.createUnion(Schema.create(Schema.Type.NULL), below.get(j))));
                }
                fields.add(new Schema.Field("text", Schema.create(Schema.Type.STRING)));
                level.add(Schema.createRecord("l" + l + "x" + i, null, null, false, fields));
            }
            below = level;
        }
        Schema top = below.get(0);
        GenericRecord datum = new GenericData.Record(top);
        GenericRecord inner =
                new GenericData.Record(top.getField("f3").schema().getTypes().get(1));
        inner.put("text", new Utf8("caf\u00e9"));
        datum.put("f3", inner);
        datum.put("text", new Utf8("top"));
        byte[] bytes = AvroData.write(top, datum, false);

        List<Str> seen = walked(SchemaWalker.of(top), bytes);

        assertThat(seen).extracting(Str::path).containsExactly("f3.text", "text");
        assertThat(new String(seen.get(0).bytes(), StandardCharsets.UTF_8)).isEqualTo("caf\u00e9");
    }
}
