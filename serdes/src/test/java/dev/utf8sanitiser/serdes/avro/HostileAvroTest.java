package dev.utf8sanitiser.serdes.avro;

import static dev.utf8sanitiser.serdes.avro.SchemaWalkerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.serdes.SmallStack;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * Records built to hurt the walker: nested as deep as a recursive schema allows, counts and lengths
 * that promise what the bytes do not hold. Each must end as a verdict (passed, or dead-lettered as
 * {@code MALFORMED_AVRO} with an offset), on a thread with a small stack, never as a crash.
 */
class HostileAvroTest {
    /** A linked list: one nesting level per node. */
    static final Schema LIST = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Node\",\"fields\":["
                    + "{\"name\":\"v\",\"type\":\"string\"},{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}");

    /** A tree: two nesting levels per generation (the record, its array of children). */
    static final Schema TREE = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Tree\",\"fields\":["
                    + "{\"name\":\"name\",\"type\":\"string\"},"
                    + "{\"name\":\"kids\",\"type\":{\"type\":\"array\",\"items\":\"Tree\"}}]}");

    private static final Schema NULLS = SchemaBuilder.array().items().nullType();
    private static final Schema STRINGS = SchemaBuilder.array().items().stringType();

    private final MapSchemaRegistry registry = new MapSchemaRegistry()
            .with(1, LIST)
            .with(2, TREE)
            .with(3, NULLS)
            .with(4, STRINGS)
            .with(5, Schema.create(Schema.Type.STRING))
            .with(6, Schema.create(Schema.Type.BYTES));

    private Decision<RecordParts> decide(byte[] value) {
        return decide(ContentPolicy.none(), value);
    }

    private Decision<RecordParts> decide(ContentPolicy content, byte[] value) {
        return new RecordSanitiser(Policy.STRICT, content, new AvroFormat(registry), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    /** {@code nodes} list nodes, each {@code v} empty but the last one's, which is {@code last}. */
    static byte[] list(int nodes, byte[] last) {
        AvroBinary out = new AvroBinary(1);
        for (int i = 0; i < nodes - 1; i++) {
            out.varint(0).varint(1); // v = "", next = branch 1, the next node
        }
        return out.string(last).varint(0).bytes(); // next = branch 0, null
    }

    /** {@code generations} trees, each the only child of the one before; the last named {@code last}. */
    static byte[] tree(int generations, byte[] last) {
        AvroBinary out = new AvroBinary(2);
        for (int i = 0; i < generations - 1; i++) {
            out.varint(0).varint(1); // name = "", a block of one child
        }
        out.string(last).varint(0); // the last one's name, no children
        for (int i = 0; i < generations - 1; i++) {
            out.varint(0); // the end of each array of one
        }
        return out.bytes();
    }

    @Test
    void aListAtTheDepthLimitIsCheckedOnASmallStack() throws Exception {
        byte[] value = list(SchemaWalker.MAX_DEPTH, bytes(0xFF));

        Decision.DeadLetter dead = (Decision.DeadLetter<?>) SmallStack.call(() -> decide(value));

        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
        assertThat(dead.first().offset()).isEqualTo(value.length - 2);
        assertThat(dead.errors()).isEqualTo(1);
        assertThat(dead.first().field().orElseThrow())
                .startsWith("next.next.next.")
                .endsWith(".next.next.v");
        assertThat(fieldHeader(dead)).hasSizeLessThanOrEqualTo(DeadLetterAnnotation.MAX_FIELD_BYTES);
    }

    @Test
    void aWellFormedListAtTheDepthLimitPassesOnASmallStackWithContentRules() throws Exception {
        byte[] value = list(SchemaWalker.MAX_DEPTH, bytes('o', 'k'));
        ContentPolicy nul = ContentPolicy.of(ContentRules.parse("NUL:reject"));

        assertThat(SmallStack.call(() -> decide(nul, value))).isInstanceOf(Decision.Pass.class);
    }

    @Test
    void aListBeyondTheDepthLimitIsMalformedOnASmallStack() throws Exception {
        for (int nodes : new int[] {SchemaWalker.MAX_DEPTH + 1, 20 * SchemaWalker.MAX_DEPTH}) {
            byte[] value = list(nodes, bytes('x'));

            Decision.DeadLetter dead = (Decision.DeadLetter<?>) SmallStack.call(() -> decide(value));

            assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
            // The first node too deep starts after MAX_DEPTH nodes of 2 bytes each.
            assertThat(dead.first().offset()).isEqualTo(5 + 2 * SchemaWalker.MAX_DEPTH);
            assertThat(fieldHeader(dead)).hasSizeLessThanOrEqualTo(DeadLetterAnnotation.MAX_FIELD_BYTES);
        }
    }

    @Test
    void aTreeAtAndBeyondTheDepthLimitOnASmallStack() throws Exception {
        // Generation g's record is nested 2g deep: the last one allowed is g = MAX_DEPTH / 2 - 1.
        int generations = SchemaWalker.MAX_DEPTH / 2;
        byte[] atLimit = tree(generations, bytes(0xC0, 0xAF));
        byte[] beyond = tree(generations + 1, bytes('x'));

        Decision.DeadLetter dead = (Decision.DeadLetter<?>) SmallStack.call(() -> decide(atLimit));
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.NON_SHORTEST_FORM);
        assertThat(dead.first().field().orElseThrow())
                .startsWith("kids[0].kids[0].")
                .endsWith("kids[0].name");
        assertThat(fieldHeader(dead)).hasSizeLessThanOrEqualTo(DeadLetterAnnotation.MAX_FIELD_BYTES);

        dead = (Decision.DeadLetter<?>) SmallStack.call(() -> decide(beyond));
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
        assertThat(dead.first().offset()).isEqualTo(5 + 2 * generations);
    }

    @Test
    void theDeadLetterHeadersOfADeepRecordStaySmall() throws Exception {
        for (byte[] value : List.of(list(4 * SchemaWalker.MAX_DEPTH, bytes('x')), list(2000, bytes(0xFF)))) {
            Decision.DeadLetter dead = (Decision.DeadLetter<?>) SmallStack.call(() -> decide(value));

            int size = 0;
            for (Header header : annotate(dead)) {
                size += header.key().length() + header.value().length;
            }
            assertThat(size).as("all the headers added, in bytes").isLessThan(3 * 1024);
        }
    }

    private static Headers annotate(Decision.DeadLetter<?> dead) {
        return new RecordHeaders(new DeadLetterAnnotation(8)
                .annotate(
                        new RecordHeaders(),
                        dead,
                        Policy.STRICT,
                        new DeadLetterAnnotation.Source("orders", 0, 42),
                        0L));
    }

    /** The bytes of {@code __utf8.field} in the dead-letter record. */
    private static byte[] fieldHeader(Decision.DeadLetter<?> dead) {
        return annotate(dead).lastHeader(HeaderNames.FIELD).value();
    }

    @Test
    void anElevenByteArrayOfNullsDeclaringTwoBillionItemsIsMalformed() {
        // Avro's reader would allocate a slot for each of them before reading a byte.
        byte[] value = new AvroBinary(3).varint((1L << 31) - 17).varint(0).bytes();
        assertThat(value).hasSize(11);

        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decide(value);

        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
        assertThat(dead.first().offset()).isEqualTo(5);
    }

    @Test
    void itemsThatTakeNoBytesCountAgainstOneLimitAcrossBlocks() {
        int half = SchemaWalker.MAX_EMPTY_ITEMS / 2;
        byte[] atLimit = new AvroBinary(3).varint(half).varint(half).varint(0).bytes();
        AvroBinary beyond = new AvroBinary(3).varint(half).varint(half);
        int lastBlock = beyond.size();
        beyond.varint(1).varint(0);

        assertThat(decide(atLimit)).isInstanceOf(Decision.Pass.class);
        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decide(beyond.bytes());
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
        assertThat(dead.first().offset()).isEqualTo(lastBlock);
    }

    @Test
    void lengthsAndCountsThatPromiseMoreThanTheBytesHoldAreMalformedWhereTheyStand() {
        // A string, then bytes, declaring 2^31 bytes; a negative length.
        assertMalformedAt(new AvroBinary(5).varint(1L << 31).bytes(), 5);
        assertMalformedAt(new AvroBinary(6).varint(1L << 31).bytes(), 5);
        assertMalformedAt(new AvroBinary(5).varint(-1).bytes(), 5);
        assertMalformedAt(new AvroBinary(6).varint(Long.MIN_VALUE).bytes(), 5);
        // Arrays of strings: a count with no items behind it; a negative count with a negative or
        // oversized byte size; the largest count a long holds.
        assertMalformedAt(new AvroBinary(4).varint(3).varint(0).bytes(), 5);
        assertMalformedAt(new AvroBinary(4).varint(-1).varint(-1).bytes(), 5);
        assertMalformedAt(new AvroBinary(4).varint(-1).varint(1L << 31).bytes(), 5);
        assertMalformedAt(new AvroBinary(4).varint(Long.MIN_VALUE).bytes(), 5);
        assertMalformedAt(new AvroBinary(4).varint(Long.MAX_VALUE).bytes(), 5);
        // A block of nulls with a byte size: a size other than 0 does not match what it holds.
        assertMalformedAt(
                new AvroBinary(3).varint(-5).varint(3).raw(0, 0, 0).varint(0).bytes(), 5);
    }

    @Test
    void aSizedBlockWhoseSizeIsNotTheBytesOfItsItemsIsMalformed() {
        // One string "a" (2 bytes) in a block that says it is 1 byte, then 3: a reader that skips
        // by the size reads something else than one that reads the items.
        assertMalformedAt(
                new AvroBinary(4)
                        .varint(-1)
                        .varint(1)
                        .string(bytes('a'))
                        .varint(0)
                        .bytes(),
                5);
        assertMalformedAt(
                new AvroBinary(4)
                        .varint(-1)
                        .varint(3)
                        .string(bytes('a'))
                        .varint(0)
                        .varint(0)
                        .bytes(),
                5);
        assertThat(decide(new AvroBinary(4)
                        .varint(-1)
                        .varint(2)
                        .string(bytes('a'))
                        .varint(0)
                        .bytes()))
                .isInstanceOf(Decision.Pass.class);
    }

    private void assertMalformedAt(byte[] value, int offset) {
        Decision<RecordParts> decision = decide(value);
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decision;
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
        assertThat(dead.first().offset()).isEqualTo(offset);
    }

    @Test
    void theFieldOfAFaultIsWhereTheWalkStoodInsideMapsAndArrays() {
        Schema schema = SchemaBuilder.map().values().array().items().stringType();
        SchemaWalker walker = SchemaWalker.of(schema);
        // {"k": ["a", <length 5, 1 byte left>]}
        byte[] badItem = bytes(0x02, 0x02, 'k', 0x04, 0x02, 'a', 0x0A, 'b');
        // {"k": ["a"], <a key of length 5, 1 byte left>}
        byte[] badKey = bytes(0x04, 0x02, 'k', 0x02, 0x02, 'a', 0x00, 0x0A, 'b');
        // {"k": ["a"], then a block count cut short}
        byte[] badHeader = bytes(0x02, 0x02, 'k', 0x02, 0x02, 'a', 0x00, 0x80);

        assertThat(malformed(walker, badItem).field()).isEqualTo("{k}[1]");
        assertThat(malformed(walker, badKey).field()).isEqualTo("{}");
        assertThat(malformed(walker, badHeader).field()).isEmpty();
        assertThat(malformed(walker, badHeader).offset()).isEqualTo(badHeader.length); // ran out there
    }

    private static MalformedAvroException malformed(SchemaWalker walker, byte[] bytes) {
        try {
            walker.walk(bytes, 0, bytes.length, (p, b, o, l) -> null);
        } catch (MalformedAvroException e) {
            return e;
        }
        throw new AssertionError("walked without a fault");
    }
}
