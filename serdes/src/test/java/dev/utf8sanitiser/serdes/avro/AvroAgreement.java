package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.serdes.SmallStack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;

/**
 * The oracle of the Avro fuzz tests (docs/reliability.md): {@link SchemaWalker} against Apache
 * Avro's own {@link GenericDatumReader} on the same bytes.
 *
 * <p>How the strings are compared, fairly: Avro's reader is asked for each string as raw bytes
 * ({@link Utf8}, never decoded into a Java {@code String}, which would turn ill-formed bytes into
 * U+FFFD), in the order it reads them, map keys included; the walker's visitor gets the same
 * strings in the order of the binary. So both lists are byte arrays in binary order and must be
 * equal, whatever the bytes of the strings are.
 *
 * <p>Which bytes the walker must accept: the walker is stricter than Avro by design (its class
 * comment): Avro reads a boolean byte 2 as false, an overlong varint, and so on. So the walker
 * must accept the bytes Avro decodes completely (no byte left over) and that Avro's own writer
 * writes back byte for byte (canonical), short of the walker's two documented limits (nesting
 * deeper than {@link SchemaWalker#MAX_DEPTH}, more than 2^20 values in items that take no bytes, a
 * schema that holds a type with no finite value, which Avro reads when the value holds none of it
 * and the type does not hold itself through records only); on bytes
 * that Avro decodes but would write differently, the walker may refuse. Conversely, whatever the
 * walker accepts, Avro must decode completely.
 *
 * <p>Avro allocates what a length or a block count declares before it reads the bytes, so this
 * module's tests run with Avro's limits (its {@code org.apache.avro.limits.*} properties) set low in
 * serdes/pom.xml: else ten fuzzed bytes ask Avro, not the walker, for gigabytes.
 */
final class AvroAgreement {
    private AvroAgreement() {}

    /** What the walker made of the bytes: the strings it visited, or its verdict. */
    record Walked(List<byte[]> strings, MalformedAvroException malformed) {}

    /** What Avro made of the bytes; {@code strings} is null when it failed or left bytes over. */
    record Read(List<byte[]> strings, Object datum, String failure) {}

    static Walked walk(SchemaWalker walker, byte[] input) {
        List<byte[]> strings = new ArrayList<>();
        try {
            byte[] out = walker.walk(input, 0, input.length, (path, bytes, offset, length) -> {
                strings.add(Arrays.copyOfRange(bytes, offset, offset + length));
                return null;
            });
            assertThat(out).isSameAs(input);
            return new Walked(strings, null);
        } catch (MalformedAvroException e) {
            assertThat(e.offset()).isBetween(0, input.length);
            return new Walked(List.of(), e);
        }
    }

    /** Avro's reading of {@code input}, on a thread with {@link AvroReadBack#STACK_BYTES} of stack, as a consumer's. */
    static Read read(Schema schema, byte[] input) {
        return SmallStack.get(AvroReadBack.STACK_BYTES, () -> readHere(schema, input));
    }

    private static Read readHere(Schema schema, byte[] input) {
        RecordingReader reader = new RecordingReader(schema);
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(input, null);
        try {
            Object datum = reader.read(null, decoder);
            if (!decoder.isEnd()) {
                return new Read(null, null, "bytes left over");
            }
            return new Read(reader.strings, datum, null);
        } catch (IOException | RuntimeException e) {
            // Avro's ways of refusing: EOF, a negative length, its limits (UnsupportedOperationException),
            // a union or enum index out of range. Recorded, so a refusal of bytes the walker
            // accepted fails the test with Avro's reason.
            return new Read(null, null, e.toString());
        } catch (StackOverflowError e) {
            // Avro's reader recurses; the walker, on its heap stack, must still decide.
            return new Read(null, null, "Avro's reader overflowed its stack");
        }
    }

    /** Checks the walker against Avro on {@code input}; returns what the walker made of it. */
    static Walked agree(Schema schema, SchemaWalker walker, byte[] input) {
        Walked walked = walk(walker, input);
        Read read = read(schema, input);
        if (walked.malformed() == null) {
            assertThat(read.failure()).as("Avro on bytes the walker accepted").isNull();
            assertThat(hex(read.strings())).isEqualTo(hex(walked.strings()));
        } else if (read.failure() == null && canonical(schema, read.datum(), input)) {
            assertThat(walked.malformed().getMessage())
                    .as("the walker refused bytes Avro reads and writes back as they are")
                    .containsAnyOf("nested deeper than", "items that take no bytes", "a type with no finite value");
        }
        return walked;
    }

    private static List<String> hex(List<byte[]> strings) {
        return strings.stream().map(HexFormat.of()::formatHex).toList();
    }

    private static boolean canonical(Schema schema, Object datum, byte[] input) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            new GenericDatumWriter<>(schema).write(datum, encoder);
            encoder.flush();
            return Arrays.equals(out.toByteArray(), input);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Avro's reader, asked for every string (values and map keys) as raw bytes, in binary order. */
    private static final class RecordingReader extends GenericDatumReader<Object> {
        final List<byte[]> strings = new ArrayList<>();

        RecordingReader(Schema schema) {
            super(schema, schema, classicReader());
        }

        /** Avro 1.12 reads with its "fast reader" by default, which calls none of the methods below. */
        private static GenericData classicReader() {
            GenericData data = new GenericData();
            data.setFastReaderEnabled(false);
            return data;
        }

        @Override
        protected Object readString(Object old, Schema expected, Decoder in) throws IOException {
            Utf8 string = in.readString(null);
            strings.add(Arrays.copyOf(string.getBytes(), string.getByteLength()));
            return string;
        }

        /** Keeps a map's entries in the order of the binary, so that writing it back can be compared. */
        @Override
        protected Object newMap(Object old, int size) {
            return new LinkedHashMap<>();
        }
    }
}
