package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of the every-error scan against {@link
 * ReferenceUtf8}, written from Table 3-7 and not from the production code, and of the replacement
 * against the scan: replacing each reported maximal subpart by U+FFFD and copying the bytes between
 * them must give what {@link Utf8Replacement#replace} and {@link Utf8Sanitiser} give.
 */
class Utf8ScanFuzzTest {
    private static final byte[] U_FFFD = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    @FuzzTest
    void everyErrorAsTheReferenceAndTheReplacementBuiltFromThem(byte[] input) {
        List<Utf8Error> errors = Utf8Validator.errors(input);
        assertThat(errors).isEqualTo(ReferenceUtf8.errors(input));
        assertThat(Utf8Validator.isWellFormed(input)).isEqualTo(errors.isEmpty());
        assertThat(Utf8Validator.firstError(input)).isEqualTo(errors.stream().findFirst());

        byte[] rebuilt = rebuild(input, errors);
        assertThat(Utf8Replacement.replace(input)).isEqualTo(rebuilt);
        Sanitised replaced = Utf8Sanitiser.sanitise(input, Policy.REPLACE);
        assertThat(replaced.output()).isEqualTo(rebuilt);
        assertThat(replaced.errors()).isEqualTo(errors);
        assertThat(replaced.replacements()).isEqualTo(errors.size());

        Sanitised strict = Utf8Sanitiser.sanitise(input, Policy.STRICT);
        assertThat(strict.output()).isSameAs(input);
        assertThat(strict.errors()).isEqualTo(errors);
    }

    /** The replacement, from the errors alone: the bytes between them kept, each one U+FFFD. */
    private static byte[] rebuild(byte[] input, List<Utf8Error> errors) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int kept = 0;
        for (Utf8Error error : errors) {
            int offset = Math.toIntExact(error.offset());
            out.write(input, kept, offset - kept);
            out.write(U_FFFD, 0, U_FFFD.length);
            kept = offset + error.length();
        }
        out.write(input, kept, input.length - kept);
        return out.toByteArray();
    }
}
