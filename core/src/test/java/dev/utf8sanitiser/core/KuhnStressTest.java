package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Markus Kuhn's UTF-8 decoder capability and stress test, byte-exact, from testdata/kuhn (testdata/README.md). */
class KuhnStressTest {
    private static byte[] file;

    @BeforeAll
    static void load() throws Exception {
        file = TestData.read("kuhn/UTF-8-test.txt");
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(file);
        assertThat(HexFormat.of().formatHex(digest))
                .as("the file testdata/README.md describes")
                .isEqualTo("b51cfe9a8d2689c90b10a13a3624092d546e0837c6ff835b6e5d713c5749c8c6");
    }

    @Test
    void firstIllFormedByteIsAtOffset4461() {
        // testdata/README.md: "the first ill-formed byte is at offset 4461".
        assertThat(Utf8Validator.firstError(file)).map(Utf8Error::offset).contains(4461L);
        assertThat(ValidationPropertiesTest.jdkFirstMalformedOffset(file)).hasValue(4461L);
    }

    @Test
    void everyErrorAgreesWithTheReference() {
        List<Utf8Error> errors = Utf8Validator.errors(file);
        assertThat(errors).isEqualTo(ReferenceUtf8.errors(file));
        // Every rule occurs, except TRUNCATED_AT_END: the file ends with a well-formed line.
        assertThat(errors)
                .extracting(Utf8Error::rule)
                .contains(Arrays.copyOf(Rule.values(), Rule.values().length - 1))
                .doesNotContain(Rule.TRUNCATED_AT_END);
        assertThat(file[file.length - 1]).isEqualTo((byte) '\n');
    }

    @Test
    void replacedFileIsWellFormedWithOneReplacementPerError() {
        byte[] replaced = Utf8Replacement.replace(file);
        assertThat(Utf8Validator.isWellFormed(replaced)).isTrue();
        assertThat(ReplacementPropertiesTest.countReplacementCharacters(replaced)
                        - ReplacementPropertiesTest.countReplacementCharacters(file))
                .isEqualTo(Utf8Validator.errors(file).size());
    }

    /** Section 4.1: "/" in overlong forms. Each byte is its own maximal subpart. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "'4.1.1', C0 AF, 2",
        "'4.1.2', E0 80 AF, 3",
        "'4.1.3', F0 80 80 AF, 4",
        "'4.1.4', F8 80 80 80 AF, 5",
        "'4.1.5', FC 80 80 80 80 AF, 6",
    })
    void overlongSlashesNeverDecodeToSlash(String section, String overlong, int replacements) {
        byte[] sequence = Hex.bytes(overlong);
        int at = indexOf(file, sequence);
        assertThat(at).as("section %s is in the file", section).isPositive();
        byte[] replaced = Utf8Replacement.replace(Arrays.copyOfRange(file, at, at + sequence.length));
        assertThat(ReplacementPropertiesTest.countReplacementCharacters(replaced))
                .isEqualTo(replacements);
        assertThat(new String(replaced, StandardCharsets.UTF_8)).doesNotContain("/");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (haystack[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
