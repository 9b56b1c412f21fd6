package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The benchmarks' entry to the scalar path answers as the validator does, on every input of 1 and 2 bytes. */
class ScalarPathTest {
    @Test
    void answersAsTheValidatorOnEveryShortInput() {
        for (int a = 0; a < 256; a++) {
            byte[] one = {(byte) a};
            assertThat(ScalarPath.isWellFormed(one, 0, 1)).isEqualTo(ReferenceUtf8.isWellFormed(one));
            for (int b = 0; b < 256; b++) {
                byte[] two = {'x', (byte) a, (byte) b, 'y'};
                assertThat(ScalarPath.isWellFormed(two, 1, 2))
                        .as("%02X %02X", a, b)
                        .isEqualTo(Utf8Validator.isWellFormed(two, 1, 2));
            }
        }
    }
}
