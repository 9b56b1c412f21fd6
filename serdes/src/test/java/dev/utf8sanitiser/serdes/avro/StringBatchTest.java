package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Utf8Validator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * {@link StringBatch} says all strings are well-formed exactly when each is, the core's validator
 * on each string being the oracle: in particular when a string cut inside a sequence is followed by
 * one that starts with the rest of it, or by a blanked byte that would complete it, which together
 * would be a well-formed character.
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
        "a sentence long enough for the vector path of the validator, with others around it "
                .getBytes(StandardCharsets.UTF_8),
    };

    @Test
    void aStringCutInsideASequenceIsIllFormedWhateverFollowsIt() {
        for (Between between : Between.values()) {
            assertThat(batch(List.of(bytes('x', 0xE2, 0x82), bytes(0xAC, 'y')), between))
                    .isFalse();
            assertThat(batch(List.of(bytes('x', 0xE2, 0x82, 0xAC), bytes('y')), between))
                    .isTrue();
            assertThat(batch(List.of(bytes('x', 0xE2, 0x82), bytes('y')), between))
                    .as("cut before what follows, %s", between)
                    .isFalse();
            assertThat(batch(List.of(), between)).isTrue();
            assertThat(batch(List.of(new byte[0], bytes('z')), between)).isTrue();
        }
    }

    @Test
    void aBlankedByteThatWouldCompleteASequenceDoesNot() {
        // 0xAC after "x E2 82" would make a euro sign; blanked, it is a space, and the string is cut.
        byte[] value = bytes(0xFF, 0x06, 'x', 0xE2, 0x82, 0xAC, 0x00);
        StringBatch batch = new StringBatch();
        batch.start(value, 1, value.length);
        batch.blank(5);
        assertThat(batch.allWellFormed()).isFalse();
        assertThat(batch.view()).isEqualTo(bytes(0x06, 'x', 0xE2, 0x82, ' ', 0x00));
        assertThat(value[5]).as("the value itself is left as it was").isEqualTo((byte) 0xAC);
    }

    @Test
    void rangesAreBlankedWhole() {
        byte[] value = new byte[100];
        Arrays.fill(value, (byte) 0xFF);
        StringBatch batch = new StringBatch(); // a buffer smaller than the value at first
        batch.start(value, 0, value.length);
        batch.blank(0, 60);
        batch.blank(60, 100);
        assertThat(batch.allWellFormed()).isTrue();
        batch.start(value, 0, value.length);
        batch.blank(0, 99);
        assertThat(batch.allWellFormed()).as("the last byte not blanked").isFalse();
        batch.start(value, 0, value.length);
        assertThat(batch.allWellFormed()).as("nothing blanked since start").isFalse();
    }

    @Test
    void aRangeOfAnyLengthIsBlankedExactly() {
        byte[] value = new byte[64];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (0x80 + i);
        }
        StringBatch batch = new StringBatch();
        for (int from = 3; from < 12; from++) {
            for (int to = from; to <= value.length - 3; to++) {
                batch.start(value, 2, value.length);
                batch.blank(from, to);
                byte[] view = batch.view();
                for (int i = 0; i < view.length; i++) {
                    boolean blanked = i + 2 >= from && i + 2 < to;
                    assertThat(view[i])
                            .as("byte %d of the value, range [%d, %d)", i + 2, from, to)
                            .isEqualTo(blanked ? (byte) ' ' : value[i + 2]);
                }
            }
        }
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
        Between between = Between.values()[random.nextInt(Between.values().length)];
        assertThat(batch(strings, between))
                .as("%d strings, %s between them", strings.size(), between)
                .isEqualTo(strings.stream().allMatch(Utf8Validator::isWellFormed));
    }

    /** What stands before each string besides its one ASCII length byte, as the scan reports it. */
    private enum Between {
        /** Nothing: the value is all strings and ASCII. */
        NOTHING,
        /** A byte above ASCII, blanked: the first of a two-byte length. */
        BLANKED_BYTE,
        /** A long run of bytes above ASCII (a large bytes value), reported as one range. */
        LONG_RANGE
    }

    /** The strings laid out as in an Avro binary, after a prefix the batch is not to read. */
    private static boolean batch(List<byte[]> strings, Between between) {
        ByteArrayOutputStream datum = new ByteArrayOutputStream();
        // A prefix the batch must not read: before a string that starts with 0xAC, a euro sign.
        datum.writeBytes(bytes(0x00, 0xE2, 0x82));
        int from = datum.size();
        List<int[]> ranges = new ArrayList<>();
        for (byte[] string : strings) {
            int start = datum.size();
            if (between == Between.BLANKED_BYTE) {
                datum.write(0xFF);
            } else if (between == Between.LONG_RANGE) {
                // Starts with a continuation byte, which would complete a sequence cut before it.
                for (int i = 0; i < StringBatch.LONG_RANGE + 17; i++) {
                    datum.write(0x80 + i % 64);
                }
            }
            if (datum.size() > start) {
                ranges.add(new int[] {start, datum.size()});
            }
            datum.write(0x10);
            datum.writeBytes(string);
        }
        byte[] value = datum.toByteArray();
        StringBatch batch = new StringBatch();
        batch.start(value, from, value.length);
        ranges.forEach(range -> batch.blank(range[0], range[1]));
        boolean wellFormed = batch.allWellFormed();
        byte[] view = batch.view();
        assertThat(Utf8Validator.isWellFormed(view))
                .as("the view validates as the batch does")
                .isEqualTo(wellFormed);
        return wellFormed;
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
