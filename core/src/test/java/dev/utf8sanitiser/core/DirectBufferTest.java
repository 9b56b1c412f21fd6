package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A direct buffer is validated a chunk at a time (8 KiB) through the array loop: every answer must
 * equal the array's, however a sequence, well-formed or not, straddles a chunk boundary.
 */
class DirectBufferTest {
    private static final int CHUNK = 8192;

    /** Sequences that a chunk boundary can cut: well-formed ones, truncated ones, surrogates, junk. */
    @Provide
    Arbitrary<byte[]> piece() {
        return Arbitraries.of(
                new byte[] {(byte) 0xC3, (byte) 0xA9},
                new byte[] {(byte) 0xE2, (byte) 0x82, (byte) 0xAC},
                new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80},
                new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                new byte[] {(byte) 0xE2, (byte) 0x82},
                new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98},
                new byte[] {(byte) 0xC0, (byte) 0xAF},
                new byte[] {(byte) 0x80},
                new byte[] {(byte) 0xFF});
    }

    @Property(tries = 300)
    void aDirectBufferGetsTheArraysAnswersAcrossChunkBoundaries(
            @ForAll("piece") byte[] piece,
            @ForAll @IntRange(min = -4, max = 4) int shift,
            @ForAll @IntRange(min = 1, max = 3) int chunks,
            @ForAll @IntRange(min = 0, max = 7) int position) {
        // ASCII up to just before a chunk boundary (counted from the buffer's position), the piece
        // across it, a little ASCII after.
        int before = chunks * CHUNK + shift;
        byte[] input = new byte[before + piece.length + 5];
        Arrays.fill(input, (byte) 'a');
        System.arraycopy(piece, 0, input, before, piece.length);

        ByteBuffer direct = ByteBuffer.allocateDirect(position + input.length);
        direct.position(position);
        direct.put(input);
        direct.position(position);

        List<Utf8Error> expected = Utf8Validator.errors(input);
        assertThat(Utf8Validator.errors(direct)).isEqualTo(expected);
        assertThat(Utf8Validator.isWellFormed(direct)).isEqualTo(expected.isEmpty());
        assertThat(Utf8Validator.firstError(direct)).isEqualTo(expected.stream().findFirst());
        assertThat(direct.position()).isEqualTo(position);
        assertThat(direct.limit()).isEqualTo(position + input.length);
    }

    @Property(tries = 200)
    void aTruncatedSequenceAtTheLimitIsTruncatedAtEnd(
            @ForAll("piece") byte[] piece, @ForAll @IntRange(min = 0, max = 3) int cut) {
        byte[] input = new byte[CHUNK - 1 + piece.length];
        Arrays.fill(input, (byte) 'a');
        System.arraycopy(piece, 0, input, CHUNK - 1, piece.length);
        int limit = Math.max(CHUNK, input.length - cut);
        ByteBuffer direct = ByteBuffer.allocateDirect(input.length);
        direct.put(input).flip().limit(limit);

        assertThat(Utf8Validator.errors(direct)).isEqualTo(Utf8Validator.errors(input, 0, limit));
    }
}
