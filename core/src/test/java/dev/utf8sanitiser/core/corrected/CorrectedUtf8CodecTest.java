package dev.utf8sanitiser.core.corrected;

import static dev.utf8sanitiser.core.corrected.Hex.bytes;
import static dev.utf8sanitiser.core.corrected.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Code points to Corrected UTF-8 and back, against the table of the Corrected UTF-8 proposal. */
class CorrectedUtf8CodecTest {

    /** A row of the proposal's table, quoted: "Byte Sequence Range | Offset | Codepoint Range". */
    private record Row(byte[] firstBytes, byte[] lastBytes, long offset, long first, long last) {
        static Row parse(String quoted) {
            String[] columns = quoted.split("\\|");
            String[] sequences = columns[0].split("…");
            String[] codePoints = columns[2].split("…");
            return new Row(
                    bytes(sequences[0].strip()),
                    bytes(sequences[1].strip()),
                    Long.parseLong(columns[1].replace(" ", "")),
                    Long.parseLong(codePoints[0].replace(" ", ""), 16),
                    Long.parseLong(codePoints[1].replace(" ", ""), 16));
        }
    }

    /** The payload bits of one sequence, read as RFC 2044 defines them (no offset). */
    private static long payload(byte[] sequence) {
        int length = sequence.length;
        long payload = length == 1 ? sequence[0] : sequence[0] & (0x7F >> length);
        for (int k = 1; k < length; k++) {
            payload = payload << 6 | (sequence[k] & 0x3F);
        }
        return payload;
    }

