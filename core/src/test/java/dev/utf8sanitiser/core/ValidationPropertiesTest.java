package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ValidationPropertiesTest {

    @Provide
    Arbitrary<byte[]> damaged() {
        return Utf8Inputs.damagedUtf8();
    }

    @Property(tries = 3000)
    void agreesWithTheReferenceOnDamagedInput(@ForAll("damaged") byte[] input) {
        assertThat(Utf8Validator.errors(input)).isEqualTo(ReferenceUtf8.errors(input));
    }

    /** The JDK decoder is an oracle for validity and the first error's offset (not its length). */
    @Property(tries = 3000)
    void jdkDecoderAgreesOnValidityAndFirstErrorOffset(@ForAll("damaged") byte[] input) {
        OptionalLong jdk = jdkFirstMalformedOffset(input);
        assertThat(Utf8Validator.isWellFormed(input)).isEqualTo(jdk.isEmpty());
        assertThat(Utf8Validator.firstError(input).map(Utf8Error::offset).orElse(-1L))
                .isEqualTo(jdk.orElse(-1L));
    }

    @Property(tries = 1000)
    void everyLongerInputAgreesWithTheJdkToo(@ForAll("damaged") byte[] a, @ForAll("damaged") byte[] b) {
        // Longer inputs exercise the 8- and 16-byte blocks of the fast loop.
        byte[] input = new byte[a.length * 3 + b.length];
        System.arraycopy(a, 0, input, 0, a.length);
        System.arraycopy(a, 0, input, a.length, a.length);
        System.arraycopy(a, 0, input, 2 * a.length, a.length);
        System.arraycopy(b, 0, input, 3 * a.length, b.length);
        assertThat(Utf8Validator.firstError(input).map(Utf8Error::offset).orElse(-1L))
                .isEqualTo(jdkFirstMalformedOffset(input).orElse(-1L));
    }

    /** ASCII runs of every length around damage reach each stride of the fast loop (32, 8, 1). */
    @Property(tries = 2000)
    void asciiRunsOfAnyLengthAroundDamageAgreeWithTheReference(
            @ForAll("damaged") byte[] damage,
            @ForAll @net.jqwik.api.constraints.IntRange(max = 100) int before,
            @ForAll @net.jqwik.api.constraints.IntRange(max = 100) int after) {
        byte[] input = new byte[before + damage.length + after];
        Arrays.fill(input, (byte) 'x');
        System.arraycopy(damage, 0, input, before, damage.length);
        assertThat(Utf8Validator.errors(input)).isEqualTo(ReferenceUtf8.errors(input));
        assertThat(Utf8Validator.isWellFormed(input)).isEqualTo(ReferenceUtf8.isWellFormed(input));
    }

    @Property(tries = 1000)
    void everyFormOfInputGivesTheSameAnswer(@ForAll("damaged") byte[] input) {
        List<Utf8Error> expected = Utf8Validator.errors(input);
        byte[] padded = new byte[input.length + 7];
        System.arraycopy(input, 0, padded, 3, input.length);
        ByteBuffer direct = ByteBuffer.allocateDirect(input.length + 5);
        direct.position(5);
        direct.put(input);
        direct.position(5);

        assertThat(Utf8Validator.errors(padded, 3, input.length)).isEqualTo(expected);
        assertThat(Utf8Validator.errors(ByteBuffer.wrap(padded, 3, input.length).slice()))
                .isEqualTo(expected);
        assertThat(Utf8Validator.errors(direct)).isEqualTo(expected);
        assertThat(Utf8Validator.isWellFormed(direct)).isEqualTo(expected.isEmpty());
        assertThat(Utf8Validator.firstError(direct)).isEqualTo(expected.stream().findFirst());
        assertThat(direct.position()).as("buffer position untouched").isEqualTo(5);
    }

    static OptionalLong jdkFirstMalformedOffset(byte[] input) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(input);
        CharBuffer out = CharBuffer.allocate(input.length * 2 + 2);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            return OptionalLong.of(in.position());
        }
        result = decoder.flush(out);
        return result.isError() ? OptionalLong.of(in.position()) : OptionalLong.empty();
    }
}
