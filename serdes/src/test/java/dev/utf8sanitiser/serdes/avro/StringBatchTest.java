package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Utf8Validator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * {@link StringBatch} says all strings are well-formed exactly when each is, the core's validator
 * on each string being the oracle: in particular when a string cut inside a sequence is followed by
 * one that starts with the rest of it, which together would be a well-formed character.
 */
class StringBatchTest {
    /** Pieces that make sequences cut at either end, and whole characters of every length. */
    private static final byte[][] PIECES = {
        bytes('a'),
        bytes(0xC3),
        bytes(0xA9),
        bytes(0xC3, 0xA9),
        bytes(0xE2, 0x82),
        bytes(0xAC),
        bytes(0xE2, 0x82, 0xAC),
        bytes(0xF0, 0x9F, 0x98),
        bytes(0x80),
        bytes(0xF0, 0x9F, 0x98, 0x80),
        bytes(0xED, 0xA0, 0x80),
        bytes(0xC0, 0xAF),
        bytes(0xFF),
        bytes(' '),
        "a sentence long enough for the vector path of the validator, once joined to others "
                .getBytes(StandardCharsets.UTF_8),
    };

    @Test
    void aStringCutInsideASequenceIsIllFormedWhateverFollowsIt() {
        assertThat(batch(List.of(bytes('x', 0xE2, 0x82), bytes(0xAC, 'y')))).isFalse();
        assertThat(batch(List.of(bytes('x', 0xE2, 0x82, 0xAC), bytes('y')))).isTrue();
        assertThat(batch(List.of())).isTrue();
        assertThat(batch(List.of(new byte[0], bytes('z')))).isTrue();
    }

    @Property(tries = 2000)
    void allWellFormedExactlyWhenEachStringIs(@ForAll long seed) {
        Random random = new Random(seed);
        List<byte[]> strings = new ArrayList<>();
        int count = random.nextInt(12);
        for (int i = 0; i < count; i++) {
            ByteArrayOutputStream string = new ByteArrayOutputStream();
            int pieces = random.nextInt(6);
            for (int p = 0; p < pieces; p++) {
                // Mostly whole characters, so that the well-formed answer comes up often.
                byte[] piece = random.nextInt(4) == 0
                        ? PIECES[random.nextInt(PIECES.length)]
                        : PIECES[new int[] {0, 3, 6, 9, 13, 14}[random.nextInt(6)]];
                string.writeBytes(piece);
            }
            strings.add(string.toByteArray());
        }
        assertThat(batch(strings))
                .as("%d strings", strings.size())
                .isEqualTo(strings.stream().allMatch(Utf8Validator::isWellFormed));
    }

    /** The strings laid out as in an Avro binary (a length before each), through a batch. */
    private static boolean batch(List<byte[]> strings) {
        ByteArrayOutputStream datum = new ByteArrayOutputStream();
        List<int[]> ranges = new ArrayList<>();
        for (byte[] string : strings) {
            datum.write(0xFF); // a length byte that is not ASCII, as any from 64 up begins
            ranges.add(new int[] {datum.size(), string.length});
            datum.writeBytes(string);
        }
        byte[] value = datum.toByteArray();
        StringBatch batch = new StringBatch();
        batch.start(value.length);
        for (int[] range : ranges) {
            assertThat(batch.string(null, value, range[0], range[1])).isNull();
        }
        return batch.allWellFormed();
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
