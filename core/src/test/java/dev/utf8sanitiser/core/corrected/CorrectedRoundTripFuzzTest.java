package dev.utf8sanitiser.core.corrected;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of encoding Corrected UTF-8 (docs/corrected-utf8.md):
 * every sequence of code points {@link CorrectedUtf8#encode} accepts decodes back to itself, is
 * well-formed, and, when all of them are Unicode scalar values, transcodes to the standard UTF-8
 * the JDK writes for them and back.
 */
class CorrectedRoundTripFuzzTest {

    @FuzzTest
    void encodeThenDecodeIsTheIdentity(FuzzedDataProvider data) throws CorrectedUtf8Exception {
        long[] codePoints = new long[data.consumeInt(0, 64)];
        int count = 0;
        while (count < codePoints.length && data.remainingBytes() > 0) {
            long codePoint = data.consumeLong(0, CorrectedUtf8.MAX_CODE_POINT);
            if (CorrectedUtf8.isEncodable(codePoint)) {
                codePoints[count++] = codePoint;
            }
        }
        codePoints = Arrays.copyOf(codePoints, count);

        byte[] encoded = CorrectedUtf8.encode(codePoints);
        assertThat(CorrectedUtf8.decode(encoded)).isEqualTo(codePoints);
        assertThat(CorrectedUtf8.isWellFormed(encoded)).isTrue();
        assertThat(CorrectedUtf8.errors(encoded)).isEmpty();

        if (Arrays.stream(codePoints).allMatch(c -> c <= Character.MAX_CODE_POINT)) {
            int[] ints = Arrays.stream(codePoints).mapToInt(Math::toIntExact).toArray();
            byte[] utf8 = new String(ints, 0, ints.length).getBytes(StandardCharsets.UTF_8);
            assertThat(CorrectedUtf8.toUtf8(encoded, MagicNumber.NONE)).isEqualTo(utf8);
            assertThat(CorrectedUtf8.fromUtf8(utf8, MagicNumber.NONE)).isEqualTo(encoded);
        }
    }
}
