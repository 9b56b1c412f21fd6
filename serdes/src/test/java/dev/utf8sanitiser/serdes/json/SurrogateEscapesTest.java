package dev.utf8sanitiser.serdes.json;

import static dev.utf8sanitiser.serdes.json.JsonFormatTest.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class SurrogateEscapesTest {
    /** The bytes that make escapes, strings and structure, and one that is never UTF-8. */
    private static final byte[] ALPHABET = utf8("\"\\uUdD8bcCfF0A{}[]:,1 ");

    @Test
    void findsLoneEscapesAndPassesPairs() {
        assertThat(SurrogateEscapes.lone(utf8("[\"\\ud800\",\"\\udc00\",\"\\ud83d\\ude00\",\"\\ud800x\\udc00\"]")))
                .containsExactly(2, 11, 35, 42);
        assertThat(SurrogateEscapes.lone(utf8("[\"\\\\ud800\",\"\\u0041\",\"ud800\"]")))
                .isEmpty();
    }

    @Test
    void looksOnlyAtBytesThatAreThere() {
        assertThat(SurrogateEscapes.lone(utf8("\"\\ud80"))).isEmpty();
        assertThat(SurrogateEscapes.lone(utf8("\"\\"))).isEmpty();
        assertThat(SurrogateEscapes.lone(utf8("\"\\ud800"))).isEmpty(); // no closing quote: no verdict
        assertThat(SurrogateEscapes.lone(utf8("\"\\ud800\\u"))).containsExactly(1);
    }

    @Property(tries = 2000)
    void anyBytesAreAVerdictNeverAnException(@ForAll long seed) {
        Random random = new Random(seed);
        byte[] value = new byte[random.nextInt(40)];
        for (int i = 0; i < value.length; i++) {
            value[i] = random.nextInt(20) == 0 ? (byte) 0xED : ALPHABET[random.nextInt(ALPHABET.length)];
        }
        for (int lone : SurrogateEscapes.lone(value)) {
            assertThat(new String(value, lone, 2, StandardCharsets.US_ASCII)).isEqualTo("\\u");
        }
        for (Policy policy : Policy.values()) {
            for (boolean surrogates : new boolean[] {false, true}) {
                Decision<RecordParts> decision = new RecordSanitiser(
                                policy, ContentPolicy.none(), new JsonFormat(surrogates), false, List.of())
                        .decide(null, value, new RecordHeaders());
                assertThat(decision).isNotNull();
            }
        }
    }
}
