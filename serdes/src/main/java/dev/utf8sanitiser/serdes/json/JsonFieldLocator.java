package dev.utf8sanitiser.serdes.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import dev.utf8sanitiser.serdes.record.FieldPathSpelling;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which string of a valid JSON document a byte offset falls in, as docs/dlq.md's {@code
 * __utf8.field} spells it: {@code customer.name}, {@code lines[3].sku}; an object key itself is its
 * object's path followed by {@code {}}, as a map key is in Avro.
 *
 * <p>Each question parses the document from its start to that string and renders that one path:
 * linear in the document, whatever its nesting. It is asked only for the finding that describes the
 * record, so well-formed documents pay nothing for it and a document of thousands of bad strings
 * pays once.
 */
final class JsonFieldLocator {
    private final byte[] document;

    JsonFieldLocator(byte[] document) {
        this.document = document;
    }

    /** The field of the string that holds {@code offset}; empty outside strings or at the top. */
    Optional<String> fieldAt(long offset) {
        try (JsonParser parser = JsonFormat.FACTORY.createParser(document)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME) {
                    long start = parser.currentTokenLocation().getByteOffset();
                    if (offset < start) {
                        return Optional.empty(); // between tokens
                    }
                    if (offset < stringEnd(document, (int) start)) {
                        return token == JsonToken.FIELD_NAME
                                ? Optional.of(path(parser.getParsingContext().getParent())
                                                .orElse("") + "{}")
                                : path(parser.getParsingContext());
                    }
                }
            }
        } catch (IOException e) {
            // Only documents that parsed are located; a failure here is a bug, not bad data.
            throw new UncheckedIOException("locating fields in a document that parsed", e);
        }
        return Optional.empty();
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
     * indexes in brackets. Linear in the nesting.
     */
    static Optional<String> path(JsonStreamContext context) {
        List<JsonStreamContext> chain = new ArrayList<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            chain.add(c);
        }
        FieldPathSpelling path = new FieldPathSpelling();
        for (int i = chain.size() - 1; i >= 0; i--) {
            JsonStreamContext c = chain.get(i);
            if (c.inObject()) {
                if (c.getCurrentName() == null) {
                    break; // an object whose first key is not read yet
                }
                path.field(c.getCurrentName());
            } else if (c.inArray() && c.getCurrentIndex() >= 0) {
                path.index(c.getCurrentIndex());
            }
        }
        return path.isEmpty() ? Optional.empty() : Optional.of(path.toString());
    }
}
