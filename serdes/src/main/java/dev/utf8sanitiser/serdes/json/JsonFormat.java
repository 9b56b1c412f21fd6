package dev.utf8sanitiser.serdes.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.RecordChecks;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * JSON values (RFC 8259): the whole document must be well-formed UTF-8 (section 8.1), and each
 * finding is named by the field it falls in. A value that does not parse is {@code INVALID_JSON},
 * under every policy.
 *
 * <p>The document is checked as one text, so content rules see its bytes as stored: a character
 * written as an escape ({@code \u0000}) is not seen by them. Ill-formed bytes can only stand inside
 * strings in valid JSON (every structural character is ASCII), so the document is parsed with each
 * ill-formed byte masked as {@code ?}: the parse says whether it is JSON at all, and offsets stay
 * those of the stored value. Under {@code repair}, Modified UTF-8's {@code C0 80} becomes the escape
 * {@code \u0000}, as a raw NUL is not allowed in a JSON string.
 *
 * <p>Optionally, {@code LONE_SURROGATE_ESCAPE}: an escape such as {@code \uD800} with no partner is
 * valid JSON grammar but names no character (RFC 8259 section 8.2), and decoders turn it into U+FFFD
 * or '?' as silently as they do ill-formed bytes. It is treated as an ill-formed sequence: rejected
 * under {@code strict}, written as {@code \uFFFD} otherwise.
 */
public final class JsonFormat implements ValueFormat {
    public static final String INVALID_JSON = "INVALID_JSON";
    public static final String LONE_SURROGATE_ESCAPE = "LONE_SURROGATE_ESCAPE";

    /**
     * The deepest nesting of objects and arrays a document may have; deeper is {@code INVALID_JSON}.
     * Jackson's own default ({@code StreamReadConstraints}), so what passes here a Jackson consumer
     * with default settings reads too. Jackson's streaming parser does not recurse, so this is not
     * about our stack: each level costs a parsing context on the heap, and a path as long as the
     * nesting.
     */
    static final int MAX_DEPTH = 1000;

