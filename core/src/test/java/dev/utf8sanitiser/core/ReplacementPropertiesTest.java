package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ReplacementPropertiesTest {

    @Provide
    Arbitrary<byte[]> damaged() {
        return Utf8Inputs.damagedUtf8();
    }

    @Provide
    Arbitrary<byte[]> wellFormed() {
        return Utf8Inputs.wellFormedUtf8();
    }

    @Property(tries = 2000)
    void outputIsAlwaysWellFormed(@ForAll("damaged") byte[] input) {
        assertThat(Utf8Validator.isWellFormed(Utf8Replacement.replace(input))).isTrue();
    }

    @Property(tries = 2000)
    void replacementIsIdempotent(@ForAll("damaged") byte[] input) {
        byte[] once = Utf8Replacement.replace(input);
        assertThat(Utf8Replacement.replace(once)).isSameAs(once);
    }

    @Property(tries = 1000)
    void wellFormedInputComesBackAsTheSameArray(@ForAll("wellFormed") byte[] input) {
        assertThat(Utf8Replacement.replace(input)).isSameAs(input);
    }

    @Property(tries = 2000)
    void oneReplacementCharacterPerReportedError(@ForAll("damaged") byte[] input) {
        // An EF BF BD already in the input is always a whole well-formed U+FFFD: an ill-formed
        // maximal subpart is a proper prefix of a character and cannot contain one.
        int before = countReplacementCharacters(input);
        int after = countReplacementCharacters(Utf8Replacement.replace(input));
        assertThat(after - before).isEqualTo(Utf8Validator.errors(input).size());
    }

    @Property(tries = 2000)
    void outputIsTheGoodBytesWithEachSubpartSwapped(@ForAll("damaged") byte[] input) {
        // Rebuilt from the error list alone: the errors and the replaced output always agree.
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        int at = 0;
        for (Utf8Error e : Utf8Validator.errors(input)) {
            expected.write(input, at, (int) e.offset() - at);
            expected.writeBytes(Utf8Replacement.REPLACEMENT_CHARACTER);
            at = (int) e.offset() + e.length();
        }
        expected.write(input, at, input.length - at);
        assertThat(Utf8Replacement.replace(input)).isEqualTo(expected.toByteArray());
    }

    @Test
    void replacingARangeOfALargerArrayCopiesOnlyTheRange() {
        byte[] bytes = {0x41, 0x42, 0x43, 0x44};
        assertThat(Utf8Replacement.replace(bytes, 1, 2)).containsExactly(0x42, 0x43);
    }

    @Test
    void everyByteIllFormedTriplesTheSize() {
        byte[] input = new byte[1000];
        Arrays.fill(input, (byte) 0x80);
        assertThat(Utf8Replacement.replace(input)).hasSize(3000);
    }

    static int countReplacementCharacters(byte[] b) {
        int n = 0;
        for (int i = 0; i + 2 < b.length; i++) {
            if (b[i] == (byte) 0xEF && b[i + 1] == (byte) 0xBF && b[i + 2] == (byte) 0xBD) {
                n++;
            }
        }
        return n;
    }

    static List<Utf8Error> errorsOf(byte[] b) {
        return Utf8Validator.errors(b);
    }
}
