package dev.utf8sanitiser.serdes.protobuf;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.registry.ProtobufSchemaText;
import dev.utf8sanitiser.serdes.avro.MapSchemaRegistry;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * A fix never makes two keys of one Protobuf map equal: parsers keep the last entry of a key, so
 * the fixed record would lose the other.
 */
class ProtobufKeyCollisionTest {
    static final String DOCS =
            """
            syntax = "proto3";
            package keys;

            message Doc {
              map<string, int32> tags = 1;
              Inner inner = 2;
              repeated Inner items = 3;
              map<string, Inner> nested = 4;
              string note = 5;
              map<int32, Inner> by_number = 6;
            }

            message Inner {
              map<string, int32> tags = 1;
            }
            """;

    private static final FileDescriptor FILE = ProtobufData.file(DOCS);
    private static final Descriptor DOC = FILE.findMessageTypeByName("Doc");

    private final MapSchemaRegistry registry =
            new MapSchemaRegistry().withProtobuf(1, new ProtobufSchemaText(DOCS, Map.of()));

    private Decision<RecordParts> decide(Policy policy, byte[] message) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new ProtobufFormat(registry, false), false, List.of())
                .decide(null, ProtobufData.framed(1, message), new RecordHeaders());
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    /** Field {@code number}, length-delimited, holding {@code payload}. */
    private static byte[] delimited(int number, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(number << 3 | 2);
        varint(out, payload.length);
        out.writeBytes(payload);
        return out.toByteArray();
    }

    private static void varint(ByteArrayOutputStream out, int n) {
        while ((n & ~0x7F) != 0) {
            out.write((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        out.write(n);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** An entry of {@code map<string, int32>} field {@code number}: {@code key: value}. */
    private static byte[] entry(int number, byte[] key, int value) {
        return delimited(number, concat(delimited(1, key), bytes(2 << 3, value)));
    }

    /** Entries of {@code tags}, the values their indexes. */
    private static byte[] tags(byte[]... keys) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < keys.length; i++) {
            out.writeBytes(entry(1, keys[i], i));
        }
        return out.toByteArray();
    }

    private static Decision.DeadLetter<?> deadLetter(Decision<RecordParts> decision) {
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        return (Decision.DeadLetter<?>) decision;
    }

    private static byte[] fixed(Decision<RecordParts> decision) {
        assertThat(decision).isInstanceOf(Decision.Changed.class);
        return ((Decision.Changed<RecordParts>) decision).fixed().value();
    }

    /** The keys of the entries of {@code field}, as protobuf-java parses them: one a parser would keep each. */
    private static Set<String> keys(DynamicMessage message, FieldDescriptor field) {
        Set<String> keys = new HashSet<>();
        for (Object entry : (List<?>) message.getField(field)) {
            DynamicMessage read = (DynamicMessage) entry;
            keys.add((String) read.getField(read.getDescriptorForType().findFieldByNumber(1)));
        }
        return keys;
    }

    private static String fixedKey(byte[] key, Policy policy) {
        return new String(Utf8Sanitiser.sanitise(key, policy).output(), UTF_8);
    }

    @Test
    void twoKeysThatBothBecomeTheSameAreRejectedUnderTheirRule() throws Exception {
        byte[] first = bytes('a', 0xED, 0xA0, 0x80);
        byte[] second = bytes('a', 0xED, 0xB0, 0x80);
        assertThat(fixedKey(first, Policy.REPLACE)).isEqualTo(fixedKey(second, Policy.REPLACE));

        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.REPLACE, tags(first, second)));

        // 5 prefix bytes, 1 index, the first entry (2 + 2 + 4 + 2), the second's tag, length and
        // key tag and length, then "a": ED B0 80 at 21.
        assertThat(DeadLetterAnnotation.message(dead.first()))
                .isEqualTo("SURROGATE at value field tags{} byte 21 (ED B0 80); keys would collide at tags{}"
                        + " once fixed");
        assertThat(dead.first().field()).contains("tags{}");
    }

    @Test
    void aKeyFixedIntoOneThatCameWellFormedIsRejectedNamingTheFixedOne() {
        Decision.DeadLetter<?> dead =
                deadLetter(decide(Policy.REPLACE, tags(bytes('a', 0xEF, 0xBF, 0xBD), bytes('a', 0xFF))));

        assertThat(dead.rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
        // 5 + 1, the first entry 10 bytes, the second's 4 bytes of framing, then "a": FF at 21.
        assertThat(dead.first().offset()).isEqualTo(21);
        assertThat(dead.first().field()).contains("tags{}");
    }

    @Test
    void aRepairedKeyThatEqualsALaterOneIsRejectedNamingTheRepairedOne() {
        byte[] value = tags(bytes('a', 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80), bytes('a', 0xF0, 0x9F, 0x98, 0x80));

        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.REPAIR, value));

        assertThat(dead.rule()).isEqualTo(DeadLetterRule.SURROGATE);
        // 5 + 1, the entry's tag and length, the key's, then "a": ED at 11.
        assertThat(dead.first().offset()).isEqualTo(11);
        assertThat(decide(Policy.REPLACE, value)).isInstanceOf(Decision.Changed.class);
    }

    @Test
    void keysEqualAsTheyCameAreNotTheFixsDoing() {
        assertThat(decide(Policy.REPLACE, tags(bytes('a'), bytes('a'), bytes('b', 0xFF))))
                .isInstanceOf(Decision.Changed.class);
    }

    @Test
    void theKeyOfAnEntryIsItsLastKeyField() throws Exception {
        // The first entry's key is sent twice, "a FF" then "b": parsers keep "b", so the fixed
        // "a U+FFFD" is no key at all and cannot collide with the second entry's.
        byte[] twice = delimited(1, concat(delimited(1, bytes('a', 0xFF)), delimited(1, bytes('b'))));
        byte[] message = concat(twice, entry(1, bytes('a', 0xEF, 0xBF, 0xBD), 1));
        byte[] out = fixed(decide(Policy.REPLACE, message));
        assertThat(keys(ProtobufData.parse(DOC, out), DOC.findFieldByName("tags")))
                .containsExactlyInAnyOrder("b", "a\uFFFD");

        // The other way round the kept key is the fixed one.
        byte[] last = delimited(1, concat(delimited(1, bytes('b')), delimited(1, bytes('a', 0xFF))));
        Decision.DeadLetter<?> dead =
                deadLetter(decide(Policy.REPLACE, concat(last, entry(1, bytes('a', 0xEF, 0xBF, 0xBD), 1))));
        assertThat(dead.rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
        assertThat(dead.first().field()).contains("tags{}");
    }

    @Test
    void entriesApartInTheMessageAreOneMap() {
        byte[] message = concat(
                entry(1, bytes('a', 0xFF), 1), delimited(5, bytes('n')), entry(1, bytes('a', 0xEF, 0xBF, 0xBD), 2));
        assertThat(deadLetter(decide(Policy.REPLACE, message)).first().detail())
                .contains("keys would collide at tags{} once fixed");
    }

    @Test
    void aMessageFieldSentTwiceIsMergedIntoOneMap() throws Exception {
        byte[] inner1 = delimited(2, entry(1, bytes('a', 0xFF), 1));
        byte[] inner2 = delimited(2, entry(1, bytes('a', 0xFE), 2));
        // protobuf-java merges the two: the inner message it reads has both entries.
        DynamicMessage read = ProtobufData.parse(
                DOC,
                ProtobufData.framed(
                        1, concat(delimited(2, entry(1, bytes('a'), 1)), delimited(2, entry(1, bytes('b'), 2)))));
        DynamicMessage inner = (DynamicMessage) read.getField(DOC.findFieldByName("inner"));
        assertThat(keys(inner, inner.getDescriptorForType().findFieldByName("tags")))
                .containsExactlyInAnyOrder("a", "b");

        Decision.DeadLetter<?> dead =
                deadLetter(decide(Policy.REPLACE, concat(inner1, delimited(5, bytes('n')), inner2)));
        assertThat(dead.first().field()).contains("inner.tags{}");
        assertThat(dead.first().detail()).contains("keys would collide at inner.tags{} once fixed");
    }

    @Test
    void mapsOfDifferentMessagesNeverCollide() throws Exception {
        byte[] apart = concat(
                delimited(3, entry(1, bytes('a', 0xFF), 1)),
                delimited(3, entry(1, bytes('a', 0xFE), 2)),
                delimited(4, concat(delimited(1, bytes('k')), delimited(2, entry(1, bytes('a', 0xFF), 1)))),
                delimited(4, concat(delimited(1, bytes('l')), delimited(2, entry(1, bytes('a', 0xFE), 1)))),
                entry(1, bytes('a', 0xFF), 1));
        byte[] out = fixed(decide(Policy.REPLACE, apart));
        DynamicMessage read = ProtobufData.parse(DOC, out);
        assertThat((List<?>) read.getField(DOC.findFieldByName("items"))).hasSize(2);

        byte[] within = concat(
                delimited(3, entry(1, bytes('a'), 1)),
                delimited(3, concat(entry(1, bytes('a', 0xFF), 1), entry(1, bytes('a', 0xFE), 2))));
        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.REPLACE, within));
        assertThat(dead.first().field()).contains("items[1].tags{}");

        byte[] underAMapValue = concat(
                delimited(4, concat(delimited(1, bytes('k')), delimited(2, tags(bytes('a', 0xFF), bytes('a', 0xFE))))));
        assertThat(deadLetter(decide(Policy.REPLACE, underAMapValue)).first().field())
                .contains("nested{k}.tags{}");
        byte[] underAnIntKey =
                delimited(6, concat(bytes(1 << 3, 7), delimited(2, tags(bytes('a', 0xFF), bytes('a', 0xFE)))));
        assertThat(deadLetter(decide(Policy.REPLACE, underAnIntKey)).first().field())
                .contains("by_number{7}.tags{}");
    }

    @Test
    void aMalformedMessageFurtherOnIsDescribedAsMalformed() {
        byte[] message = concat(tags(bytes('a', 0xFF), bytes('a', 0xFE)), bytes(5 << 3 | 2, 9));
        assertThat(deadLetter(decide(Policy.REPLACE, message)).rule()).isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
    }

    @Test
    void strictRejectsTheFirstIllFormedKeyAsBefore() {
        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.STRICT, tags(bytes('a', 0xFF), bytes('a', 0xFE))));
        assertThat(dead.rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
        assertThat(dead.first().detail()).isEmpty();
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
     * protobuf-java is the oracle: the keys of a fixed map it parses are as many as the distinct
     * keys that went in, and a rejected map is one whose keys, each fixed, would be fewer. The
     * entries go straight into the message or into {@code inner} sent more than once, which
     * parsers merge, with other fields between them.
     */
    @Property(tries = 1000)
    void aFixedMapNeverHasFewerKeysThanItCameWith(@ForAll long seed) throws InvalidProtocolBufferException {
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
        boolean inInner = random.nextBoolean();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < keys.size(); i++) {
            // Sometimes an entry sent again as it was: equal as they came, the writer's doing.
            int copies = random.nextInt(8) == 0 ? 2 : 1;
            for (int c = 0; c < copies; c++) {
                byte[] entry = entry(1, keys.get(i), i);
                out.writeBytes(inInner ? delimited(2, entry) : entry);
                if (random.nextBoolean()) {
                    out.writeBytes(delimited(5, bytes('n')));
                }
            }
        }
        Policy policy = random.nextBoolean() ? Policy.REPLACE : Policy.REPAIR;
        Set<String> each = new HashSet<>();
        for (byte[] key : keys) {
            each.add(fixedKey(key, policy));
        }

        Decision<RecordParts> decision = decide(policy, out.toByteArray());

        String field = inInner ? "inner.tags{}" : "tags{}";
        if (decision instanceof Decision.DeadLetter<?> dead) {
            assertThat(DeadLetterAnnotation.message(dead.first()))
                    .endsWith("; keys would collide at " + field + " once fixed");
            assertThat(each).hasSizeLessThan(keys.size());
            return;
        }
        byte[] fixed = decision instanceof Decision.Changed<RecordParts> changed
                ? changed.fixed().value()
                : ProtobufData.framed(1, out.toByteArray());
        DynamicMessage read = ProtobufData.parse(DOC, fixed);
        DynamicMessage holder = inInner ? (DynamicMessage) read.getField(DOC.findFieldByName("inner")) : read;
        assertThat(keys(holder, holder.getDescriptorForType().findFieldByName("tags")))
                .hasSize(keys.size());
    }
}
