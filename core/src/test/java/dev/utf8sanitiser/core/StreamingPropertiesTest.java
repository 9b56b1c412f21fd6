package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Streaming equals one-shot, offsets included, however the input is cut. */
class StreamingPropertiesTest {

    @Provide
    Arbitrary<byte[]> damaged() {
        return Utf8Inputs.damagedUtf8();
    }

    @Property(tries = 2000)
    void streamValidatorEqualsOneShotForRandomCuts(@ForAll("damaged") byte[] input, @ForAll long seed) {
        List<Utf8Error> streamed = new ArrayList<>();
        Utf8StreamValidator validator = new Utf8StreamValidator(streamed::add);
        for (int[] chunk : randomCuts(input.length, seed)) {
            validator.update(input, chunk[0], chunk[1]);
        }
        validator.finish();
        List<Utf8Error> expected = Utf8Validator.errors(input);
        assertThat(streamed).isEqualTo(expected);
        assertThat(validator.errorCount()).isEqualTo(expected.size());
        assertThat(validator.firstError()).isEqualTo(expected.stream().findFirst());
        assertThat(validator.bytesSeen()).isEqualTo(input.length);
    }

    @Property(tries = 2000)
    void replacingStreamEqualsOneShotForRandomCuts(@ForAll("damaged") byte[] input, @ForAll long seed)
            throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (SanitisingOutputStream out = new SanitisingOutputStream(sink, Policy.REPLACE)) {
            for (int[] chunk : randomCuts(input.length, seed)) {
                out.write(input, chunk[0], chunk[1]);
            }
            out.finish();
            assertThat(out.replacements()).isEqualTo(Utf8Validator.errors(input).size());
        }
        assertThat(sink.toByteArray()).isEqualTo(Utf8Replacement.replace(input));
    }

    @Property(tries = 300)
    void byteAtATimeEqualsOneShot(@ForAll("damaged") byte[] input) throws IOException {
        List<Utf8Error> streamed = new ArrayList<>();
        Utf8StreamValidator validator = new Utf8StreamValidator(streamed::add);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        SanitisingOutputStream out = new SanitisingOutputStream(sink, Policy.REPLACE);
        for (byte b : input) {
            validator.update(new byte[] {b});
            out.write(b);
        }
        validator.finish();
        out.close();
        assertThat(streamed).isEqualTo(Utf8Validator.errors(input));
        assertThat(sink.toByteArray()).isEqualTo(Utf8Replacement.replace(input));
    }

    @Test
    void aSequenceCutAcrossThreeChunksIsDecidedByTheLast() {
        List<Utf8Error> errors = new ArrayList<>();
        Utf8StreamValidator validator = new Utf8StreamValidator(errors::add);
        validator.update(new byte[] {0x41, (byte) 0xF0});
        validator.update(new byte[] {(byte) 0x9F});
        validator.update(new byte[] {(byte) 0x98});
        assertThat(errors).isEmpty();
        validator.update(new byte[] {0x41});
        validator.finish();
        assertThat(errors).containsExactly(new Utf8Error(1, 3, Rule.TRUNCATED));
    }

    @Test
    void aPrefixLeftAtTheEndIsTruncatedAtEndOnlyOnFinish() {
        List<Utf8Error> errors = new ArrayList<>();
        Utf8StreamValidator validator = new Utf8StreamValidator(errors::add);
        validator.update(new byte[] {0x41, (byte) 0xE2, (byte) 0x82});
        assertThat(errors).isEmpty();
        validator.finish();
        assertThat(errors).containsExactly(new Utf8Error(1, 2, Rule.TRUNCATED_AT_END));
    }

    @Test
    void directBufferChunksAreReadWhole() {
        byte[] input = Hex.bytes("41 ED A0 80 42 E2 82");
        ByteBuffer direct = ByteBuffer.allocateDirect(input.length).put(input).flip();
        List<Utf8Error> errors = new ArrayList<>();
        Utf8StreamValidator validator = new Utf8StreamValidator(errors::add);
        validator.update(direct);
        validator.finish();
        assertThat(direct.hasRemaining()).isFalse();
        assertThat(errors).isEqualTo(Utf8Validator.errors(input));
    }

    /** Cuts {@code [0, length)} into random (offset, length) chunks, empty ones included. */
    static List<int[]> randomCuts(int length, long seed) {
        Random random = new Random(seed);
        List<int[]> chunks = new ArrayList<>();
        int at = 0;
        while (at < length) {
            int n = random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(Math.min(12, length - at));
            chunks.add(new int[] {at, n});
            at += n;
        }
        return chunks;
    }
}
