package dev.utf8sanitiser.serdes.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NUL bytes among the first four made Jackson guess UTF-16 or UTF-32: a document it then could not
 * read escaped as an exception (found by {@code JsonFormatFuzzTest}), and UTF-16 JSON could pass.
 * JSON is UTF-8 here and a raw NUL is never JSON, so each is INVALID_JSON at its first NUL.
 */
class NulBytesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // The fuzzer's input (Jackson's UTF-32 reader threw); without a registry a value that starts
        // as Confluent's framing does is read whole, as JSON text, which cannot start with a NUL.
        "00 00 00 00 7B 7D 7B 7D 7D, 0",
        "00 00 00 7B, 0", // a raw NUL, which Jackson would read as UTF-32
        "00 7B 00 7D, 0", // {} in UTF-16BE
        "7B 00 7D 00, 1", // {} in UTF-16LE
        "5B 31 00 5D, 2", // a NUL inside the first four bytes
        // After them Jackson reads UTF-8 and refuses the NUL itself; its offset is the byte after it.
        "5B 31 2C 32 00 5D, 5",
    })
    void aRawNulIsInvalidJsonWhereItStands(String hex, int offset) {
        Decision<RecordParts> decision = new RecordSanitiser(
                        Policy.STRICT, ContentPolicy.none(), new JsonFormat(false), false, List.of())
                .decide(null, bytes(hex), new RecordHeaders());
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        Decision.DeadLetter dead = (Decision.DeadLetter<?>) decision;
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
        assertThat(dead.first().offset()).isEqualTo(offset);
    }

    private static byte[] bytes(String hex) {
        String[] parts = hex.split(" ");
        byte[] out = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return out;
    }
}
