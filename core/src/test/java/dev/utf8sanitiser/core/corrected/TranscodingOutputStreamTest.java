package dev.utf8sanitiser.core.corrected;

import static dev.utf8sanitiser.core.corrected.Hex.bytes;
import static dev.utf8sanitiser.core.corrected.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The streaming form equals the one-shot form however the input is cut, in constant memory. */
class TranscodingOutputStreamTest {

    /** One direction: the stream, and the one-shot form it must equal. */
    private enum Direction {
        ENCODING(TranscodingOutputStream::encoding),
        DECODING(TranscodingOutputStream::decoding);

        private final BiFunction<OutputStream, MagicNumber, TranscodingOutputStream> stream;

        Direction(BiFunction<OutputStream, MagicNumber, TranscodingOutputStream> stream) {
            this.stream = stream;
        }

        byte[] oneShot(byte[] input, MagicNumber magicNumber) throws CorrectedUtf8Exception {
            return this == ENCODING
                    ? CorrectedUtf8.fromUtf8(input, magicNumber)
                    : CorrectedUtf8.toUtf8(input, magicNumber);
        }
    }

    /** What a transcoding gives: its output, and the problem that stopped it, if one did. */
    private record Outcome(String output, Optional<String> problem) {}

    /**
     * The one-shot outcome. When it stops, the output expected from a stream is everything before
     * the problem: the one-shot transcoding of the input up to the problem's offset.
     */
    private static Outcome oneShot(Direction direction, byte[] input, MagicNumber magicNumber) throws IOException {
        try {
            return new Outcome(hex(direction.oneShot(input, magicNumber)), Optional.empty());
        } catch (CorrectedUtf8Exception e) {
            byte[] before = direction.oneShot(Arrays.copyOf(input, (int) e.offset()), magicNumber);
            return new Outcome(hex(before), Optional.of(e.getMessage()));
        }
    }

