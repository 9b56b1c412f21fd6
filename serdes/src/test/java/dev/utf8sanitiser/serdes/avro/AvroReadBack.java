package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.serdes.SmallStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * The oracle of what reaches the clean topic: Apache Avro's own {@link GenericDatumReader}, as a
 * consumer of that topic runs it, reads a value back completely, on a thread with a bounded stack.
 * Both of its readers: the "fast" one, Avro 1.12's default, and the classic one; Avro's reader
 * recurses, so a value too deep or of a type with no finite value overflows its stack.
 */
final class AvroReadBack {
    /** The stack of the reading thread: half of HotSpot's default on 64-bit Linux. */
    static final int STACK_BYTES = 512 * 1024;

    private AvroReadBack() {}

    /**
     * What stopped Avro's readers reading the datum in {@code bytes[from, bytes.length)} under
     * {@code schema} completely, one entry a reader; empty when both read it to its last byte.
     */
    static List<String> failures(Schema schema, byte[] bytes, int from) {
        List<String> failures = new ArrayList<>();
        for (boolean fast : new boolean[] {true, false}) {
            GenericData data = new GenericData();
            data.setFastReaderEnabled(fast);
            String reader = fast ? "Avro's fast reader: " : "Avro's classic reader: ";
            String failure = SmallStack.get(STACK_BYTES, () -> read(schema, data, bytes, from));
            if (failure != null) {
                failures.add(reader + failure);
            }
        }
        return failures;
    }

    /**
     * Whether a map of the datum in {@code bytes[from, bytes.length)}, as Avro's classic reader reads
     * it, holds two keys that are equal once decoded with the JDK's UTF-8 decoder, which puts U+FFFD
     * for each maximal subpart: the oracle for a fix that would make keys collide.
     */
    static boolean mapKeysCollideOnceDecoded(Schema schema, byte[] bytes, int from) {
        return SmallStack.get(STACK_BYTES, () -> {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, from, bytes.length - from, null);
            try {
                return keysCollide(new GenericDatumReader<Object>(schema).read(null, decoder));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static boolean keysCollide(Object datum) {
        if (datum instanceof GenericRecord record) {
            for (Schema.Field field : record.getSchema().getFields()) {
                if (keysCollide(record.get(field.pos()))) {
                    return true;
                }
            }
        } else if (datum instanceof Collection<?> items) {
            for (Object item : items) {
                if (keysCollide(item)) {
                    return true;
                }
            }
        } else if (datum instanceof Map<?, ?> map) {
            Set<String> decoded = new HashSet<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!decoded.add(decoded(entry.getKey())) || keysCollide(entry.getValue())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String decoded(Object key) {
        return key instanceof Utf8 utf8
                ? new String(utf8.getBytes(), 0, utf8.getByteLength(), StandardCharsets.UTF_8)
                : key.toString();
    }

    private static String read(Schema schema, GenericData data, byte[] bytes, int from) {
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, from, bytes.length - from, null);
            new GenericDatumReader<Object>(schema, schema, data).read(null, decoder);
            return decoder.isEnd() ? null : "bytes left over";
        } catch (StackOverflowError e) {
            return "StackOverflowError";
        } catch (Exception | Error e) {
            return e.toString();
        }
    }
}
