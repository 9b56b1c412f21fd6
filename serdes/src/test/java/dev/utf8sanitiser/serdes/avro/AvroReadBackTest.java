package dev.utf8sanitiser.serdes.avro;

import static dev.utf8sanitiser.serdes.avro.SchemaWalkerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.Schema;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * What the sanitiser passes or fixes, Avro's own reader reads back ({@link AvroReadBack}): no record
 * that Avro cannot read reaches the clean topic. Above all, schemas that hold a type with no finite
 * value (a record that holds only itself): the walker need not read a value of it to accept it (an
 * array declares its items by their count), Avro's readers cannot read one, and its classic reader
 * no value of the schema at all.
 */
class AvroReadBackTest {
    /** {@code R2{xs: array<Z{z: Z}>}}: an array of a type without a finite value, in a record. */
    static final Schema ARRAY_OF_SELF = parse(
            """
            {"type": "record", "name": "R2", "fields": [
              {"name": "xs", "type": {"type": "array", "items":
                {"type": "record", "name": "Z", "fields": [{"name": "z", "type": "Z"}]}}}]}
            """);

    /** A record with a union whose second branch has no finite value, and a map of such values. */
    private static final Schema BRANCHES = parse(
            """
            {"type": "record", "name": "B", "fields": [
              {"name": "s", "type": "string"},
              {"name": "u", "type": ["null",
                {"type": "record", "name": "Loop", "fields": [
                  {"name": "label", "type": "string"}, {"name": "again", "type": "Loop"}]}]},
              {"name": "m", "type": {"type": "map", "values": "Loop"}}]}
            """);

    /** A record that holds, through another record, a record without a finite value. */
    private static final Schema NO_VALUE_AT_ALL = parse(
            """
            {"type": "record", "name": "Top", "fields": [
              {"name": "s", "type": "string"},
              {"name": "inner", "type": {"type": "record", "name": "Inner", "fields": [
                {"name": "top", "type": "Top"}]}}]}
            """);

    private static Schema parse(String json) {
        return new Schema.Parser().parse(json);
    }

    @Test
    void anArrayOfAMillionValuesOfATypeWithoutAFiniteValueIsMalformed() {
        // The review's record: 9 bytes, a block count of 1,000,000 items of Z.
        byte[] value = bytes(0, 0, 0, 0, 1, 0x80, 0x89, 0x7A, 0);
        assertThat(AvroReadBack.failures(ARRAY_OF_SELF, value, WireFormat.PREFIX_LENGTH))
                .as("Avro's readers on it")
                .hasSize(2)
                .allMatch(failure -> failure.endsWith("StackOverflowError"));

        Decision.DeadLetter<?> dead = deadLetter(ARRAY_OF_SELF, value);

        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
        assertThat(dead.first().offset()).isEqualTo(5);
        assertThat(malformed(ARRAY_OF_SELF, Arrays.copyOfRange(value, 5, value.length)))
                .hasMessageContaining("the writer schema holds Z, a type with no finite value");
    }

    @Test
    void noValueOfASchemaHoldingATypeWithoutAFiniteValuePasses() {
        // Values that hold no Z: an empty xs; s = "a", u = null, m = {}. Avro's classic reader
        // cannot read them either: building its grammar for Z recurses without end.
        assertThat(AvroReadBack.failures(ARRAY_OF_SELF, wire(bytes(0)), WireFormat.PREFIX_LENGTH))
                .containsExactly("Avro's classic reader: StackOverflowError");
        byte[] noLoop = bytes(0x02, 'a', 0x00, 0x00);
        assertThat(AvroReadBack.failures(BRANCHES, wire(noLoop), WireFormat.PREFIX_LENGTH))
                .containsExactly("Avro's classic reader: StackOverflowError");

        for (Schema schema : List.of(ARRAY_OF_SELF, BRANCHES, NO_VALUE_AT_ALL)) {
            SchemaWalker walker = SchemaWalker.of(schema);
            for (byte[] binary : List.of(bytes(), bytes(0), noLoop, bytes(0x02, 'a', 0x02, 0x02, 'b', 0x00))) {
                MalformedAvroException e = malformed(schema, binary);
                assertThat(e.offset()).isZero();
                assertThat(e.field()).isEmpty();
                assertThat(e).hasMessageContaining("a type with no finite value");
                assertThat(StringScanTest.agree(schema, walker, binary)).isFalse();

                Decision.DeadLetter<?> dead = deadLetter(schema, wire(binary));
                assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
                assertThat(dead.first().offset()).isEqualTo(5);
            }
        }
        assertThat(malformed(BRANCHES, noLoop)).hasMessageContaining("holds Loop,");
        assertThat(malformed(NO_VALUE_AT_ALL, noLoop)).hasMessageContaining("holds Top,");
    }

