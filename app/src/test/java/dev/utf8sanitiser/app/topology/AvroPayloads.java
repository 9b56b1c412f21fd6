package dev.utf8sanitiser.app.topology;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.ByteArrayOutputStream;

/**
 * Avro records in Confluent's wire format for the fault tests: {@code count} writer schemas,
 * registered up front and met one after the other through the run (record {@code i} of {@code n}
 * uses schema {@code i * count / n}), so that the sanitiser keeps asking the registry for schemas
 * it has not seen. One record in a hundred has a CESU-8 surrogate in its {@code text} field.
 */
final class AvroPayloads {
    private final String subject;
    private final int[] ids;

    AvroPayloads(String topic, int count) {
        this.subject = topic + "-value";
        this.ids = new int[count];
    }

    void register(TestSchemaRegistry registry) {
        for (int n = 0; n < ids.length; n++) {
            ids[n] = registry.register(subject, schema(n));
        }
    }

    private static String schema(int n) {
        return "{\"type\":\"record\",\"name\":\"Event\",\"namespace\":\"fault.v" + n + "\",\"fields\":["
                + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"text\",\"type\":\"string\"}]}";
    }

    byte[] value(int i, int records) {
        int id = ids[(int) ((long) i * ids.length / records)];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0); // Confluent's magic byte, then the schema id, big-endian
        out.write(id >>> 24);
        out.write(id >>> 16);
        out.write(id >>> 8);
        out.write(id);
        writeString(out, ("record " + i).getBytes(UTF_8));
        writeString(out, FaultSuite.value(i)); // ill-formed one time in a hundred
        return out.toByteArray();
    }

    /** An Avro string: its length as a zig-zag varint, then its bytes as they are. */
    private static void writeString(ByteArrayOutputStream out, byte[] bytes) {
        long zigzag = (long) bytes.length << 1;
        while ((zigzag & ~0x7FL) != 0) {
            out.write((int) ((zigzag & 0x7F) | 0x80));
            zigzag >>>= 7;
        }
        out.write((int) zigzag);
        out.write(bytes, 0, bytes.length);
    }
}
