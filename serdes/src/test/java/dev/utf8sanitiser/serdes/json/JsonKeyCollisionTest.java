package dev.utf8sanitiser.serdes.json;

import static dev.utf8sanitiser.serdes.json.JsonFormatTest.bytes;
import static dev.utf8sanitiser.serdes.json.JsonFormatTest.utf8;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * A fix never makes two member names of one object equal, which every reader would resolve by
 * dropping a member: such a record is rejected. Names equal as they came stay as they are.
 */
class JsonKeyCollisionTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Decision<RecordParts> decide(Policy policy, byte[] value) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new JsonFormat(true), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    private static Decision.DeadLetter<?> rejected(Policy policy, byte[] value) {
        Decision<RecordParts> decision = decide(policy, value);
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        return (Decision.DeadLetter<?>) decision;
    }

    @Test
    void twoLoneSurrogateEscapesThatBothBecomeTheReplacementCharacterAreRejected() {
        Decision.DeadLetter<?> dead = rejected(Policy.REPLACE, utf8("{\"a\\uD800\":1,\"a\\uDC00\":2}"));

        assertThat(DeadLetterAnnotation.message(dead.first()))
                .isEqualTo("LONE_SURROGATE_ESCAPE at value field {} byte 15 (5C 75 44 43 30 30);"
                        + " keys would collide at {} once fixed");
        assertThat(dead.errors()).isEqualTo(2);
    }

    @Test
    void twoIllFormedNamesThatBothBecomeTheSameAreRejectedUnderTheirRule() {
        byte[] value = bytes("{\"a", 0xED, 0xA0, 0x80, "\":1,\"a", 0xED, 0xB0, 0x80, "\":2}");

        Decision.DeadLetter<?> dead = rejected(Policy.REPLACE, value);

        assertThat(dead.rule()).isEqualTo(DeadLetterRule.SURROGATE);
        assertThat(dead.first().offset()).isEqualTo(12);
        assertThat(dead.first().field()).contains("{}");
        assertThat(DeadLetterAnnotation.message(dead.first())).endsWith("; keys would collide at {} once fixed");
    }

    @Test
    void aNameFixedIntoOneThatCameWellFormedIsRejectedNamingTheFixedOne() {
        byte[] value = bytes("{\"x\":{\"k", 0xFF, "\":1,\"k\uFFFD\":2}}");

        Decision.DeadLetter<?> dead = rejected(Policy.REPLACE, value);

        assertThat(dead.rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
        assertThat(dead.first().offset()).isEqualTo(8);
        assertThat(dead.first().field()).contains("x{}");
    }

    @Test
    void aRepairedCesu8PairThatEqualsAnotherNameIsRejected() {
        byte[] value = bytes("{\"a", 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, "\":1,\"a\uD83D\uDE00\":2}");

        Decision.DeadLetter<?> dead = rejected(Policy.REPAIR, value);

        assertThat(dead.rule()).isEqualTo(DeadLetterRule.SURROGATE);
        assertThat(dead.first().offset()).isEqualTo(3);
        assertThat(decide(Policy.REPLACE, value)).isInstanceOf(Decision.Changed.class);
    }

    @Test
    void namesEqualAsTheyCameStayAndEqualNamesInTwoObjectsAreNoCollision() throws Exception {
        byte[] value = utf8("{\"a\":1,\"a\":2,\"b\\uD800\":{\"k\\uDC00\":3},\"c\":{\"k\\uFFFD\":4}}");

        Decision<RecordParts> decision = decide(Policy.REPLACE, value);

        assertThat(decision).isInstanceOf(Decision.Changed.class);
        String fixed =
                new String(((Decision.Changed<RecordParts>) decision).fixed().value(), UTF_8);
        assertThat(fixed).isEqualTo("{\"a\":1,\"a\":2,\"b\\uFFFD\":{\"k\\uFFFD\":3},\"c\":{\"k\\uFFFD\":4}}");
    }

    /** Spellings of distinct meanings: raw ill-formed bytes, lone escapes, U+FFFD itself. */
    private static final byte[][] PIECES = {
        utf8("a"),
        bytes(0xED, 0xA0, 0x80),
        bytes(0xED, 0xB0, 0x80),
        bytes(0xFF),
        utf8("\\uD800"),
        utf8("\\uDC00"),
        utf8("\uFFFD"),
        bytes(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80),
        utf8("\uD83D\uDE00"),
    };

    @Property(tries = 1000)
    void aFixedObjectNeverHasFewerMembersThanItCameWith(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        Set<String> names = new LinkedHashSet<>(); // distinct spellings, so distinct meanings
        for (int i = random.nextInt(6); i >= 0; i--) {
            StringBuilder name = new StringBuilder();
            for (int k = 1 + random.nextInt(3); k > 0; k--) {
                name.append(random.nextInt(PIECES.length)).append(',');
            }
            names.add(name.toString());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8("{\"o\":{"));
        int member = 0;
        for (String name : names) {
            out.writeBytes(utf8(member > 0 ? ",\"" : "\""));
            for (String piece : name.split(",")) {
                out.writeBytes(PIECES[Integer.parseInt(piece)]);
            }
            out.writeBytes(utf8("\":" + member++));
        }
        out.writeBytes(utf8("}}"));
        Policy policy = random.nextBoolean() ? Policy.REPLACE : Policy.REPAIR;

        Decision<RecordParts> decision = decide(policy, out.toByteArray());

        if (decision instanceof Decision.DeadLetter<?> dead) {
            assertThat(DeadLetterAnnotation.message(dead.first())).contains("; keys would collide at o{} once fixed");
            return;
        }
        byte[] fixed = decision instanceof Decision.Changed<RecordParts> changed
                ? changed.fixed().value()
                : out.toByteArray();
        JsonNode tree = MAPPER.readTree(fixed);
        assertThat(tree.get("o").size()).as(new String(fixed, UTF_8)).isEqualTo(names.size());
    }
}