    @Test
    void anEnumWithoutSymbolsOrARecordHoldingOneHasNoValue() {
        Schema noSymbols = parse("{\"type\": \"record\", \"name\": \"N\", \"fields\": [{\"name\": \"u\", \"type\":"
                + " [\"null\", {\"type\": \"record\", \"name\": \"H\", \"fields\": [{\"name\": \"e\", \"type\":"
                + " {\"type\": \"enum\", \"name\": \"Empty\", \"symbols\": []}}]}]}]}");
        assertThat(malformed(noSymbols, bytes(0x00))).hasMessageContaining("holds H, a type with no finite value");
        Schema fine = parse("{\"type\": \"record\", \"name\": \"N\", \"fields\": [{\"name\": \"u\", \"type\":"
                + " [\"null\", {\"type\": \"record\", \"name\": \"H\", \"fields\": [{\"name\": \"next\", \"type\":"
                + " \"N\"}]}]}]}");
        assertPassesAndReadsBack(fine, bytes(0x02, 0x02, 0x00));
    }

    @Test
    void itemsWhoseFewestBytesPassAnIntAreNotTakenForItemsOfNoBytes() {
        // 2048 fixed of 1 MiB (the tests' Avro refuses larger ones): their fewest bytes, 2^31, do
        // not fit an int.
        StringBuilder fields = new StringBuilder(
                "{\"name\": \"f0\", \"type\": {\"type\": \"fixed\", \"name\": \"M\"," + " \"size\": 1048576}}");
        for (int i = 1; i < 2048; i++) {
            fields.append(", {\"name\": \"f").append(i).append("\", \"type\": \"M\"}");
        }
        String record = "{\"type\": \"record\", \"name\": \"P\", \"fields\": [" + fields + "]}";
        Schema pairs = parse("{\"type\": \"array\", \"items\": " + record + "}");
        Schema map = parse("{\"type\": \"map\", \"values\": " + record + "}");

        assertThat(malformed(pairs, bytes(0x02, 0x00))).hasMessageContaining("block of 1 items with 1 bytes left");
        assertThat(malformed(map, bytes(0x02, 0x00))).hasMessageContaining("block of 1 items with 1 bytes left");
        StringScanTest.agree(pairs, SchemaWalker.of(pairs), bytes(0x02, 0x00));
        StringScanTest.agree(map, SchemaWalker.of(map), bytes(0x02, 0x00));
    }

    @Test
    void itemsOfNoBytesCountTheValuesAvroBuildsForThem() {
        // A record of 99 nulls: Avro builds the record and a slot for each field, 100 values.
        StringBuilder fields = new StringBuilder();
        for (int i = 0; i < 99; i++) {
            fields.append(i == 0 ? "" : ",").append("{\"name\": \"n").append(i).append("\", \"type\": \"null\"}");
        }
        Schema wide = parse("{\"type\": \"array\", \"items\": {\"type\": \"record\", \"name\": \"W\", \"fields\": ["
                + fields + "]}}");
        int most = SchemaWalker.MAX_EMPTY_ITEMS / 100;
        byte[] atLimit = unprefixed(new AvroBinary(1).varint(most).varint(0).bytes());
        byte[] beyond = unprefixed(new AvroBinary(1).varint(most + 1).varint(0).bytes());

        assertPassesAndReadsBack(wide, atLimit);
        assertThat(malformed(wide, beyond)).hasMessageContaining("values in items that take no bytes");
        assertThat(StringScanTest.agree(wide, SchemaWalker.of(wide), atLimit)).isTrue();
        assertThat(StringScanTest.agree(wide, SchemaWalker.of(wide), beyond)).isFalse();
    }

