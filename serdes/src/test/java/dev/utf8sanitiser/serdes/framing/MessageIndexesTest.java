package dev.utf8sanitiser.serdes.framing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Confluent's message-index array, against Kafka's own zig-zag varints as the writer. */
class MessageIndexesTest {

    @Test
    void theSingleZeroByteIsTheFirstMessage() {
        byte[] value = {0, 0, 0, 0, 7, 0, 0x0A};
        MessageIndexes read = MessageIndexes.read(value, WireFormat.PREFIX_LENGTH);
        assertThat(read.path()).containsExactly(0);
        assertThat(read.end()).isEqualTo(6);
        assertThat(MessageIndexes.encode(0)).containsExactly(0);
    }

    @Test
    void aPathIntoANestedTypeIsTheCountThenEachIndex() {
        // [1, 2]: count 2 -> 4, 1 -> 2, 2 -> 4 as zig-zag.
        byte[] value = {0, 0, 0, 0, 7, 4, 2, 4, 0x0A};
        MessageIndexes read = MessageIndexes.read(value, 5);
        assertThat(read.path()).containsExactly(1, 2);
        assertThat(read.end()).isEqualTo(8);
        assertThat(MessageIndexes.encode(1, 2)).containsExactly(4, 2, 4);
    }

    @Property(tries = 300)
    void readsWhatProtobufsZigZagVarintsWrite(@ForAll @Size(min = 1, max = 20) List<@IntRange(min = 0) Integer> path)
            throws IOException {
        // Confluent's serializer writes the indexes as Kafka's zig-zag varints, the same bytes as
        // protobuf's sint32 encoding, which is the public oracle used here.
        byte[] buffer = new byte[5 * 21 + 3 + 2];
        CodedOutputStream out = CodedOutputStream.newInstance(buffer, 3, buffer.length - 3);
        buffer[0] = buffer[1] = buffer[2] = 9;
        out.writeSInt32NoTag(path.size());
        for (int index : path) {
            out.writeSInt32NoTag(index);
        }
        int end = 3 + out.getTotalBytesWritten();
        byte[] value = Arrays.copyOf(buffer, end + 2);
        MessageIndexes read = MessageIndexes.read(value, 3);
        assertThat(read.path()).containsExactly(path.stream().mapToInt(i -> i).toArray());
        assertThat(read.end()).isEqualTo(end);
        int[] asArray = path.stream().mapToInt(i -> i).toArray();
        byte[] encoded = MessageIndexes.encode(asArray);
        assertThat(MessageIndexes.read(encoded, 0).path()).containsExactly(asArray);
    }

    @Test
    void refusesACountTheBytesCannotHold() {
        // Count 1000 (zig-zag 2000) with two bytes after it.
        byte[] value = {(byte) 0xD0, 0x0F, 2, 2};
        assertThatThrownBy(() -> MessageIndexes.read(value, 0))
                .isInstanceOf(MessageIndexes.MalformedIndexesException.class)
                .hasMessageContaining("count of 1000");
    }

    @Test
    void refusesNegativeCountsAndIndexes() {
        assertThatThrownBy(() -> MessageIndexes.read(new byte[] {1, 0}, 0))
                .isInstanceOf(MessageIndexes.MalformedIndexesException.class);
        assertThatThrownBy(() -> MessageIndexes.read(new byte[] {2, 1}, 0))
                .isInstanceOf(MessageIndexes.MalformedIndexesException.class)
                .extracting(e -> ((MessageIndexes.MalformedIndexesException) e).offset())
                .isEqualTo(1);
    }

    @Test
    void refusesVarintsCutShortOrTooLong() {
        assertThatThrownBy(() -> MessageIndexes.read(new byte[] {(byte) 0x82}, 0))
                .isInstanceOf(MessageIndexes.MalformedIndexesException.class)
                .hasMessageContaining("cut short");
        byte[] tooLong = {(byte) 0x82, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0};
        assertThatThrownBy(() -> MessageIndexes.read(tooLong, 0))
                .isInstanceOf(MessageIndexes.MalformedIndexesException.class)
                .hasMessageContaining("five bytes");
        assertThatThrownBy(() -> MessageIndexes.read(new byte[0], 0))
                .isInstanceOf(MessageIndexes.MalformedIndexesException.class);
    }
}
