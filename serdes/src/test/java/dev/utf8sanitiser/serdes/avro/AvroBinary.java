package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.io.ByteArrayOutputStream;

/** Avro binary written by hand, after the wire-format prefix: what no Avro writer would write. */
final class AvroBinary {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    AvroBinary(int schemaId) {
        out.writeBytes(WireFormat.prefix(schemaId));
    }

    /** A zig-zag varint, as Avro writes int and long. */
    AvroBinary varint(long n) {
        long v = (n << 1) ^ (n >> 63);
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
        return this;
    }

    AvroBinary string(byte[] text) {
        varint(text.length);
        out.writeBytes(text);
        return this;
    }

    AvroBinary raw(int... values) {
        out.writeBytes(SchemaWalkerTest.bytes(values));
        return this;
    }

    int size() {
        return out.size();
    }

    byte[] bytes() {
        return out.toByteArray();
    }
}