    @Test
    void itemsOfNoBytesCountTheirNestingAgainstTheDepthLimit() {
        // An array of records nested `levels` deep, none of them taking a byte.
        for (int levels : new int[] {SchemaWalker.MAX_DEPTH - 1, SchemaWalker.MAX_DEPTH}) {
            String item = "\"null\"";
            for (int i = 0; i < levels; i++) {
                item = "{\"type\": \"record\", \"name\": \"L" + i + "\", \"fields\": [{\"name\": \"f\", \"type\": "
                        + item + "}]}";
            }
            Schema deep = parse("{\"type\": \"array\", \"items\": " + item + "}");
            byte[] one = bytes(0x02, 0x00);
            if (levels < SchemaWalker.MAX_DEPTH) {
                assertPassesAndReadsBack(deep, one); // the array is level 1
            } else {
                assertThat(malformed(deep, one)).hasMessageContaining("nested deeper than");
            }
            StringScanTest.agree(deep, SchemaWalker.of(deep), one);
        }
    }

    @Test
    void avroReadsEveryShapeAtTheDepthLimitOnA512KbStackBeforeItIsCompiled() throws Exception {
        // In a JVM of its own, interpreted only: the deepest stack Avro's reader takes.
        Process java = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xint",
                        "-cp",
                        System.getProperty("java.class.path"),
                        DeepReadBack.class.getName())
                .redirectErrorStream(true)
                .start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(java.waitFor()).as(output).isZero();
        // One level deeper is refused by the walker, read or not by Avro.
        DeepReadBack.values(SchemaWalker.MAX_DEPTH + 2).forEach((schema, value) -> assertThat(malformed(schema, value))
                .hasMessageContaining("nested deeper than"));
    }

    @Test
    void aMapWhoseKeysWouldCollideOnceReplacedIsRejectedNotMalformed() {
        // Found by the property: two keys, a lone 0xB0 and a lone 0xAD, both become U+FFFD.
        Schema schema = parse(
                """
                {"type": "record", "name": "R", "fields": [{"name": "f0", "type": {"type": "array",
                  "items": {"type": "map", "values": "long"}}}]}
                """);
        byte[] binary = bytes(0x02, 0x04, 0x02, 0xB0, 0x02, 0x02, 0xAD, 0x04, 0x00, 0x00);

        Decision<RecordParts> decision = check(schema, binary);

        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        Finding first = ((Decision.DeadLetter<RecordParts>) decision).first();
        assertThat(first.rule()).isEqualTo(DeadLetterRule.UNEXPECTED_CONTINUATION);
        assertThat(first.field()).contains("f0[0]{}");

        // The same keys in a value that is malformed further on: malformed describes it.
        byte[] cut = bytes(0x02, 0x04, 0x02, 0xB0, 0x02, 0x02, 0xAD, 0x04, 0x00, 0x00, 0x00);
        Decision<RecordParts> malformed = check(schema, cut);
        assertThat(((Decision.DeadLetter<RecordParts>) malformed).first().rule())
                .isEqualTo(DeadLetterRule.MALFORMED_AVRO);
    }

    /**
     * The differential property: on random schemas (recursive ones and ones with types of no finite
     * value among them) and random, cut and corrupted binary, the sanitiser under replace decides
     * every record without throwing; what it passes or fixes, Avro's readers read back completely
     * on a 512 KB stack; the walker agrees with Avro ({@link AvroAgreement}) and the fast scan with
     * the walker.
     */
    @Property(tries = 120)
    void whatTheSanitiserPassesOrFixesAvroReadsBack(@ForAll long seed) {
        Random random = new Random(seed);
        RandomAvro.Choices choices = RandomAvro.Choices.of(random);
        Schema schema = RandomAvro.schema(choices);
        for (int i = 0; i < 4; i++) {
            check(schema, RandomAvro.value(schema, choices));
        }
    }

    /**
     * One schema and binary: the checks of {@link #whatTheSanitiserPassesOrFixesAvroReadsBack}, for
     * the property and the fuzz target.
     *
     * @return the sanitiser's decision
     */
    static Decision<RecordParts> check(Schema schema, byte[] binary) {
        try {
            return checked(schema, binary);
        } catch (AssertionError e) {
            throw new AssertionError(
                    "schema " + schema + ", binary " + HexFormat.of().formatHex(binary), e);
        }
    }

    private static Decision<RecordParts> checked(Schema schema, byte[] binary) {
        SchemaWalker walker = SchemaWalker.of(schema);
        AvroAgreement.agree(schema, walker, binary);
        StringScanTest.agree(schema, walker, binary);

        byte[] value = wire(binary);
        Decision<RecordParts> decision = sanitiser(schema).decide(null, value, new RecordHeaders());
        if (decision instanceof Decision.Pass<RecordParts>) {
            assertThat(AvroReadBack.failures(schema, value, WireFormat.PREFIX_LENGTH))
                    .as("Avro reading a value that passed, %s", schema)
                    .isEmpty();
        } else if (decision instanceof Decision.Changed<RecordParts> changed) {
            assertThat(AvroReadBack.failures(schema, changed.fixed().value(), WireFormat.PREFIX_LENGTH))
                    .as("Avro reading a fixed value, %s", schema)
                    .isEmpty();
        } else {
            Finding first = ((Decision.DeadLetter<RecordParts>) decision).first();
            if (first.detail()
                    .filter(detail -> detail.startsWith("keys would collide"))
                    .isPresent()) {
                // Rejected because replacing would merge two keys of a map: valid Avro that does.
                assertThat(AvroReadBack.failures(schema, value, WireFormat.PREFIX_LENGTH))
                        .as("Avro reading a value whose keys collide once fixed")
                        .isEmpty();
                assertThat(AvroReadBack.mapKeysCollideOnceDecoded(schema, value, WireFormat.PREFIX_LENGTH))
                        .as("keys of a map equal once decoded with U+FFFD, %s", first)
                        .isTrue();
            } else {
                assertThat(first.rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
            }
        }
        return decision;
    }

    private static RecordSanitiser sanitiser(Schema schema) {
        return new RecordSanitiser(
                Policy.REPLACE,
                ContentPolicy.none(),
                new AvroFormat(new MapSchemaRegistry().with(1, schema)),
                false,
                List.of());
    }

    private static void assertPassesAndReadsBack(Schema schema, byte[] binary) {
        byte[] value = wire(binary);
        assertThat(sanitiser(schema).decide(null, value, new RecordHeaders())).isInstanceOf(Decision.Pass.class);
        assertThat(AvroReadBack.failures(schema, value, WireFormat.PREFIX_LENGTH))
                .isEmpty();
        StringScanTest.agree(schema, SchemaWalker.of(schema), binary);
    }

    private static Decision.DeadLetter<?> deadLetter(Schema schema, byte[] value) {
        Decision<RecordParts> decision = sanitiser(schema).decide(null, value, new RecordHeaders());
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        return (Decision.DeadLetter<?>) decision;
    }

    private static MalformedAvroException malformed(Schema schema, byte[] binary) {
        try {
            SchemaWalker.of(schema).walk(binary, 0, binary.length, (p, b, o, l) -> null);
        } catch (MalformedAvroException e) {
            return e;
        }
        throw new AssertionError("walked without a fault");
    }

    static byte[] wire(byte[] binary) {
        byte[] prefix = WireFormat.prefix(1);
        byte[] value = Arrays.copyOf(prefix, prefix.length + binary.length);
        System.arraycopy(binary, 0, value, prefix.length, binary.length);
        return value;
    }

    private static byte[] unprefixed(byte[] value) {
        return Arrays.copyOfRange(value, WireFormat.PREFIX_LENGTH, value.length);
    }
}
