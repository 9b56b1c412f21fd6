package dev.utf8sanitiser.core;

import static dev.utf8sanitiser.core.Hex.bytes;
import static dev.utf8sanitiser.core.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The worked examples of docs/rules.md and of its source documents (docs/rules.md, Sources), each by name. */
class SourceExamplesTest {

    @Test
    void unicodeTable38WorkedExample() {
        // docs/rules.md, after Unicode Table 3-8.
        byte[] input = bytes("61 F1 80 80 E1 80 C2 62 80 63 80 BF 64");
        assertThat(Utf8Validator.errors(input))
                .containsExactly(
                        new Utf8Error(1, 3, Rule.TRUNCATED),
                        new Utf8Error(4, 2, Rule.TRUNCATED),
                        new Utf8Error(6, 1, Rule.TRUNCATED),
                        new Utf8Error(8, 1, Rule.UNEXPECTED_CONTINUATION),
                        new Utf8Error(10, 1, Rule.UNEXPECTED_CONTINUATION),
                        new Utf8Error(11, 1, Rule.UNEXPECTED_CONTINUATION));
        assertThat(hex(Utf8Replacement.replace(input)))
                .isEqualTo(hex(bytes("61 EFBFBD EFBFBD EFBFBD 62 EFBFBD 63 EFBFBD EFBFBD 64")));
    }

    /** Davis 2000, Table 3.1b: every row, with the rule docs/rules.md gives it. */
    @ParameterizedTest(name = "row {0}: {1} -> {2}")
    @CsvSource({
        "1,  C0 AF,          NON_SHORTEST_FORM,       0, 1",
        "1,  C1 BF,          NON_SHORTEST_FORM,       0, 1",
        "2,  F5 80 80 80,    OUT_OF_RANGE,            0, 1",
        "2,  F7 BF BF BF,    OUT_OF_RANGE,            0, 1",
        "2,  F8 88 80 80 80, INVALID_BYTE,            0, 1",
        "2,  FC 84 80 80 80 80, INVALID_BYTE,         0, 1",
        "2,  FE,             INVALID_BYTE,            0, 1",
        "2,  FF,             INVALID_BYTE,            0, 1",
        "3,  C2 41,          TRUNCATED,               0, 1",
        "3,  DF C0,          TRUNCATED,               0, 1",
        "4,  E0 41,          TRUNCATED,               0, 1",
        "4,  E0 80 80,       NON_SHORTEST_FORM,       0, 1",
        "4,  E0 9F BF,       NON_SHORTEST_FORM,       0, 1",
        "4,  E0 C0,          TRUNCATED,               0, 1",
        "5,  E1 7F,          TRUNCATED,               0, 1",
        "5,  EF FF,          TRUNCATED,               0, 1",
        "6,  F0 80 80 80,    NON_SHORTEST_FORM,       0, 1",
        "6,  F0 8F BF BF,    NON_SHORTEST_FORM,       0, 1",
        "6,  F0 41,          TRUNCATED,               0, 1",
        "7,  F4 90 80 80,    OUT_OF_RANGE,            0, 1",
        "7,  F4 BF BF BF,    OUT_OF_RANGE,            0, 1",
        "7,  F4 7F,          TRUNCATED,               0, 1",
        "8,  E1 80 41,       TRUNCATED,               0, 2",
        "8,  EF BF C0,       TRUNCATED,               0, 2",
        "9,  F0 90 41,       TRUNCATED,               0, 2",
        "9,  F4 8F FF,       TRUNCATED,               0, 2",
        "10, F1 80 80 41,    TRUNCATED,               0, 3",
        "10, F3 BF BF C2,    TRUNCATED,               0, 3",
        "11, ED A0 80 ED B0 80, SURROGATE,            0, 1",
        "11, ED AF BF ED BF BF, SURROGATE,            0, 1",
    })
    void table31bIllFormedRows(int row, String hexInput, Rule rule, long offset, int length) {
        assertThat(Utf8Validator.firstError(bytes(hexInput))).contains(new Utf8Error(offset, length, rule));
    }

    @Test
    void table31bRow6OverreachesAndF0Followed90To9FIsWellFormed() {
        // Davis 2000 lists "F0 00-9F" as ill-formed; Corrigendum #1 and Table 3-7 narrow
        // it to F0 80-8F: F0 90 80 80 is U+10000, the first supplementary code point.
        assertThat(Utf8Validator.isWellFormed(bytes("F0 90 80 80"))).isTrue();
        assertThat(Utf8Validator.isWellFormed(bytes("F0 9F 98 80"))).isTrue(); // U+1F600
    }

