package dev.utf8sanitiser.bench;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Avro values ConnectBenchmark loads, read back by Avro's own reader. */
class ConnectBenchmarkTest {
    @ParameterizedTest
    @ValueSource(ints = {40, 100, 142, 143, 1024, 4096})
    void anAvroValueHasTheSizeAskedForAndAvroReadsItUnderTheSchema(int size) throws Exception {
        byte[] text = new byte[ConnectBenchmark.avroTextSize(size)];
        Arrays.fill(text, (byte) 'x');
        text[0] = (byte) 0xC3; // "é" as UTF-8: a non-ASCII string goes through unchanged
        text[1] = (byte) 0xA9;

        byte[] value = ConnectBenchmark.avro(7, 12, text);

        assertThat(value).hasSize(size);
        assertThat(Arrays.copyOf(value, 5)).isEqualTo(WireFormat.prefix(7));
        Schema schema = new Schema.Parser().parse(ConnectBenchmark.SCHEMA);
        var decoder = DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, null);
        GenericRecord record = new GenericDatumReader<GenericRecord>(schema).read(null, decoder);
        assertThat(decoder.isEnd()).as("nothing after the record").isTrue();
        assertThat(record.get("id")).hasToString("m-00000012");
        Utf8 read = (Utf8) record.get("text");
        assertThat(ByteBuffer.wrap(read.getBytes(), 0, read.getByteLength())).isEqualTo(ByteBuffer.wrap(text));
        assertThat(new String(text, UTF_8)).startsWith("é");
    }
}
