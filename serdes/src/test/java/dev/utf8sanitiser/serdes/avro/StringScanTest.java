package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * The walker's fast scan ({@link StringScan}) against the walker itself, the oracle: the scan must
 * accept exactly the values the walker accepts, and leave for the one validation a view of the
 * value in which every byte of the walker's strings is kept and every other byte is ASCII (blanked
 * where it was not); it may leave a value to the walker only when the value nests deeper than
 * {@link StringScan#MAX_DEPTH}, which Avro's own reading of the value measures.
 */
class StringScanTest {
    private static final SchemaWalker ORDER = SchemaWalker.of(AvroData.ORDER);
    private static final SchemaWalker TREE = SchemaWalker.of(AvroRecursiveFuzzTest.TREE);

    /** A record wider than a record laid out in line may be, inside one that is not. */
    private static final Schema WIDE = wide();

    /** Arrays of items that take no bytes, and fixed-size runs that merge into one skip. */
    private static final Schema EMPTY_ITEMS = new Schema.Parser()
            .parse(
                    """
                    {"type": "record", "name": "E", "fields": [
                      {"name": "nulls", "type": {"type": "array", "items": "null"}},
                      {"name": "nothing", "type": {"type": "array", "items":
                        {"type": "record", "name": "Nothing", "fields": [
                          {"name": "zero", "type": {"type": "fixed", "name": "Zero", "size": 0}}]}}},
                      {"name": "d", "type": "double"},
                      {"name": "f", "type": "float"},
                      {"name": "pair", "type": {"type": "record", "name": "Pair", "fields": [
                        {"name": "a", "type": {"type": "fixed", "name": "Three", "size": 3}},
                        {"name": "b", "type": "double"}]}},
                      {"name": "s", "type": "string"},
                      {"name": "flag", "type": "boolean"},
                      {"name": "e", "type": {"type": "enum", "name": "AB", "symbols": ["A", "B"]}},
                      {"name": "m", "type": {"type": "map", "values": ["null", "Nothing", "string"]}}
                    ]}
                    """);

    @Property(tries = 300)
    void scansEveryOrderAvroWritesAsTheWalkerWalksIt(@ForAll long seed, @ForAll boolean blocking) {
        Random random = new Random(seed);
        Object order = AvroData.random(AvroData.ORDER, random, StringScanTest::anyBytes, 0);
        byte[] bytes = AvroData.write(AvroData.ORDER, order, blocking);

        assertThat(agree(AvroData.ORDER, ORDER, bytes)).isTrue();
    }

    @Property(tries = 1000)
    void acceptsACorruptOrderExactlyWhenTheWalkerDoes(@ForAll long seed) {
        Random random = new Random(seed);
        Object order = AvroData.random(AvroData.ORDER, random, AvroData::wellFormed, 0);
        byte[] bytes = AvroData.write(AvroData.ORDER, order, random.nextBoolean());
        for (int i = 0; i < 1 + random.nextInt(3); i++) {
            corrupt(bytes, random);
        }
        int cut = random.nextInt(4) == 0 ? random.nextInt(bytes.length + 1) : bytes.length;

        agree(AvroData.ORDER, ORDER, Arrays.copyOf(bytes, cut));
    }

    @Property(tries = 1000)
    void acceptsAnyBytesUnderARecursiveSchemaExactlyWhenTheWalkerDoes(@ForAll @Size(max = 64) byte[] bytes) {
        agree(AvroRecursiveFuzzTest.TREE, TREE, bytes);
    }

    @Property(tries = 300)
    void acceptsRandomRecordsOfEveryOtherShapeAsTheWalkerDoes(@ForAll long seed, @ForAll boolean blocking) {
        Random random = new Random(seed);
        for (Schema schema : List.of(WIDE, EMPTY_ITEMS, AvroRecursiveFuzzTest.TREE)) {
            SchemaWalker walker = SchemaWalker.of(schema);
            byte[] bytes = AvroData.write(schema, AvroData.random(schema, random, AvroData::wellFormed, 0), blocking);
            assertThat(agree(schema, walker, bytes)).isTrue();
            corrupt(bytes, random);
            agree(schema, walker, bytes);
        }
    }

    @Test
    void leavesValuesDeeperThanItsLimitToTheWalker() {
        SchemaWalker list = SchemaWalker.of(HostileAvroTest.LIST);
        // Node n of the list is nested n deep.
        for (int nodes : new int[] {1, StringScan.MAX_DEPTH - 1, StringScan.MAX_DEPTH}) {
            assertThat(scanned(list, unprefixed(HostileAvroTest.list(nodes, new byte[] {'x'}))))
                    .as("%d nodes", nodes)
                    .isNotNull();
        }
        for (int nodes : new int[] {StringScan.MAX_DEPTH + 1, SchemaWalker.MAX_DEPTH}) {
            byte[] value = unprefixed(HostileAvroTest.list(nodes, new byte[] {'x'}));
            assertThat(scanned(list, value)).as("%d nodes", nodes).isNull();
            assertThat(walked(list, value)).as("%d nodes", nodes).isNotNull();
        }
    }

    @Test
    void refusesVarintsAndEmptyItemsBeyondTheWalkersLimits() {
        Schema numbers = SchemaBuilder.record("N")
                .fields()
                .requiredInt("i")
                .requiredLong("l")
                .endRecord();
        SchemaWalker walker = SchemaWalker.of(numbers);
        // An int of 5 bytes and of 6, one above 32 bits; a long of 10 bytes and of 11, one above 64.
        assertThat(agree(numbers, walker, SchemaWalkerTest.bytes(0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0)))
                .isTrue();
        assertThat(agree(numbers, walker, SchemaWalkerTest.bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0, 0)))
                .isFalse();
        assertThat(agree(numbers, walker, SchemaWalkerTest.bytes(0xFE, 0xFF, 0xFF, 0xFF, 0x1F, 0)))
                .isFalse();
        byte[] longest = SchemaWalkerTest.bytes(0, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01);
        assertThat(agree(numbers, walker, longest)).isTrue();
        longest[10] = 0x02;
        assertThat(agree(numbers, walker, longest)).isFalse();
        assertThat(agree(
                        numbers,
                        walker,
                        SchemaWalkerTest.bytes(0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0)))
                .isFalse();

        // Items that take no bytes: up to the limit across blocks, and one more.
        Schema nulls = SchemaBuilder.array().items().nullType();
        SchemaWalker nullWalker = SchemaWalker.of(nulls);
        int half = SchemaWalker.MAX_EMPTY_ITEMS / 2;
        assertThat(agree(
                        nulls,
                        nullWalker,
                        unprefixed(new AvroBinary(3)
                                .varint(half)
                                .varint(half)
                                .varint(0)
                                .bytes())))
                .isTrue();
        assertThat(agree(
                        nulls,
                        nullWalker,
                        unprefixed(new AvroBinary(3)
                                .varint(half)
                                .varint(half + 1)
                                .varint(0)
                                .bytes())))
                .isFalse();
    }

    @Test
    void readsLengthsOfOneTwoAndThreeBytesAndRefusesTooLongOrNegativeOnes() {
        Schema pair = SchemaBuilder.record("P")
                .fields()
                .requiredString("a")
                .requiredString("b")
                .endRecord();
        SchemaWalker walker = SchemaWalker.of(pair);
        for (int length : new int[] {0, 1, 63, 64, 65, 8191, 8192, 20_000}) {
            byte[] text = new byte[length];
            Arrays.fill(text, (byte) 0xE3); // not a string to validate, only bytes to keep
            byte[] value = unprefixed(new AvroBinary(3)
                    .string(text)
                    .string("b".getBytes(StandardCharsets.UTF_8))
                    .bytes());
            assertThat(agree(pair, walker, value)).as("length %d", length).isTrue();
            // One byte short: the second string's length now claims a byte more than is left.
            assertThat(agree(pair, walker, Arrays.copyOf(value, value.length - 1)))
                    .as("length %d, cut", length)
                    .isFalse();
        }
        // Negative lengths, in one byte (-1) and in two (-65), with bytes enough after them for
        // their magnitude read as a length.
        assertThat(agree(pair, walker, SchemaWalkerTest.bytes(0x01, 0x00))).isFalse();
        byte[] twoBytes = new byte[2 + 64 + 1];
        Arrays.fill(twoBytes, (byte) 'x');
        twoBytes[0] = (byte) 0x81;
        twoBytes[1] = 0x01;
        twoBytes[twoBytes.length - 1] = 0x00;
        assertThat(agree(pair, walker, twoBytes)).isFalse();
        twoBytes[0] = (byte) 0x80; // +64
        assertThat(agree(pair, walker, twoBytes)).isTrue();
    }

    @Test
    void aLongBytesValueBetweenStringsIsLeftOutOfTheOneValidation() {
        Schema blob = SchemaBuilder.record("B")
                .fields()
                .requiredString("a")
                .requiredBytes("blob")
                .requiredString("b")
                .endRecord();
        SchemaWalker walker = SchemaWalker.of(blob);
        byte[] large = new byte[StringBatch.LONG_RANGE + 100];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (0x80 + i % 64); // starts with 0x80: it would complete a cut sequence
        }
        byte[] cut = SchemaWalkerTest.bytes('x', 0xE2, 0x82);
        byte[] whole = SchemaWalkerTest.bytes('x', 0xE2, 0x82, 0xAC);
        for (byte[] a : List.of(cut, whole)) {
            for (int size : new int[] {StringBatch.LONG_RANGE - 1, StringBatch.LONG_RANGE, large.length}) {
                byte[] value = new AvroBinary(3)
                        .string(a)
                        .string(Arrays.copyOf(large, size)) // bytes are written as strings are
                        .string(whole)
                        .bytes();
                value = unprefixed(value);
                assertThat(agree(blob, walker, value)).as("%d bytes", size).isTrue();
                StringBatch batch = new StringBatch();
                batch.start(value, 0, value.length);
                assertThat(walker.scan(value, 0, value.length, batch)).isTrue();
                assertThat(batch.allWellFormed())
                        .as("%d bytes after %s", size, a == cut ? "a cut string" : "a whole one")
                        .isEqualTo(a == whole);
            }
        }
    }

    @Test
    void aRecordTooWideToLayOutInLineIsCalledAndStillScanned() {
        Random random = new Random(3);
        GenericRecord outer = (GenericRecord) AvroData.random(WIDE, random, AvroData::wellFormed, 0);
        byte[] bytes = AvroData.write(WIDE, outer, false);

        assertThat(agree(WIDE, SchemaWalker.of(WIDE), bytes)).isTrue();
    }

    /**
     * Checks the scan against the walker on {@code input}.
     *
     * @return whether the scan accepted it
     */
    static boolean agree(Schema schema, SchemaWalker walker, byte[] input) {
        byte[] scanned = scanned(walker, input);
        boolean[] inStrings = walked(walker, input);
        if (scanned != null) {
            assertThat(inStrings).as("the walker on a value the scan accepted").isNotNull();
            assertThat(scanned).as("the view's length").hasSameSizeAs(input);
            for (int i = 0; i < input.length; i++) {
                if (inStrings[i]) {
                    assertThat(scanned[i]).as("string byte %d, kept", i).isEqualTo(input[i]);
                } else {
                    assertThat(scanned[i])
                            .as("byte %d, outside the strings, ASCII", i)
                            .isNotNegative();
                }
            }
        } else if (inStrings != null) {
            Object datum = AvroAgreement.read(schema, input).datum();
            assertThat(depth(schema, datum))
                    .as("the depth of a value the walker accepted and the scan left to it")
                    .isGreaterThan(StringScan.MAX_DEPTH);
        }
        return scanned != null;
    }

    /**
     * The value as the batch's one validation sees it after the scan (strings kept, the bytes
     * between them blanked where not ASCII); null when the scan left the value to the walker.
     */
    private static byte[] scanned(SchemaWalker walker, byte[] input) {
        StringBatch batch = new StringBatch();
        batch.start(input, 0, input.length);
        return walker.scan(input, 0, input.length, batch) ? batch.view() : null;
    }

    /** Which bytes of the value are in the walker's strings; null when it found the value malformed. */
    private static boolean[] walked(SchemaWalker walker, byte[] input) {
        boolean[] inStrings = new boolean[input.length];
        try {
            walker.walk(input, 0, input.length, (path, bytes, offset, length) -> {
                Arrays.fill(inStrings, offset, offset + length, true);
                return null;
            });
        } catch (MalformedAvroException e) {
            return null;
        }
        return inStrings;
    }

    /** How deep a datum nests, counting records, arrays and maps as the walker does. */
    private static int depth(Schema schema, Object datum) {
        return switch (schema.getType()) {
            case RECORD ->
                1
                        + schema.getFields().stream()
                                .mapToInt(f -> depth(f.schema(), ((GenericRecord) datum).get(f.pos())))
                                .max()
                                .orElse(0);
            case ARRAY ->
                1
                        + ((Collection<?>) datum)
                                .stream()
                                        .mapToInt(item -> depth(schema.getElementType(), item))
                                        .max()
                                        .orElse(0);
            case MAP ->
                1
                        + ((Map<?, ?>) datum)
                                .values().stream()
                                        .mapToInt(value -> depth(schema.getValueType(), value))
                                        .max()
                                        .orElse(0);
            case UNION -> depth(schema.getTypes().get(GenericData.get().resolveUnion(schema, datum)), datum);
            default -> 0;
        };
    }

    private static Schema wide() {
        SchemaBuilder.FieldAssembler<Schema> fields =
                SchemaBuilder.record("Wide").fields();
        for (int i = 0; i < 120; i++) {
            fields = i % 3 == 0 ? fields.requiredString("s" + i) : fields.requiredLong("n" + i);
        }
        Schema wide = fields.endRecord();
        return SchemaBuilder.record("Outer")
                .fields()
                .name("first")
                .type(wide)
                .noDefault()
                .requiredString("between")
                .name("second")
                .type(wide)
                .noDefault()
                .endRecord();
    }

    /**
     * Changes one byte, half the time to a small value: a union branch, an enum index, a count or a
     * length just out of range is what the scan must refuse as the walker does.
     */
    private static void corrupt(byte[] bytes, Random random) {
        if (bytes.length > 0) {
            bytes[random.nextInt(bytes.length)] =
                    (byte) (random.nextBoolean() ? random.nextInt(10) : random.nextInt(256));
        }
    }

    private static byte[] unprefixed(byte[] value) {
        return Arrays.copyOfRange(value, WireFormat.PREFIX_LENGTH, value.length);
    }

    private static byte[] anyBytes(Random random) {
        byte[] b = new byte[random.nextInt(8)];
        random.nextBytes(b);
        return random.nextInt(3) == 0 ? AvroData.wellFormed(random) : b;
    }
}