    @Test
    void cesu8SurrogatePairIsSixSurrogateErrors() {
        // Davis 2000 row 11: U+10000 as a CESU-8 pair. Each byte is its own maximal subpart: the
        // lead ED cannot continue into A0, and 80, B0, 80 continue nothing.
        assertThat(Utf8Validator.errors(bytes("ED A0 80 ED B0 80")))
                .containsExactly(
                        new Utf8Error(0, 1, Rule.SURROGATE),
                        new Utf8Error(1, 1, Rule.UNEXPECTED_CONTINUATION),
                        new Utf8Error(2, 1, Rule.UNEXPECTED_CONTINUATION),
                        new Utf8Error(3, 1, Rule.SURROGATE),
                        new Utf8Error(4, 1, Rule.UNEXPECTED_CONTINUATION),
                        new Utf8Error(5, 1, Rule.UNEXPECTED_CONTINUATION));
    }

    /**
     * L2/08-150: each listed sequence, followed by a byte outside the range after "!", is replaced
     * by a single U+FFFD (and the following byte is judged on its own).
     */
    @ParameterizedTest(name = "{0} then {1}")
    @CsvSource({
        "80,       41",
        "C1,       41",
        "C2,       41",
        "DF,       C0",
        "E0,       9F",
        "E1,       41",
        "EC,       C0",
        "ED,       A0",
        "EE,       7F",
        "EF,       C0",
        "F0,       8F",
        "F1,       7F",
        "F3,       C0",
        "F4,       90",
        "F5,       41",
        "FF,       41",
        "E0 A0,    41",
        "E1 80,    C0",
        "EC BF,    7F",
        "ED 80,    41",
        "ED 9F,    C0",
        "EE 80,    41",
        "EF BF,    41",
        "F0 90,    41",
        "F1 80,    C0",
        "F3 BF,    7F",
        "F4 80,    41",
        "F4 8F,    C0",
        "F0 90 80, 41",
        "F1 80 80, C0",
        "F3 BF BF, 7F",
        "F4 80 80, 41",
        "F4 8F BF, C0",
    })
    void recommendedPracticeReplacesEachListedSubpartOnce(String subpart, String follower) {
        byte[] sequence = bytes(subpart);
        byte[] input = bytes(subpart + " " + follower);
        List<Utf8Error> errors = Utf8Validator.errors(input);
        assertThat(errors.get(0))
                .isEqualTo(new Utf8Error(0, sequence.length, errors.get(0).rule()));
        byte[] replaced = Utf8Replacement.replace(input);
        byte[] expectedStart = bytes("EF BF BD");
        assertThat(hex(replaced)).startsWith(hex(expectedStart));
        // The follower is judged on its own: it is ASCII (kept) or ill-formed here (one more U+FFFD).
        int follow = Integer.parseInt(follower, 16);
        String rest = follow < 0x80 ? follower : "EF BF BD";
        assertThat(hex(replaced)).isEqualTo(hex(bytes("EF BF BD " + rest)));
    }

    @ParameterizedTest(name = "{0} at the end")
    @CsvSource({"C2, 1", "E0 A0, 2", "ED 9F, 2", "F0 90 80, 3", "F4 8F BF, 3", "F1, 1"})
    void recommendedPracticeAtTheEndOfInput(String subpart, int length) {
        assertThat(Utf8Validator.errors(bytes("41 " + subpart)))
                .containsExactly(new Utf8Error(1, length, Rule.TRUNCATED_AT_END));
        assertThat(hex(Utf8Replacement.replace(bytes("41 " + subpart)))).isEqualTo("41 EF BF BD");
    }

    /** Tang 2003's summary: bytes that never occur in valid UTF-8, and what each is reported as. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "C0, NON_SHORTEST_FORM",
        "C1, NON_SHORTEST_FORM",
        "F5, OUT_OF_RANGE",
        "F6, OUT_OF_RANGE",
        "F7, OUT_OF_RANGE",
        "F8, INVALID_BYTE",
        "FB, INVALID_BYTE",
        "FC, INVALID_BYTE",
        "FD, INVALID_BYTE",
        "FE, INVALID_BYTE",
        "FF, INVALID_BYTE",
    })
    void bytesNeverUsedByValidUtf8(String hexByte, Rule rule) {
        // Followed by a continuation byte, as an attacker would send them.
        assertThat(Utf8Validator.firstError(bytes(hexByte + " 80 80 80 80 80"))).contains(new Utf8Error(0, 1, rule));
    }

    @Test
    void encodedSurrogateIsThreeReplacementsNotOne() {
        // The JDK decoder gives one U+FFFD here; maximal subparts give three.
        assertThat(hex(Utf8Replacement.replace(bytes("ED A0 80")))).isEqualTo("EF BF BD EF BF BD EF BF BD");
    }
}