    // The proposal's table, row by row, exactly as it is printed there.
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "00 … 7F | 0 | 0000 0000 … 0000 007F",
                "C0 80 … DF BF | 160 | 0000 00A0 … 0000 089F",
                "E0 80 80 … EC BD 9F | 2 208 | 0000 08A0 … 0000 D7FF",
                "EC BD A0 … EF BF BF | 4 256 | 0000 E000 … 0001 109F",
                "F0 80 80 80 … F7 BF BF BF | 69 792 | 0001 10A0 … 0021 109F",
                "F8 80 80 80 80 … FB BF BF BF BF | 2 166 944 | 0021 10A0 … 0421 109F",
                "FC 80 80 80 80 80 … FD BF BF BF BF BF | 69 275 808 | 0421 10A0 … 8421 109F"
            })
    void encodesAndDecodesTheEndsOfEachTableRow(String quotedRow) throws CorrectedUtf8Exception {
        Row row = Row.parse(quotedRow);

        assertThat(hex(CorrectedUtf8.encode(row.first()))).isEqualTo(hex(row.firstBytes()));
        assertThat(hex(CorrectedUtf8.encode(row.last()))).isEqualTo(hex(row.lastBytes()));
        assertThat(CorrectedUtf8.decode(row.firstBytes())).containsExactly(row.first());
        assertThat(CorrectedUtf8.decode(row.lastBytes())).containsExactly(row.last());
        assertThat(CorrectedUtf8.encodedLength(row.first())).isEqualTo(row.firstBytes().length);
        assertThat(CorrectedUtf8.encodedLength(row.last())).isEqualTo(row.lastBytes().length);
        // The offset column: code point = payload + offset, at both ends of the row.
        assertThat(payload(row.firstBytes()) + row.offset()).isEqualTo(row.first());
        assertThat(payload(row.lastBytes()) + row.offset()).isEqualTo(row.last());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "00 … 7F | 0 | 0000 0000 … 0000 007F",
                "C0 80 … DF BF | 160 | 0000 00A0 … 0000 089F",
                "E0 80 80 … EC BD 9F | 2 208 | 0000 08A0 … 0000 D7FF",
                "EC BD A0 … EF BF BF | 4 256 | 0000 E000 … 0001 109F",
                "F0 80 80 80 … F7 BF BF BF | 69 792 | 0001 10A0 … 0021 109F",
                "F8 80 80 80 80 … FB BF BF BF BF | 2 166 944 | 0021 10A0 … 0421 109F",
                "FC 80 80 80 80 80 … FD BF BF BF BF BF | 69 275 808 | 0421 10A0 … 8421 109F"
            })
    void codePointsJustOutsideATableRowAreNotEncodableOrBelongToAnotherRow(String quotedRow) {
        Row row = Row.parse(quotedRow);

        for (long outside : new long[] {row.first() - 1, row.last() + 1}) {
            if (CorrectedUtf8.isEncodable(outside)) {
                byte[] encoded = CorrectedUtf8.encode(outside);
                boolean insideRow = encoded.length == row.firstBytes().length
                        && Arrays.compareUnsigned(encoded, row.firstBytes()) >= 0
                        && Arrays.compareUnsigned(encoded, row.lastBytes()) <= 0;
                assertThat(insideRow).as("U+%X inside row", outside).isFalse();
            }
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "-1                 | below U+0000",
                "0x80               | first C1 control: the proposal skips U+0080 through U+009F",
                "0x9F               | last C1 control",
                "0xD800             | first surrogate: the proposal skips U+D800 through U+DFFF",
                "0xDFFF             | last surrogate",
                "0x842110A0         | the highest encodable code point is U+8421 109F",
                "0x7FFFFFFFFFFFFFFF | Long.MAX_VALUE"
            })
    void doesNotEncode(String codePoint, String why) {
        long value = Long.decode(codePoint);

        assertThat(CorrectedUtf8.isEncodable(value)).isFalse();
        assertThatThrownBy(() -> CorrectedUtf8.encodedLength(value)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CorrectedUtf8.encode(0x41, value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("code point 1 not encodable");
        assertThatThrownBy(() -> CorrectedUtf8.encode(value, new byte[6], 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void encodesIntoAnArrayOnlyWhenTheSequenceFits() {
        byte[] destination = new byte[4];

        assertThat(CorrectedUtf8.encode(0xCF, destination, 2)).isEqualTo(2);
        assertThat(hex(destination)).isEqualTo("00 00 C0 AF");
        assertThatThrownBy(() -> CorrectedUtf8.encode(0xCF, destination, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    // ---- the proposal's examples ----

    @Test
    void decodesC0AfAsLatinCapitalLetterIWithDiaeresisNotSolidus() throws CorrectedUtf8Exception {
        // "C0 AF becomes the unique encoding of U+00CF (LATIN CAPITAL LETTER I WITH DIAERESIS)"
        assertThat(CorrectedUtf8.decode(bytes("C0 AF"))).containsExactly(0xCFL);
        assertThat(hex(CorrectedUtf8.encode(0x2F))).isEqualTo("2F");
        assertThat(hex(CorrectedUtf8.encode(0xCF))).isEqualTo("C0 AF");
    }

    @Test
    void decodesTheMagicNumberToItsFourCodePoints() throws CorrectedUtf8Exception {
        // "the Corrected encoding of the four-codepoint sequence U+10E7D U+ED4E U+0000 U+000A"
        byte[] magic = bytes("EF B7 9D ED B2 AE 00 0A");

        assertThat(CorrectedUtf8.decode(magic)).containsExactly(0x10E7DL, 0xED4EL, 0x0L, 0xAL);
        assertThat(CorrectedUtf8.encode(0x10E7D, 0xED4E, 0x0, 0xA)).isEqualTo(magic);
        assertThat(CorrectedUtf8.magicNumber()).isEqualTo(magic);
        assertThat(CorrectedUtf8.startsWithMagicNumber(Hex.concat(magic, bytes("41"))))
                .isTrue();
        assertThat(CorrectedUtf8.startsWithMagicNumber(bytes("EF B7 9D ED B2 AE 00")))
                .isFalse();
    }

    @Test
    void theMagicNumberIsIllFormedAsStandardUtf8() {
        // "If interpreted as traditional UTF-8, it instead encodes U+FDDD U+DCAE U+0000 U+000A,
        // which is forbidden ...: U+DCAE is a surrogate"
        assertThat(Utf8Validator.firstError(CorrectedUtf8.magicNumber())).contains(new Utf8Error(3, 1, Rule.SURROGATE));
    }

    @Test
    void magicNumberIsACopy() {
        CorrectedUtf8.magicNumber()[0] = 0;

        assertThat(CorrectedUtf8.magicNumber()[0]).isEqualTo((byte) 0xEF);
    }

    // ---- lead bytes ----

    @ParameterizedTest(name = "{0}..{1}: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "00 | 7F | 1",
                "80 | BF | continuation",
                "C0 | DF | 2",
                "E0 | EF | 3",
                "F0 | F7 | 4",
                "F8 | FB | 5",
                "FC | FD | 6",
                "FE | FF | reserved"
            })
    void eachLeadByteStartsTheSequenceItsLeadingOneBitsCount(String first, String last, String kind) {
        for (int lead = Integer.parseInt(first, 16); lead <= Integer.parseInt(last, 16); lead++) {
            byte[] sequence = new byte[7];
            Arrays.fill(sequence, (byte) 0x80);
            sequence[0] = (byte) lead;
            long classified = CorrectedSequence.at(sequence, 0, sequence.length);
            switch (kind) {
                case "continuation" ->
                    assertThat(CorrectedSequence.rule(classified)).isEqualTo(CorrectedRule.UNEXPECTED_CONTINUATION);
                case "reserved" ->
                    assertThat(CorrectedSequence.rule(classified)).isEqualTo(CorrectedRule.RESERVED_SEQUENCE);
                default -> {
                    int length = Integer.parseInt(kind);
                    assertThat(CorrectedSequence.isComplete(classified)).isTrue();
                    assertThat(CorrectedSequence.length(classified)).isEqualTo(length);
                    if (length > 1) {
                        // One byte short at the end of the input: truncated.
                        long cut = CorrectedSequence.at(sequence, 0, length - 1);
                        assertThat(CorrectedSequence.rule(cut)).isEqualTo(CorrectedRule.TRUNCATED_AT_END);
                    }
                }
            }
        }
    }

    // ---- exhaustive ----

    @Test
    void everyUnicodeCodePointButTheC1ControlsAndSurrogatesRoundTripsInOrder() throws CorrectedUtf8Exception {
        byte[] previous = new byte[0];
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            boolean c1OrSurrogate = (codePoint >= 0x80 && codePoint <= 0x9F)
                    || (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE);
            if (CorrectedUtf8.isEncodable(codePoint) == c1OrSurrogate) {
                fail("U+%04X encodable: %s", codePoint, !c1OrSurrogate);
            }
            if (c1OrSurrogate) {
                continue;
            }
            byte[] encoded = CorrectedUtf8.encode(codePoint);
            long[] decoded = CorrectedUtf8.decode(encoded);
            if (decoded.length != 1 || decoded[0] != codePoint) {
                fail("U+%04X encodes to %s, which decodes to %s", codePoint, hex(encoded), Arrays.toString(decoded));
            }
            // Longer sequences encode higher code points; within a length, byte order is code point order.
            boolean ascending = encoded.length > previous.length
                    || (encoded.length == previous.length && Arrays.compareUnsigned(encoded, previous) > 0);
            if (!ascending) {
                fail("U+%04X encodes to %s, not after %s", codePoint, hex(encoded), hex(previous));
            }
            previous = encoded;
        }
    }

    @Test
    void everySequenceOfOneToFourBytesIsTheOnlyEncodingOfTheNextEncodableCodePoint() {
        // Walking the 1- to 4-byte sequences in byte order visits every encodable code point below
        // the 5-byte row exactly once, in order: no gaps, no duplicates, no overlong forms.
        long expected = 0;
        byte[] sequence = new byte[4];
        for (int length = 1; length <= 4; length++) {
            int payloadBits = length == 1 ? 7 : 7 - length + 6 * (length - 1);
            for (int payload = 0; payload < 1 << payloadBits; payload++) {
                writeSequence(sequence, length, payload);
                long classified = CorrectedSequence.at(sequence, 0, length);
                long codePoint = CorrectedSequence.codePoint(classified);
                if (!CorrectedSequence.isComplete(classified) || codePoint != expected) {
                    fail("%s decodes to U+%X, not U+%X", hex(Arrays.copyOf(sequence, length)), codePoint, expected);
                }
                expected = nextEncodable(expected);
            }
        }
        assertThat(expected).isEqualTo(0x2110A0); // the first code point of the 5-byte row
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {5, 6})
    void theFirstAndLastMillionSequencesOfFiveAndSixBytesCountUpByOne(int length) {
        int payloadBits = 7 - length + 6 * (length - 1);
        long lastPayload = (1L << payloadBits) - 1;
        byte[] sequence = new byte[length];
        for (long start : new long[] {0, lastPayload - 999_999}) {
            long expected = -1;
            for (long payload = start; payload < start + 1_000_000; payload++) {
                writeSequence(sequence, length, payload);
                long classified = CorrectedSequence.at(sequence, 0, length);
                long codePoint = CorrectedSequence.codePoint(classified);
                if (!CorrectedSequence.isComplete(classified) || (expected >= 0 && codePoint != expected)) {
                    fail("%s decodes to U+%X, not U+%X", hex(sequence), codePoint, expected);
                }
                expected = codePoint + 1;
            }
        }
        writeSequence(sequence, length, lastPayload);
        assertThat(CorrectedSequence.codePoint(CorrectedSequence.at(sequence, 0, length)))
                .isEqualTo(length == 5 ? 0x421109FL : CorrectedUtf8.MAX_CODE_POINT);
    }

    private static long nextEncodable(long codePoint) {
        long next = codePoint + 1;
        while (!CorrectedUtf8.isEncodable(next)) {
            next++;
        }
        return next;
    }

    /** The RFC 2044 form of {@code payload} in {@code length} bytes. */
    private static void writeSequence(byte[] sequence, int length, long payload) {
        if (length == 1) {
            sequence[0] = (byte) payload;
            return;
        }
        long rest = payload;
        for (int k = length - 1; k > 0; k--) {
            sequence[k] = (byte) (0x80 | (rest & 0x3F));
            rest >>>= 6;
        }
        sequence[0] = (byte) (0xFF00 >>> length | rest);
    }

    // ---- random ----

    @Property
    void everyEncodableCodePointRoundTrips(@ForAll @LongRange(min = 0, max = 0x8421109FL) long codePoint)
            throws CorrectedUtf8Exception {
        Assume.that(CorrectedUtf8.isEncodable(codePoint));

        assertThat(CorrectedUtf8.decode(CorrectedUtf8.encode(codePoint))).containsExactly(codePoint);
    }

    @Property
    void everyFiveOrSixByteSequenceDecodesToACodePointThatEncodesBackToIt(
            @ForAll @IntRange(min = 5, max = 6) int length, @ForAll("payloads") long payloadSeed)
            throws CorrectedUtf8Exception {
        byte[] sequence = new byte[length];
        writeSequence(sequence, length, payloadSeed & ((1L << (7 - length + 6 * (length - 1))) - 1));

        long[] decoded = CorrectedUtf8.decode(sequence);

        assertThat(decoded).hasSize(1);
        assertThat(decoded[0]).isBetween(length == 5 ? 0x2110A0L : 0x42110A0L, CorrectedUtf8.MAX_CODE_POINT);
        assertThat(CorrectedUtf8.encode(decoded[0])).isEqualTo(sequence);
    }

    @Provide
    Arbitrary<Long> payloads() {
        return Arbitraries.longs().between(0, 0x7FFF_FFFFL);
    }
}
