package dev.utf8sanitiser.core.corrected;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Optional;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of decoding Corrected UTF-8 (docs/corrected-utf8.md)
 * from arbitrary bytes: {@link CorrectedUtf8#decode} and {@link CorrectedUtf8#toUtf8} throw nothing
 * but {@link CorrectedUtf8Exception}, decode fails exactly where {@link CorrectedUtf8#firstError}
 * says, and because every complete sequence is the unique encoding of its code point, what decodes
 * encodes back to the same bytes.
 */
class CorrectedDecodeFuzzTest {

    @FuzzTest
    void decodeThrowsOnlyItsExceptionAndWhatDecodesEncodesBack(byte[] input) {
        Optional<CorrectedError> firstError = CorrectedUtf8.firstError(input);
        assertThat(CorrectedUtf8.isWellFormed(input)).isEqualTo(firstError.isEmpty());
        assertThat(CorrectedUtf8.errors(input).stream().findFirst()).isEqualTo(firstError);

        long[] codePoints = null;
        Throwable thrown = catchThrowable(() -> CorrectedUtf8.decode(input));
        if (thrown == null) {
            codePoints = decode(input);
        }
        if (firstError.isPresent()) {
            assertThat(thrown).isInstanceOf(CorrectedUtf8Exception.class);
            CorrectedUtf8Exception e = (CorrectedUtf8Exception) thrown;
            assertThat(e.offset()).isEqualTo(firstError.get().offset());
            assertThat(e.rule()).isEqualTo(firstError.get().rule());
        } else {
            assertThat(thrown).isNull();
            assertThat(CorrectedUtf8.encode(codePoints)).isEqualTo(input);
        }

        Throwable toUtf8 = catchThrowable(() -> CorrectedUtf8.toUtf8(input, MagicNumber.NONE));
        if (toUtf8 != null) {
            assertThat(toUtf8).isInstanceOf(CorrectedUtf8Exception.class);
        }
    }

    private static long[] decode(byte[] input) {
        try {
            return CorrectedUtf8.decode(input);
        } catch (CorrectedUtf8Exception e) {
            throw new AssertionError("decoded once, failed the second time", e);
        }
    }
}