    /**
     * Jackson's streaming parser with its size limits lifted, but for the nesting: a large document
     * is still JSON.
     */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxNestingDepth(MAX_DEPTH)
                    .build())
            .build();

    private static final byte[] ESCAPED_NUL = {'\\', 'u', '0', '0', '0', '0'};
    private static final byte[] ESCAPED_REPLACEMENT = {'\\', 'u', 'F', 'F', 'F', 'D'};

    private final boolean checkSurrogateEscapes;

    /** @param checkSurrogateEscapes whether {@code LONE_SURROGATE_ESCAPE} is checked */
    public JsonFormat(boolean checkSurrogateEscapes) {
        this.checkSurrogateEscapes = checkSurrogateEscapes;
    }

    @Override
    public byte[] check(Part part, byte[] value, RecordChecks checks) {
        byte[] parseable = Utf8Validator.isWellFormed(value) ? value : masked(value);
        Optional<Invalid> invalid = parse(parseable);
        if (invalid.isPresent()) {
            Invalid at = invalid.get();
            int shown = at.offset < value.length ? 1 : 0;
            checks.reject(new Finding(part, at.field, INVALID_JSON, at.offset, shown, shown, value));
            return value;
        }
        JsonFieldLocator fields = new JsonFieldLocator(parseable);
        byte[] out = checks.text(part, value, fields::fieldAt);
        if (out != value && parseable != value) {
            out = escapeNul(out); // a valid document held no raw NUL: each one is a repaired C0 80
        }
        if (checkSurrogateEscapes) {
            out = loneSurrogateEscapes(part, out, out == value ? fields : new JsonFieldLocator(out), checks);
        }
        return out;
    }

    /** Where a document stops being JSON. */
    private record Invalid(int offset, Optional<String> field) {}

    private static Optional<Invalid> parse(byte[] document) {
        try (JsonParser parser = FACTORY.createParser(document)) {
            try {
                if (parser.nextToken() == null) {
                    return Optional.of(new Invalid(document.length, Optional.empty())); // no value at all
                }
                parser.skipChildren();
                if (parser.nextToken() != null) {
                    return Optional.of(
                            new Invalid((int) parser.currentTokenLocation().getByteOffset(), Optional.empty()));
                }
                return Optional.empty();
            } catch (StreamConstraintsException e) {
                // Nested too deep: Jackson stops just after the bracket that opens one level too many.
                int at = (int) parser.currentLocation().getByteOffset() - 1;
                return Optional.of(new Invalid(at, JsonFieldLocator.path(parser.getParsingContext())));
            } catch (JsonProcessingException e) {
                long offset = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
                if (offset < 0) {
                    offset = parser.currentLocation().getByteOffset();
                }
                int at = (int) Math.max(0, Math.min(offset, document.length));
                return Optional.of(new Invalid(at, JsonFieldLocator.path(parser.getParsingContext())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading from an array", e);
        }
    }

    /** A copy with every byte of every ill-formed subpart replaced by {@code ?}. */
    private static byte[] masked(byte[] value) {
        byte[] copy = value.clone();
        Utf8Validator.forEachIllFormed(
                value,
                0,
                value.length,
                (at, length, rule) -> Arrays.fill(copy, (int) at, (int) at + length, (byte) '?'));
        return copy;
    }

    private static byte[] escapeNul(byte[] document) {
        int nuls = 0;
        for (byte b : document) {
            nuls += b == 0 ? 1 : 0;
        }
        if (nuls == 0) {
            return document;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(document.length + 5 * nuls);
        for (byte b : document) {
            if (b == 0) {
                out.writeBytes(ESCAPED_NUL);
            } else {
                out.write(b);
            }
        }
        return out.toByteArray();
    }

    /**
     * Finds {@code \uD800}-style escapes without a partner in a valid document's strings; reports
     * each, and writes {@code \uFFFD} over each one the policy fixes (same length, so offsets hold).
     */
    private static byte[] loneSurrogateEscapes(
            Part part, byte[] document, JsonFieldLocator fields, RecordChecks checks) {
        byte[] out = document;
        boolean inString = false;
        int pendingHigh = -1; // the offset of a high-surrogate escape not yet matched
        for (int i = 0; i < document.length; i++) {
            byte b = document[i];
            if (!inString) {
                inString = b == '"';
                continue;
            }
            if (b == '"') {
                out = lone(part, pendingHigh, document, out, fields, checks);
                pendingHigh = -1;
                inString = false;
            } else if (b == '\\') {
                int unit = document[i + 1] == 'u' ? hex4(document, i + 2) : -1;
                boolean high = unit >= 0xD800 && unit <= 0xDBFF;
                boolean low = unit >= 0xDC00 && unit <= 0xDFFF;
                if (low && pendingHigh >= 0 && pendingHigh == i - 6) {
                    pendingHigh = -1; // a pair
                } else {
                    out = lone(part, pendingHigh, document, out, fields, checks);
                    pendingHigh = -1;
                    if (high) {
                        pendingHigh = i;
                    } else if (low) {
                        out = lone(part, i, document, out, fields, checks);
                    }
                }
                i += unit >= 0 ? 5 : 1;
            }
        }
        return out;
    }

    private static byte[] lone(
            Part part, int at, byte[] document, byte[] out, JsonFieldLocator fields, RecordChecks checks) {
        if (at < 0) {
            return out;
        }
        if (!checks.illFormed(() -> new Finding(part, fields.fieldAt(at), LONE_SURROGATE_ESCAPE, at, 6, 6, document))) {
            return out;
        }
        byte[] fixed = out == document ? document.clone() : out;
        System.arraycopy(ESCAPED_REPLACEMENT, 0, fixed, at, 6);
        return fixed;
    }

    /** The value of 4 hex digits at {@code at}; valid JSON guarantees they are there. */
    private static int hex4(byte[] b, int at) {
        return Integer.parseInt(new String(b, at, 4, java.nio.charset.StandardCharsets.US_ASCII), 16);
    }
}
