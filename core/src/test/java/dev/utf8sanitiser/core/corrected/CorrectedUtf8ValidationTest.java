package dev.utf8sanitiser.core.corrected;

import static dev.utf8sanitiser.core.corrected.Hex.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Checking bytes as Corrected UTF-8: where no code point can be decoded, and why. */
class CorrectedUtf8ValidationTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // A stray continuation byte is one error, like a maximal subpart of UTF-8.
                "41 80 BF 42                | (1,1,UNEXPECTED_CONTINUATION) (2,1,UNEXPECTED_CONTINUATION)",
                // A truncated sequence covers its lead and the continuation bytes present.
                "E0 80 41                   | (0,2,TRUNCATED)",
                "FC 80 80 80 80 C0 80       | (0,5,TRUNCATED)",
                "41 FD BF BF BF BF          | (1,5,TRUNCATED_AT_END)",
                "C3                         | (0,1,TRUNCATED_AT_END)",
                // Reserved: "extending until the next recognized lead byte".
                "FE 80 80 41                | (0,3,RESERVED_SEQUENCE)",
                "41 FF                      | (1,1,RESERVED_SEQUENCE)",
                "FE BF C0 80                | (0,2,RESERVED_SEQUENCE)",
                "FE 00                      | (0,1,RESERVED_SEQUENCE)",
                // FE and FF are not recognized lead bytes: they extend a reserved sequence.
                "FE FF 80 FF FF 41 FE       | (0,5,RESERVED_SEQUENCE) (6,1,RESERVED_SEQUENCE)",
                // A reserved lead cuts a sequence short like any byte that cannot continue it.
                "C0 FE 80 DF BF             | (0,1,TRUNCATED) (1,2,RESERVED_SEQUENCE)",
                // Unicode Table 3-8, whose errors are the same in Corrected UTF-8 (docs/corrected-utf8.md).
                "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 | (1,3,TRUNCATED) (4,2,TRUNCATED) (6,1,TRUNCATED)"
                        + " (8,1,UNEXPECTED_CONTINUATION) (10,1,UNEXPECTED_CONTINUATION) (11,1,UNEXPECTED_CONTINUATION)"
            })
    void reportsEveryPlaceWithoutACodePoint(String input, String expected) {
        List<CorrectedError> errors = CorrectedUtf8.errors(bytes(input));

        assertThat(errors).map(CorrectedError::toString).containsExactly(expected.split(" "));
        assertThat(CorrectedUtf8.firstError(bytes(input))).contains(errors.get(0));
        assertThat(CorrectedUtf8.isWellFormed(bytes(input))).isFalse();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource({
        "''",
        "41 0A",
        "EF B7 9D ED B2 AE 00 0A", // the magic number
        "C0 AF", // U+00CF, never an overlong U+002F
        "ED B2 AE", // U+ED4E, not a surrogate
        "FD BF BF BF BF BF", // U+8421109F, above U+10FFFF but Corrected UTF-8
        "F4 90 80 80 C0 80 E0 80 80" // forbidden in UTF-8, each the unique encoding of a code point here
    })
    void acceptsCompleteSequencesOfOneToSixBytes(String input) {
        assertThat(CorrectedUtf8.isWellFormed(bytes(input))).isTrue();
        assertThat(CorrectedUtf8.firstError(bytes(input))).isEmpty();
        assertThat(CorrectedUtf8.errors(bytes(input))).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1} at {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "41 80        | UNEXPECTED_CONTINUATION | 1",
                "41 C3 41     | TRUNCATED               | 1",
                "41 42 F7 BF  | TRUNCATED_AT_END        | 2",
                "41 FE 80     | RESERVED_SEQUENCE       | 1"
            })
    void decodingStopsAtTheFirstPlaceWithoutACodePoint(String input, CorrectedRule rule, long offset) {
        assertThatThrownBy(() -> CorrectedUtf8.decode(bytes(input)))
                .isInstanceOfSatisfying(CorrectedUtf8Exception.class, e -> {
                    assertThat(e.rule()).isEqualTo(rule);
                    assertThat(e.offset()).isEqualTo(offset);
                    assertThat(e.getMessage()).isEqualTo(offset + ": " + rule + " " + rule.description());
                });
    }

    @Test
    void errorsAreTheGapsBetweenDecodableSequences() {
        // 5 errors, the rest decodable: errors tile the input with the sequences around them.
        byte[] input = bytes("80 41 FE 80 FF C3 A9 E0 80 C3");

        assertThat(CorrectedUtf8.errors(input))
                .containsExactly(
                        new CorrectedError(0, 1, CorrectedRule.UNEXPECTED_CONTINUATION),
                        new CorrectedError(2, 3, CorrectedRule.RESERVED_SEQUENCE),
                        new CorrectedError(7, 2, CorrectedRule.TRUNCATED),
                        new CorrectedError(9, 1, CorrectedRule.TRUNCATED_AT_END));
    }

    @Property
    void errorsAndDecodableSequencesTileAnyInput(@ForAll("anyBytes") byte[] input) {
        // Every byte is either in an error or in a complete sequence, and the errors never overlap.
        long covered = 0;
        int i = 0;
        for (CorrectedError error : CorrectedUtf8.errors(input)) {
            while (i < error.offset()) {
                long sequence = CorrectedSequence.at(input, i, input.length);
                assertThat(CorrectedSequence.isComplete(sequence)).isTrue();
                i += CorrectedSequence.length(sequence);
            }
            assertThat(i).isEqualTo(error.offset());
            covered += error.length();
            i += error.length();
        }
        assertThat(covered).isLessThanOrEqualTo(input.length);
        assertThat(CorrectedUtf8.isWellFormed(input))
                .isEqualTo(CorrectedUtf8.errors(input).isEmpty());
    }

    @Provide
    Arbitrary<byte[]> anyBytes() {
        // Bytes from the classes that matter, so sequences and errors both occur often.
        Arbitrary<Byte> interesting = Arbitraries.of(
                        0x41, 0x00, 0x80, 0xBF, 0xC0, 0xDF, 0xE0, 0xEF, 0xF0, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF)
                .map(Integer::byteValue);
        return Arbitraries.oneOf(interesting, Arbitraries.bytes().between((byte) 0x80, (byte) 0xBF))
                .array(byte[].class)
                .ofMaxSize(40);
    }
}
