package dev.utf8sanitiser.serdes.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which string of a valid JSON document a byte offset falls in, as docs/dlq.md's {@code __utf8.field}
 * spells it: {@code customer.name}, {@code lines[3].sku}; an object key itself is its object's path
 * followed by {@code {}}, as a map key is in Avro. The document is parsed again only when the first
 * finding asks, so well-formed documents pay nothing for it.
 */
final class JsonFieldLocator {
    private final byte[] document;
    private List<Span> spans;

    JsonFieldLocator(byte[] document) {
        this.document = document;
    }

    /** A string token, from its opening quote to after its closing quote. */
    private record Span(long start, long end, String field) {}

    /** The field of the string that holds {@code offset}; empty outside strings or at the top. */
    Optional<String> fieldAt(long offset) {
        if (spans == null) {
            spans = spans(document);
        }
        int low = 0;
        int high = spans.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            Span span = spans.get(mid);
            if (offset < span.start) {
                high = mid - 1;
            } else if (offset >= span.end) {
                low = mid + 1;
            } else {
                return span.field.isEmpty() ? Optional.empty() : Optional.of(span.field);
            }
        }
        return Optional.empty();
    }

    private static List<Span> spans(byte[] document) {
        List<Span> spans = new ArrayList<>();
        try (JsonParser parser = JsonFormat.FACTORY.createParser(document)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME) {
                    long start = parser.currentTokenLocation().getByteOffset();
                    String field = token == JsonToken.FIELD_NAME
                            ? path(parser.getParsingContext().getParent(), null).orElse("") + "{}"
                            : path(parser.getParsingContext(), null).orElse("");
                    spans.add(new Span(start, stringEnd(document, (int) start), field));
                }
            }
        } catch (IOException e) {
            // Only documents that parsed are located; a failure here is a bug, not bad data.
            throw new UncheckedIOException("locating fields in a document that parsed", e);
        }
        return spans;
    }

    /** After the closing quote of the string whose opening quote is at {@code quote}. */
    private static long stringEnd(byte[] document, int quote) {
        int i = quote + 1;
        while (i < document.length && document[i] != '"') {
            i += document[i] == '\\' ? 2 : 1;
        }
        return i + 1;
    }

    /**
     * The path of the value the parser is at, inside {@code context}: fields joined by dots, array
     * indexes in brackets. {@code stop} ends the walk up (null: the root).
     */
    static Optional<String> path(JsonStreamContext context, JsonStreamContext stop) {
        List<JsonStreamContext> chain = new ArrayList<>();
        for (JsonStreamContext c = context; c != null && c != stop && !c.inRoot(); c = c.getParent()) {
            chain.add(0, c);
        }
        StringBuilder s = new StringBuilder();
        for (JsonStreamContext c : chain) {
            if (c.inObject()) {
                if (c.getCurrentName() == null) {
                    break; // an object whose first key is not read yet
                }
                if (s.length() > 0) {
                    s.append('.');
                }
                s.append(c.getCurrentName());
            } else if (c.inArray() && c.getCurrentIndex() >= 0) {
                s.append('[').append(c.getCurrentIndex()).append(']');
            }
        }
        return s.length() == 0 ? Optional.empty() : Optional.of(s.toString());
    }
}
