package dev.utf8sanitiser.app.console;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Header;

/**
 * Chosen records as NDJSON, one line a record, written as they are read: coordinates, timestamp,
 * key, value and headers as hex or base64, and the annotation. The bytes of the key, the value and
 * the record's own headers are written only with {@code sanitiser.console.show.payload}, as the
 * pages show them; otherwise their length ({@code traceparent} and {@code tracestate} are written
 * always). The last line says whether the export is complete, and if not, where to go on.
 */
final class Export {
    /** The most records one export writes. */
    static final int MAX_RECORDS = 10_000;
    /** The most records one export reads to find them. */
    static final long MAX_SCANNED = 200_000;
    /** The longest one export reads. */
    static final Duration MAX_TIME = Duration.ofSeconds(60);

    static final Set<String> TRACE_HEADERS = Set.of("traceparent", "tracestate");
    private static final JsonFactory JSON = new JsonFactory();

    private final JsonGenerator json;
    private final boolean base64;
    private final boolean showPayload;
    private long written;

    Export(OutputStream out, boolean base64, boolean showPayload) {
        try {
            this.json = JSON.createGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.base64 = base64;
        this.showPayload = showPayload;
        json.setRootValueSeparator(null);
    }

    long written() {
        return written;
    }

    /** One record's line. */
    void write(DeadLetter record) {
        try {
            json.writeStartObject();
            json.writeStringField("topic", record.topic());
            json.writeNumberField("partition", record.partition());
            json.writeNumberField("offset", record.offset());
            json.writeNumberField("timestamp", record.timestamp());
            bytes("key", record.key(), showPayload);
            bytes("value", record.value(), showPayload);
            int own = DeadLetterHeaders.original(record.headers()).size();
            json.writeArrayFieldStart("headers");
            List<Header> headers = record.headers();
            for (int i = 0; i < headers.size(); i++) {
                Header h = headers.get(i);
                json.writeStartObject();
                json.writeStringField("name", h.key());
                boolean shown = showPayload || i >= own || TRACE_HEADERS.contains(h.key());
                bytes("value", h.value(), shown);
                json.writeEndObject();
            }
            json.writeEndArray();
            if (record.annotation().isPresent()) {
                annotation(record.annotation().get());
            }
            json.writeEndObject();
            json.writeRaw('\n');
            json.flush();
            written++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The last line: {@code {"end":"complete"}}, {@code "limit"} with the cursor a further export
     * goes on from, or {@code "error"} with why the export stopped.
     */
    void end(Optional<Cursor> next, String why) {
        end(next.isEmpty() ? "complete" : "limit", next, why);
    }

    void end(String kind, Optional<Cursor> next, String why) {
        try {
            json.writeStartObject();
            json.writeStringField("end", kind);
            json.writeNumberField("records", written);
            if (next.isPresent()) {
                json.writeStringField("cursor", next.get().toString());
            }
            if (!why.isEmpty()) {
                json.writeStringField("why", why);
            }
            json.writeEndObject();
            json.writeRaw('\n');
            json.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void bytes(String name, byte[] bytes, boolean shown) throws IOException {
        if (bytes == null) {
            json.writeNullField(name);
            return;
        }
        json.writeObjectFieldStart(name);
        json.writeNumberField("length", bytes.length);
        if (shown) {
            json.writeStringField(
                    base64 ? "base64" : "hex",
                    base64
                            ? Base64.getEncoder().encodeToString(bytes)
                            : HexFormat.of().formatHex(bytes));
        }
        json.writeEndObject();
    }

    private void annotation(DeadLetterHeaders a) throws IOException {
        json.writeObjectFieldStart("annotation");
        json.writeStringField("rule", a.rule());
        json.writeStringField("part", a.part());
        if (a.field().isPresent()) {
            json.writeStringField("field", a.field().get());
        }
        json.writeNumberField("byteOffset", a.offset());
        json.writeNumberField("length", a.length());
        json.writeNumberField("errors", a.errors());
        json.writeStringField("policy", a.policy());
        json.writeObjectFieldStart("source");
        json.writeStringField("topic", a.source().topic());
        json.writeNumberField("partition", a.source().partition());
        json.writeNumberField("offset", a.source().offset());
        json.writeNumberField("timestamp", a.sourceTimestamp());
        json.writeEndObject();
        json.writeStringField("message", a.message());
        if (a.cause().isPresent()) {
            json.writeStringField("cause", a.cause().get());
        }
        json.writeBooleanField("placeholder", a.placeholder());
        json.writeEndObject();
    }
}
