package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** A fix never makes two keys of an Avro map equal, which every reader would resolve by dropping one. */
class AvroKeyCollisionTest {
    private static final Schema TAGS = SchemaBuilder.record("Tagged")
            .fields()
            .name("tags")
            .type()
            .map()
            .values()
            .intType()
            .noDefault()
            .endRecord();

    private final MapSchemaRegistry registry = new MapSchemaRegistry().with(1, TAGS);

    private Decision<RecordParts> decide(Policy policy, byte[] value) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new AvroFormat(registry), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    /** {@code {tags: {key: index}}} in the wire format, one block, keys as given. */
    private static byte[] tagged(byte[]... keys) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(WireFormat.prefix(1));
        out.write(2 * keys.length);
        for (int i = 0; i < keys.length; i++) {
            out.write(2 * keys[i].length);
            out.writeBytes(keys[i]);
            out.write(2 * i);
        }
        out.write(0);
        return out.toByteArray();
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    @Test
    void twoKeysThatBothBecomeTheSameAreRejectedUnderTheirRule() {
        byte[] value = tagged(bytes('a', 0xED, 0xA0, 0x80), bytes('a', 0xED, 0xB0, 0x80));

        Decision<RecordParts> decision = decide(Policy.REPLACE, value);

        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        Decision.DeadLetter<?> dead = (Decision.DeadLetter<?>) decision;
        assertThat(DeadLetterAnnotation.message(dead.first()))
                .isEqualTo(
                        "SURROGATE at value field tags{} byte 14 (ED B0 80); keys would collide at tags{} once fixed");
    }

    @Test
    void aKeyFixedIntoOneThatCameWellFormedIsRejectedNamingTheFixedOne() {
        byte[] value = tagged(bytes('a', 0xEF, 0xBF, 0xBD), bytes('a', 0xFF));

        Decision.DeadLetter<?> dead = (Decision.DeadLetter<?>) decide(Policy.REPLACE, value);

        assertThat(dead.rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
        // 5 prefix bytes, the count, the first key's length, its 4 bytes, its value, the second key's
        // length, then "a": FF at 14.
        assertThat(dead.first().offset()).isEqualTo(14);
        assertThat(dead.first().field()).contains("tags{}");
    }

    @Test
    void aRepairedKeyThatEqualsALaterOneIsRejectedNamingTheRepairedOne() {
        byte[] value = tagged(bytes('a', 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80), bytes('a', 0xF0, 0x9F, 0x98, 0x80));

        Decision.DeadLetter<?> dead = (Decision.DeadLetter<?>) decide(Policy.REPAIR, value);

        assertThat(dead.rule()).isEqualTo(DeadLetterRule.SURROGATE);
        assertThat(dead.first().offset()).isEqualTo(8);
        assertThat(decide(Policy.REPLACE, value)).isInstanceOf(Decision.Changed.class);
    }

    @Test
    void keysEqualAsTheyCameAreNotTheFixsDoing() {
        byte[] value = tagged(bytes('a'), bytes('a'), bytes('b', 0xFF));

        assertThat(decide(Policy.REPLACE, value)).isInstanceOf(Decision.Changed.class);
    }

    private static final byte[][] PIECES = {
        bytes('a'),
        bytes(0xED, 0xA0, 0x80),
        bytes(0xED, 0xB0, 0x80),
        bytes(0xFF),
        bytes(0xEF, 0xBF, 0xBD),
        bytes(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80),
        bytes(0xF0, 0x9F, 0x98, 0x80),
        bytes(0xC0, 0x80),
        bytes(0),
    };

    /**
     * Avro's own reader is the oracle: a fixed map it reads has as many entries as went in. The
     * binary is written here: Avro's writer turns a map key into a Java string, which would already
     * have replaced its ill-formed bytes.
     */
    @Property(tries = 1000)
    void aFixedMapNeverHasFewerEntriesThanItCameWith(@ForAll long seed) {
        Random random = new Random(seed);
        Set<String> spellings = new LinkedHashSet<>(); // distinct as bytes
        List<byte[]> keys = new ArrayList<>();
        for (int i = random.nextInt(6); i >= 0; i--) {
            ByteArrayOutputStream key = new ByteArrayOutputStream();
            for (int k = 1 + random.nextInt(3); k > 0; k--) {
                key.writeBytes(PIECES[random.nextInt(PIECES.length)]);
            }
            if (spellings.add(HexFormat.of().formatHex(key.toByteArray()))) {
                keys.add(key.toByteArray());
            }
        }
        byte[] value = tagged(keys.toArray(byte[][]::new));
        Policy policy = random.nextBoolean() ? Policy.REPLACE : Policy.REPAIR;

        Decision<RecordParts> decision = decide(policy, value);

        if (decision instanceof Decision.DeadLetter<?> dead) {
            assertThat(DeadLetterAnnotation.message(dead.first()))
                    .endsWith("; keys would collide at tags{} once fixed");
            return;
        }
        byte[] fixed = decision instanceof Decision.Changed<RecordParts> changed
                ? changed.fixed().value()
                : value;
        GenericRecord read = (GenericRecord) AvroData.read(TAGS, fixed, 5);
        assertThat((Map<?, ?>) read.get("tags")).hasSize(keys.size());
    }
}
