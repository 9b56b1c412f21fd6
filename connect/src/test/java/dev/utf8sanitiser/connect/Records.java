package dev.utf8sanitiser.connect;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;

/** Records and bytes for the tests, and what a test reads back from a record's headers. */
final class Records {
    static final long TIMESTAMP = 1_700_000_000_000L;

    /** "abc", a CESU-8-style lone surrogate U+D800 (ED A0 80), "d". */
    static final byte[] SURROGATE = bytes("abc", 0xED, 0xA0, 0x80, "d");

    /** U+1F600 as a CESU-8 pair: what a database in CESU-8 exports. */
    static final byte[] CESU8_PAIR = bytes("x", 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80);

    /** "café" in Latin-1, read as UTF-8. */
    static final byte[] LATIN1 = bytes("caf", 0xE9);

    private Records() {}

    /** Strings as their UTF-8 bytes and integers as single bytes, in order. */
    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(s.getBytes(UTF_8));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }

    static byte[] utf8(String s) {
        return s.getBytes(UTF_8);
    }

    static SinkRecord sink(Schema valueSchema, Object value) {
        return sink(Schema.OPTIONAL_BYTES_SCHEMA, utf8("k"), valueSchema, value);
    }

    static SinkRecord sink(Schema keySchema, Object key, Schema valueSchema, Object value) {
        Headers headers = new ConnectHeaders().addString("trace", "t-1");
        return new SinkRecord(
                "orders", 2, keySchema, key, valueSchema, value, 41L, TIMESTAMP, TimestampType.CREATE_TIME, headers);
    }

    /** A source record as a connector that reads a file or a table makes it. */
    static SourceRecord source(Schema valueSchema, Object value) {
        return new SourceRecord(
                Map.of("file", "/data/in.txt"),
                Map.of("position", 1234L),
                "lines",
                null,
                Schema.OPTIONAL_BYTES_SCHEMA,
                utf8("k"),
                valueSchema,
                value,
                TIMESTAMP,
                new ConnectHeaders().addString("trace", "t-1"));
    }

    /** A source record as MirrorMaker 2 makes it: the maps name a Kafka position. */
    static SourceRecord mirrored(Schema valueSchema, Object value) {
        Map<String, Object> partition = new HashMap<>();
        partition.put("cluster", "legacy");
        partition.put("topic", "orders");
        partition.put("partition", 3);
        return new SourceRecord(
                partition,
                Map.of("offset", 99L),
                "legacy.orders",
                3,
                Schema.OPTIONAL_BYTES_SCHEMA,
                utf8("k"),
                valueSchema,
                value,
                TIMESTAMP,
                new ConnectHeaders().addBytes("trace", utf8("t-1")));
    }

    /** The last header of that name as text, whichever type the SMT wrote it in; null when absent. */
    static String header(Headers headers, String name) {
        Header header = headers.lastWithName(name);
        if (header == null) {
            return null;
        }
        Object value = header.value();
        return value instanceof byte[] bytes ? new String(bytes, UTF_8) : (String) value;
    }

    /** Every header as name=text, in order. */
    static Map<String, String> headers(Headers headers) {
        Map<String, String> all = new LinkedHashMap<>();
        for (Header header : headers) {
            Object value = header.value();
            all.put(header.key(), value instanceof byte[] bytes ? new String(bytes, UTF_8) : String.valueOf(value));
        }
        return all;
    }

    static Map<String, Object> props(Object... keysAndValues) {
        Map<String, Object> props = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }
}
