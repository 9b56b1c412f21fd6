package dev.utf8sanitiser.serdes.avro;

import static dev.utf8sanitiser.serdes.avro.SchemaWalkerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.registry.RegistryUnavailableException;
import dev.utf8sanitiser.serdes.avro.AvroData.Str;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class AvroFormatTest {
    private static final Schema PERSON = SchemaBuilder.record("Person")
            .fields()
            .requiredString("name")
            .name("address")
            .type(SchemaBuilder.record("Address")
                    .fields()
                    .requiredString("city")
                    .endRecord())
            .noDefault()
            .endRecord();

    private final MapSchemaRegistry registry =
            new MapSchemaRegistry().with(1, PERSON).with(2, AvroData.ORDER).withOther(3, "PROTOBUF");

    private Decision<RecordParts> decide(Policy policy, byte[] value) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new AvroFormat(registry), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    private static byte[] person(byte[] name, byte[] city) {
        GenericRecord address =
                new GenericData.Record(PERSON.getField("address").schema());
        address.put("city", new Utf8(city));
        GenericRecord person = new GenericData.Record(PERSON);
        person.put("name", new Utf8(name));
        person.put("address", address);
        return wire(1, AvroData.write(PERSON, person, false));
    }

    private static byte[] wire(int id, byte[] binary) {
        byte[] out = Arrays.copyOf(WireFormat.prefix(id), 5 + binary.length);
        System.arraycopy(binary, 0, out, 5, binary.length);
        return out;
    }

    @Test
    void passesWellFormedRecordsAndAsksTheRegistryOncePerId() {
        byte[] value = person(utf8("Zoë"), utf8("Łódź"));
        for (int i = 0; i < 3; i++) {
            assertThat(decide(Policy.STRICT, value)).isInstanceOf(Decision.Pass.class);
        }
        assertThat(registry.lookups).hasValue(3); // one per RecordSanitiser, that is per AvroFormat
        AvroFormat format = new AvroFormat(registry);
        RecordSanitiser sanitiser = new RecordSanitiser(Policy.STRICT, ContentPolicy.none(), format, false, List.of());
        for (int i = 0; i < 3; i++) {
            sanitiser.decide(null, value, new RecordHeaders());
        }
        assertThat(registry.lookups).hasValue(4);
    }

    @Test
    void namesTheFieldAndCountsTheOffsetFromTheWirePrefix() {
        byte[] value = person(utf8("Ann"), bytes('B', 'e', 0xED, 0xA0, 0x80, 'n'));

        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decide(Policy.STRICT, value);

        // 5 prefix bytes, 1 length + "Ann", 1 length + "Be": ED at 5 + 4 + 1 + 2 = 12.
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.SURROGATE);
        assertThat(dead.first().field()).contains("address.city");
        assertThat(dead.first().offset()).isEqualTo(12);
        assertThat(value[12] & 0xFF).isEqualTo(0xED);
        assertThat(dead.errors()).isEqualTo(3);
        assertThat(DeadLetterAnnotation.message(dead.first()))
                .isEqualTo("SURROGATE at value field address.city byte 12 (ED A0 80)");
        assertThat(new DeadLetterAnnotation(8).context(dead.first()))
                .as("the bracket stops at the string's end")
                .isEqualTo("01 06 41 6E 6E 0C 42 65 [ED A0 80] 6E");
    }

    @Test
    void replacesInsideTheBinaryUnderTheSameSchemaId() {
        byte[] value = person(bytes('A', 0xC0, 0xAF), bytes('B', 0xED, 0xA0, 0x80));

        Decision.Changed<RecordParts> changed = (Decision.Changed<RecordParts>) decide(Policy.REPLACE, value);

        assertThat(Arrays.copyOf(changed.fixed().value(), 5)).isEqualTo(WireFormat.prefix(1));
        GenericRecord read =
                (GenericRecord) AvroData.read(PERSON, changed.fixed().value(), 5);
        assertThat(read.get("name").toString()).isEqualTo("A\uFFFD\uFFFD");
        assertThat(((GenericRecord) read.get("address")).get("city").toString()).isEqualTo("B\uFFFD\uFFFD\uFFFD");
        assertThat(changed.errors()).isEqualTo(5);
        assertThat(changed.outcome().label()).isEqualTo("replaced");
    }

    @Test
    void repairsCesu8InsideTheBinary() {
        // U+1F600 as CESU-8: ED A0 BD ED B8 80
        byte[] value = person(bytes(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80), utf8("x"));

        Decision.Changed<RecordParts> changed = (Decision.Changed<RecordParts>) decide(Policy.REPAIR, value);

        GenericRecord read =
                (GenericRecord) AvroData.read(PERSON, changed.fixed().value(), 5);
        assertThat(read.get("name").toString()).isEqualTo("😀");
        assertThat(changed.outcome().label()).isEqualTo("repaired");
    }

    @Test
    void recordLevelRules() {
        assertRule(bytes(), DeadLetterRule.NOT_AVRO, 0);
        assertRule(bytes(0, 0, 0, 1), DeadLetterRule.NOT_AVRO, 0);
        assertRule(utf8("{\"json\":true}"), DeadLetterRule.NOT_AVRO, 0);
        assertRule(wire(99, bytes(0x02, 'a')), DeadLetterRule.UNKNOWN_SCHEMA, 1);
        assertRule(wire(3, bytes(0x02, 'a')), DeadLetterRule.NOT_AVRO, 1);
        // The name says 4 bytes follow; one does.
        assertRule(wire(1, bytes(0x08, 'a')), DeadLetterRule.MALFORMED_AVRO, 5);
        // Well-formed strings, then a byte too many.
        assertRule(wire(1, bytes(0x02, 'a', 0x02, 'b', 0x00)), DeadLetterRule.MALFORMED_AVRO, 9);
    }

    @Test
    void malformedBinaryWinsOverEarlierUtf8ErrorsUnderEveryPolicy() {
        for (Policy policy : Policy.values()) {
            // An ill-formed name, then a city whose length runs past the end.
            byte[] value = wire(1, bytes(0x02, 0xFF, 0x08, 'a'));
            Decision.DeadLetter dead = (Decision.DeadLetter<?>) decide(policy, value);
            assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
            assertThat(dead.first().field()).contains("address.city");
            assertThat(dead.errors()).isEqualTo(2);
        }
    }

    @Test
    void anUnreachableRegistryIsNeverAVerdict() {
        registry.down = true;
        assertThatThrownBy(() -> decide(Policy.STRICT, person(utf8("a"), utf8("b"))))
                .isInstanceOf(RegistryUnavailableException.class);
    }

    @Test
    void contentRulesApplyToEachString() {
        byte[] value = person(utf8("Ann"), utf8("B\u0000n"));
        Decision<RecordParts> decision = new RecordSanitiser(
                        Policy.STRICT,
                        ContentPolicy.of(ContentRules.parse("NUL:reject")),
                        new AvroFormat(registry),
                        false,
                        List.of())
                .decide(null, value, new RecordHeaders());

        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decision;
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.NUL);
        assertThat(dead.first().field()).contains("address.city");
        assertThat(dead.first().offset()).isEqualTo(5 + 4 + 1 + 1);

        Decision<RecordParts> stripped = new RecordSanitiser(
                        Policy.STRICT,
                        ContentPolicy.of(ContentRules.parse("NUL:strip")),
                        new AvroFormat(registry),
                        false,
                        List.of())
                .decide(null, value, new RecordHeaders());
        GenericRecord read = (GenericRecord) AvroData.read(
                PERSON, ((Decision.Changed<RecordParts>) stripped).fixed().value(), 5);
        assertThat(((GenericRecord) read.get("address")).get("city").toString()).isEqualTo("Bn");
    }

    /**
     * Random orders with random bytes in their strings: the verdict is the first ill-formed string
     * in Avro's order, with the core's rule, the offset in the stored value and that string's path;
     * the error count is the sum over all strings; under replace, Avro reads back exactly what the
     * core's replacement makes of each string.
     */
    @Property(tries = 300)
    void agreesWithTheCoreStringByString(@ForAll long seed) {
        Random random = new Random(seed);
        Object order = AvroData.random(AvroData.ORDER, random, AvroFormatTest::sometimesIllFormed, 0);
        List<Str> strings = AvroData.strings(AvroData.ORDER, order);
        byte[] value = wire(2, AvroData.write(AvroData.ORDER, order, random.nextBoolean()));

        int errors = strings.stream()
                .mapToInt(s -> Utf8Validator.errors(s.bytes()).size())
                .sum();
        Decision<RecordParts> strict = decide(Policy.STRICT, value);
        if (errors == 0) {
            assertThat(strict).isInstanceOf(Decision.Pass.class);
            return;
        }
        Str bad = strings.stream()
                .filter(s -> !Utf8Validator.isWellFormed(s.bytes()))
                .findFirst()
                .orElseThrow();
        Utf8Error error = Utf8Validator.firstError(bad.bytes()).orElseThrow();
        Decision.DeadLetter dead = (Decision.DeadLetter<?>) strict;
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.of(error.rule()));
        assertThat(dead.first().field().orElse("")).isEqualTo(bad.path());
        assertThat(dead.errors()).isEqualTo(errors);
        int at = (int) dead.first().offset();
        assertThat(Arrays.copyOfRange(value, at - (int) error.offset(), at - (int) error.offset() + bad.bytes().length))
                .as("the offset points into the stored string")
                .isEqualTo(bad.bytes());

        Decision.Changed<RecordParts> replaced = (Decision.Changed<RecordParts>) decide(Policy.REPLACE, value);
        Object read = AvroData.read(AvroData.ORDER, replaced.fixed().value(), 5);
        Object expected = AvroData.mapStrings(
                AvroData.ORDER, order, s -> dev.utf8sanitiser.core.Utf8Sanitiser.sanitise(s, Policy.REPLACE)
                        .output());
        assertThat(AvroData.canonical(AvroData.ORDER, read)).isEqualTo(AvroData.canonical(AvroData.ORDER, expected));
    }

    private void assertRule(byte[] value, DeadLetterRule rule, int offset) {
        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decide(Policy.REPLACE, value);
        assertThat(dead.first().rule()).as(Arrays.toString(value)).isEqualTo(rule);
        assertThat(dead.first().offset()).isEqualTo(offset);
    }

    private static byte[] sometimesIllFormed(Random random) {
        if (random.nextInt(8) != 0) {
            return AvroData.wellFormed(random);
        }
        byte[] b = new byte[1 + random.nextInt(5)];
        random.nextBytes(b);
        return b;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
