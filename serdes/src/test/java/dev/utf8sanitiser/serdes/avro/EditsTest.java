package dev.utf8sanitiser.serdes.avro;

import static dev.utf8sanitiser.serdes.avro.SchemaWalkerTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EditsTest {
    @Test
    void appliesEditsInTheOrderOfTheArrayWhateverTheOrderTheyCameIn() {
        // A sized block (count -2, size 4) of "a" and "b", as the walker sees it: both strings
        // first, then the block's header once the block has ended.
        byte[] walked = bytes(0x03, 0x08, 0x02, 'a', 0x02, 'b', 0x00);
        Edits edits = new Edits();
        edits.string(2, 4, bytes('x', 'y', 'z'));
        edits.string(4, 6, bytes());
        edits.varint(0, 2, 2);

        assertThat(edits.size()).isEqualTo(3);
        assertThat(edits.apply(walked)).isEqualTo(bytes(0x04, 0x06, 'x', 'y', 'z', 0x00, 0x00));
    }

    @Test
    void writesLengthsOfManyBytes() {
        byte[] walked = bytes('<', 0x02, 'a', '>');
        Edits edits = new Edits();
        edits.string(1, 3, new byte[300]);

        byte[] out = edits.apply(walked);

        assertThat(out).hasSize(1 + 2 + 300 + 1);
        assertThat(out[0]).isEqualTo((byte) '<');
        assertThat(out[1] & 0xFF).isEqualTo(0xD8); // 600 = 0b100_1011000: 0xD8, then 0x04
        assertThat(out[2]).isEqualTo((byte) 0x04);
        assertThat(out[out.length - 1]).isEqualTo((byte) '>');
    }
}
