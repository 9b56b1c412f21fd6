package dev.utf8sanitiser.core.corrected;

import static dev.utf8sanitiser.core.corrected.Hex.bytes;
import static dev.utf8sanitiser.core.corrected.Hex.concat;
import static dev.utf8sanitiser.core.corrected.Hex.hex;
import static dev.utf8sanitiser.core.corrected.Texts.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Standard UTF-8 to Corrected UTF-8 and back, bytes in and bytes out, and what cannot cross. */
class CorrectedUtf8TranscodingTest {
    private static final byte[] MAGIC = bytes("EF B7 9D ED B2 AE 00 0A");

    // ---- the proposal's examples ----

    @Test
    void encodesLatinCapitalLetterIWithDiaeresisAsC0Af() throws CorrectedUtf8Exception {
        assertThat(hex(CorrectedUtf8.fromUtf8(utf8(0xCF), MagicNumber.NONE))).isEqualTo("C0 AF");
        assertThat(hex(CorrectedUtf8.toUtf8(bytes("C0 AF"), MagicNumber.NONE))).isEqualTo("C3 8F");
    }

    // The examples of docs/corrected-utf8.md.
    @ParameterizedTest(name = "{0}: {1} <-> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "U+002F   | 2F          | 2F",
                "U+00CF   | C3 8F       | C0 AF",
                "U+0800   | E0 A0 80    | DD A0",
                "U+20AC   | E2 82 AC    | E1 A0 8C",
                "U+D7FF   | ED 9F BF    | EC BD 9F",
                "U+E000   | EE 80 80    | EC BD A0",
                "U+1F600  | F0 9F 98 80 | F0 8E 95 A0",
                "U+10FFFF | F4 8F BF BF | F3 BE BD 9F"
            })
    void crossesTheDocumentedExamplesBothWays(String codePoint, String utf8, String corrected)
            throws CorrectedUtf8Exception {
        long value = Long.parseLong(codePoint.substring(2), 16);

        assertThat(hex(CorrectedUtf8.encode(value))).isEqualTo(corrected);
        assertThat(hex(utf8((int) value))).isEqualTo(utf8);
        assertThat(hex(CorrectedUtf8.fromUtf8(bytes(utf8), MagicNumber.NONE))).isEqualTo(corrected);
        assertThat(hex(CorrectedUtf8.toUtf8(bytes(corrected), MagicNumber.NONE)))
                .isEqualTo(utf8);
    }

    @Test
    void decodesTheMagicNumberAsTextUnlessAskedToDropIt() throws CorrectedUtf8Exception {
        byte[] magicThenA = concat(MAGIC, bytes("41"));

        assertThat(CorrectedUtf8.toUtf8(magicThenA, MagicNumber.NONE)).isEqualTo(utf8(0x10E7D, 0xED4E, 0, 0xA, 0x41));
        assertThat(CorrectedUtf8.toUtf8(magicThenA, MagicNumber.LEADING)).isEqualTo(utf8(0x41));
        assertThat(CorrectedUtf8.toUtf8(MAGIC, MagicNumber.LEADING)).isEmpty();
    }

    @Test
    void dropsOnlyAMagicNumberAtTheStart() throws CorrectedUtf8Exception {
        assertThat(CorrectedUtf8.toUtf8(concat(MAGIC, MAGIC), MagicNumber.LEADING))
                .isEqualTo(utf8(0x10E7D, 0xED4E, 0, 0xA));
        assertThat(CorrectedUtf8.toUtf8(concat(bytes("41"), MAGIC), MagicNumber.LEADING))
                .isEqualTo(utf8(0x41, 0x10E7D, 0xED4E, 0, 0xA));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource({
        "EF B7 9D 41, F0 90 B9 BD 41", // U+10E7D then A
        "EF B7 9D ED B2 AE 00, F0 90 B9 BD EE B5 8E 00", // the magic number less its last byte
        "EF B7 9D ED B2 AE 00 0B, F0 90 B9 BD EE B5 8E 00 0B",
        "'', ''"
    })
    void decodesInputThatOnlyStartsLikeTheMagicNumberAsText(String corrected, String utf8)
            throws CorrectedUtf8Exception {
        assertThat(hex(CorrectedUtf8.toUtf8(bytes(corrected), MagicNumber.LEADING)))
                .isEqualTo(hex(bytes(utf8)));
    }

    @Test
    void encodesTheMagicNumberFirstWhenAsked() throws CorrectedUtf8Exception {
        assertThat(CorrectedUtf8.fromUtf8(utf8(0x41), MagicNumber.LEADING)).isEqualTo(concat(MAGIC, bytes("41")));
        assertThat(CorrectedUtf8.fromUtf8(new byte[0], MagicNumber.LEADING)).isEqualTo(MAGIC);
        assertThat(CorrectedUtf8.fromUtf8(new byte[0], MagicNumber.NONE)).isEmpty();
        // The four code points of the magic number encode to it, so a string may carry it too.
        assertThat(CorrectedUtf8.fromUtf8(utf8(0x10E7D, 0xED4E, 0, 0xA), MagicNumber.NONE))
                .isEqualTo(MAGIC);
    }

    @Test
    void decodesTheHighestUnicodeCodePointAndStopsAtTheNext() throws CorrectedUtf8Exception {
        assertThat(hex(CorrectedUtf8.encode(0x10FFFF))).isEqualTo("F3 BE BD 9F");
        assertThat(hex(CorrectedUtf8.encode(0x110000))).isEqualTo("F3 BE BD A0");
        assertThat(hex(CorrectedUtf8.toUtf8(bytes("F3 BE BD 9F"), MagicNumber.NONE)))
                .isEqualTo("F4 8F BF BF");
        assertThatThrownBy(() -> CorrectedUtf8.toUtf8(bytes("F3 BE BD A0"), MagicNumber.NONE))
                .isInstanceOfSatisfying(
                        CorrectedUtf8Exception.class, e -> assertThat(e.rule()).isEqualTo(CorrectedRule.OUT_OF_RANGE));
    }

    // ---- what cannot cross ----

    @ParameterizedTest(name = "{0} -> {1} at {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "61 80                   | UNEXPECTED_CONTINUATION | 1",
                "61 C0 AF                | NON_SHORTEST_FORM       | 1", // Corrected U+00CF, overlong / in UTF-8
                "61 E0 80 AF             | NON_SHORTEST_FORM       | 1",
                "61 ED A0 80             | SURROGATE               | 1",
                "EF B7 9D ED B2 AE 00 0A | SURROGATE               | 3", // the magic number is not UTF-8
                "61 F4 90 80 80          | OUT_OF_RANGE            | 1",
                "61 F5                   | OUT_OF_RANGE            | 1",
                "61 F8 88 80 80 80       | INVALID_BYTE            | 1",
                "61 FE                   | INVALID_BYTE            | 1",
                "61 E2 82 41             | TRUNCATED               | 1",
                "61 E2 82                | TRUNCATED_AT_END        | 1",
                "61 F1 80 80 E1 80 C2 62 | TRUNCATED               | 1", // Unicode Table 3-8
                "61 C2 80                | C1_CONTROL              | 1",
                "61 62 C2 9F             | C1_CONTROL              | 2",
                "C3 A9 C2 85 80          | C1_CONTROL              | 2", // the first problem wins
                "C3 A9 80 C2 85          | UNEXPECTED_CONTINUATION | 2"
            })
    void encodingStopsAtIllFormedUtf8AndC1Controls(String utf8, CorrectedRule rule, long offset) {
        for (MagicNumber magicNumber : MagicNumber.values()) {
            assertThatThrownBy(() -> CorrectedUtf8.fromUtf8(bytes(utf8), magicNumber))
                    .isInstanceOfSatisfying(CorrectedUtf8Exception.class, e -> {
                        assertThat(e.rule()).isEqualTo(rule);
                        assertThat(e.offset()).isEqualTo(offset);
                    });
        }
    }

    @Test
    void encodingStopsAtEveryC1Control() {
        for (int c1 = 0x80; c1 <= 0x9F; c1++) {
            byte[] input = utf8(0x41, 0xE9, c1, 0x42);
            assertThatThrownBy(() -> CorrectedUtf8.fromUtf8(input, MagicNumber.NONE))
                    .isInstanceOfSatisfying(CorrectedUtf8Exception.class, e -> {
                        assertThat(e.rule()).isEqualTo(CorrectedRule.C1_CONTROL);
                        assertThat(e.offset()).isEqualTo(3);
                    });
        }
    }

    @ParameterizedTest(name = "{0} -> {1} at {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "61 80                | UNEXPECTED_CONTINUATION | 1",
                "61 C3 41             | TRUNCATED               | 1",
                "61 C3 FE             | TRUNCATED               | 1",
                "61 C3                | TRUNCATED_AT_END        | 1",
                "61 F7 BF             | TRUNCATED_AT_END        | 1", // only a complete sequence has a code point
                "61 FE 80 41          | RESERVED_SEQUENCE       | 1",
                "61 62 FF             | RESERVED_SEQUENCE       | 2",
                "61 F3 BE BD A0       | OUT_OF_RANGE            | 1", // U+110000
                "61 F7 BF BF BF       | OUT_OF_RANGE            | 1", // U+21109F
                "61 F8 80 80 80 80    | OUT_OF_RANGE            | 1", // U+2110A0
                "61 FD BF BF BF BF BF | OUT_OF_RANGE            | 1" // U+8421109F
            })
    void decodingStopsAtIllFormedAndReservedSequencesAndAboveU10ffff(
            String corrected, CorrectedRule rule, long offset) {
        for (MagicNumber magicNumber : MagicNumber.values()) {
            assertThatThrownBy(() -> CorrectedUtf8.toUtf8(bytes(corrected), magicNumber))
                    .isInstanceOfSatisfying(CorrectedUtf8Exception.class, e -> {
                        assertThat(e.rule()).isEqualTo(rule);
                        assertThat(e.offset()).isEqualTo(offset);
                        assertThat(e.getMessage()).isEqualTo(offset + ": " + rule + " " + rule.description());
                    });
        }
    }

    @ParameterizedTest
    @EnumSource(MagicNumber.class)
    void decodingOffsetsCountTheMagicNumber(MagicNumber magicNumber) {
        assertThatThrownBy(() -> CorrectedUtf8.toUtf8(concat(MAGIC, bytes("41 80")), magicNumber))
                .isInstanceOfSatisfying(CorrectedUtf8Exception.class, e -> assertThat(e.offset())
                        .isEqualTo(9));
    }

    // ---- exhaustive and random ----

    @Test
    void everyUnicodeScalarValueButTheC1ControlsCrossesBothWays() throws CorrectedUtf8Exception {
        int[] scalars = IntStream.rangeClosed(0, Character.MAX_CODE_POINT)
                .filter(c -> c < 0x80 || c > 0x9F)
                .filter(c -> c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE)
                .toArray();
        byte[] utf8 = utf8(scalars);
        byte[] corrected =
                CorrectedUtf8.encode(Arrays.stream(scalars).asLongStream().toArray());

        assertThat(CorrectedUtf8.fromUtf8(utf8, MagicNumber.NONE)).isEqualTo(corrected);
        assertThat(CorrectedUtf8.toUtf8(corrected, MagicNumber.NONE)).isEqualTo(utf8);
    }

    @Property
    void wellFormedUtf8CrossesToCorrectedAndBackUnchanged(@ForAll("utf8Text") byte[] utf8)
            throws CorrectedUtf8Exception {
        byte[] corrected = CorrectedUtf8.fromUtf8(utf8, MagicNumber.NONE);

        assertThat(corrected).isEqualTo(CorrectedUtf8.encode(Texts.codePoints(utf8)));
        assertThat(CorrectedUtf8.toUtf8(corrected, MagicNumber.NONE)).isEqualTo(utf8);
        assertThat(CorrectedUtf8.toUtf8(CorrectedUtf8.fromUtf8(utf8, MagicNumber.LEADING), MagicNumber.LEADING))
                .isEqualTo(utf8);
    }

    @Provide
    Arbitrary<byte[]> utf8Text() {
        return Texts.utf8Text(40);
    }
}