    /** The streamed outcome, the input written in chunks of the given sizes, cycled. */
    private static Outcome streamed(Direction direction, byte[] input, MagicNumber magicNumber, List<Integer> cuts)
            throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        TranscodingOutputStream stream = direction.stream.apply(sink, magicNumber);
        try {
            int at = 0;
            for (int k = 0; at < input.length; k++) {
                int size = Math.min(cuts.get(k % cuts.size()), input.length - at);
                if (size == 1 && k % 2 == 0) {
                    stream.write(input[at]);
                } else {
                    stream.write(input, at, size);
                }
                at += size;
            }
            stream.close();
            return new Outcome(hex(sink.toByteArray()), Optional.empty());
        } catch (CorrectedUtf8Exception e) {
            stream.close();
            return new Outcome(hex(sink.toByteArray()), Optional.of(e.getMessage()));
        }
    }

    @Property
    void encodingAStreamEqualsEncodingItWhole(
            @ForAll("utf8Mostly") byte[] input, @ForAll("cuts") List<Integer> cuts, @ForAll MagicNumber magicNumber)
            throws IOException {
        assertThat(streamed(Direction.ENCODING, input, magicNumber, cuts))
                .isEqualTo(oneShot(Direction.ENCODING, input, magicNumber));
    }

    @Property
    void decodingAStreamEqualsDecodingItWhole(
            @ForAll("correctedMostly") byte[] input,
            @ForAll("cuts") List<Integer> cuts,
            @ForAll MagicNumber magicNumber)
            throws IOException {
        assertThat(streamed(Direction.DECODING, input, magicNumber, cuts))
                .isEqualTo(oneShot(Direction.DECODING, input, magicNumber));
    }

    @Provide
    Arbitrary<byte[]> utf8Mostly() {
        return Texts.mostly(Texts.utf8Text(6));
    }

    @Provide
    Arbitrary<byte[]> correctedMostly() {
        // Corrected text below U+110000, which crosses; a magic number in front half the time.
        Arbitrary<byte[]> text = Texts.mostly(Texts.correctedText(6));
        return Arbitraries.oneOf(text, text.map(t -> Hex.concat(CorrectedUtf8.magicNumber(), t)));
    }

    @Provide
    Arbitrary<List<Integer>> cuts() {
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(1, 9)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(10, 10_000)))
                .list()
                .ofMinSize(1)
                .ofMaxSize(8);
    }

    // ---- cut places that matter ----

    @Test
    void dropsAMagicNumberCutAcrossWrites() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (TranscodingOutputStream decoding = TranscodingOutputStream.decoding(sink, MagicNumber.LEADING)) {
            decoding.write(bytes("EF"));
            decoding.write(bytes(""));
            decoding.write(bytes("B7 9D ED"));
            decoding.write(bytes("B2 AE 00 0A C0"));
            decoding.write(bytes("AF"));
        }

        assertThat(hex(sink.toByteArray())).isEqualTo("C3 8F");
    }

    @Test
    void decodesASixByteSequenceWrittenAByteAtATime() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        TranscodingOutputStream decoding = TranscodingOutputStream.decoding(sink, MagicNumber.NONE);
        for (byte b : bytes("41 F3 BE BD 9F FD BF BF BF BF")) {
            decoding.write(b);
        }

        // U+10FFFF crosses; the 6-byte sequence is held back until its last byte decides it.
        assertThatThrownBy(() -> decoding.write(0xBF)).isInstanceOfSatisfying(CorrectedUtf8Exception.class, e -> {
            assertThat(e.rule()).isEqualTo(CorrectedRule.OUT_OF_RANGE);
            assertThat(e.offset()).isEqualTo(5);
        });
        assertThat(hex(sink.toByteArray())).isEqualTo("41 F4 8F BF BF");
    }

    @Test
    void writesOutEverythingBeforeTheProblem() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        TranscodingOutputStream encoding = TranscodingOutputStream.encoding(sink, MagicNumber.LEADING);
        encoding.write(bytes("41 C3"));

        assertThatThrownBy(() -> encoding.write(bytes("8F C2 85 42")))
                .isInstanceOfSatisfying(CorrectedUtf8Exception.class, e -> assertThat(e.getMessage())
                        .isEqualTo("3: C1_CONTROL C1 control (U+0080..U+009F), which Corrected UTF-8 does not encode"));
        assertThat(hex(sink.toByteArray())).isEqualTo("EF B7 9D ED B2 AE 00 0A 41 C0 AF");
    }

    @Test
    void closeReportsASequenceCutByTheEndAndStillClosesTheUnderlyingStream() throws IOException {
        ClosingSink sink = new ClosingSink();
        TranscodingOutputStream decoding = TranscodingOutputStream.decoding(sink, MagicNumber.NONE);
        decoding.write(bytes("41 42 E0 80"));

        assertThatThrownBy(decoding::close).isInstanceOfSatisfying(CorrectedUtf8Exception.class, e -> {
            assertThat(e.rule()).isEqualTo(CorrectedRule.TRUNCATED_AT_END);
            assertThat(e.offset()).isEqualTo(2);
        });
        assertThat(sink.closed).isTrue();
        assertThat(hex(sink.toByteArray())).isEqualTo("41 42");
    }

    @Test
    void afterAProblemWritesFailAndFinishDoesNothing() throws IOException {
        ClosingSink sink = new ClosingSink();
        TranscodingOutputStream decoding = TranscodingOutputStream.decoding(sink, MagicNumber.NONE);
        assertThatThrownBy(() -> decoding.write(bytes("41 FE 80"))).isInstanceOf(CorrectedUtf8Exception.class);

        assertThatThrownBy(() -> decoding.write(bytes("42")))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(CorrectedUtf8Exception.class)
                .hasMessage("transcoding stopped at 1: RESERVED_SEQUENCE sequence led by FE or FF, reserved for"
                        + " future use by Corrected UTF-8");
        decoding.finish();
        decoding.close();
        assertThat(sink.closed).isTrue();
        assertThat(hex(sink.toByteArray())).isEqualTo("41");
    }

    @Test
    void finishEndsTheInputWithoutClosingAndWritingAfterItFails() throws IOException {
        ClosingSink sink = new ClosingSink();
        TranscodingOutputStream encoding = TranscodingOutputStream.encoding(sink, MagicNumber.NONE);
        encoding.write(bytes("C3 8F"));

        encoding.finish();
        encoding.finish();

        assertThat(sink.closed).isFalse();
        assertThat(hex(sink.toByteArray())).isEqualTo("C0 AF");
        assertThat(encoding.bytesIn()).isEqualTo(2);
        assertThatThrownBy(() -> encoding.write(1))
                .isInstanceOf(IOException.class)
                .hasMessage("stream finished");
    }

    @Test
    void flushWritesOutWhatIsBufferedButNotAHeldBackSequence() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        TranscodingOutputStream encoding = TranscodingOutputStream.encoding(sink, MagicNumber.NONE);
        encoding.write(bytes("41 F0 90"));
        assertThat(sink.size()).isZero();

        encoding.flush();
        assertThat(hex(sink.toByteArray())).isEqualTo("41");

        encoding.write(bytes("B9 BD"));
        encoding.flush();
        assertThat(hex(sink.toByteArray())).isEqualTo("41 EF B7 9D"); // U+10E7D
    }

    @Test
    void streamsInputManyTimesTheBufferSize() throws IOException {
        // 1 MiB of U+0800, which grows from 2 Corrected bytes to 3 UTF-8 bytes, in odd-sized writes.
        byte[] corrected = new byte[1 << 20];
        for (int i = 0; i < corrected.length; i += 2) {
            CorrectedUtf8.encode(0x800, corrected, i);
        }
        CountingSink sink = new CountingSink();
        try (TranscodingOutputStream decoding = TranscodingOutputStream.decoding(sink, MagicNumber.NONE)) {
            for (int at = 0; at < corrected.length; at += 4093) {
                decoding.write(corrected, at, Math.min(4093, corrected.length - at));
            }
        }

        assertThat(sink.count).isEqualTo(corrected.length / 2 * 3);
        assertThat(sink.largestWrite).isLessThanOrEqualTo(8192);
    }

    @Test
    void rejectsAnOutOfBoundsRange() {
        TranscodingOutputStream encoding =
                TranscodingOutputStream.encoding(new ByteArrayOutputStream(), MagicNumber.NONE);

        assertThatThrownBy(() -> encoding.write(new byte[4], 3, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    private static final class ClosingSink extends ByteArrayOutputStream {
        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    private static final class CountingSink extends OutputStream {
        long count;
        int largestWrite;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
            largestWrite = Math.max(largestWrite, len);
        }
    }
}
