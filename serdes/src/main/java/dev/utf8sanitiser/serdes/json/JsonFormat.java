package dev.utf8sanitiser.serdes.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.registry.NotAvroSchemaException;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.registry.UnknownSchemaException;
import dev.utf8sanitiser.registry.UnusableSchemaException;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.FieldPath;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.RecordChecks;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Supplier;

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
 * under {@code strict}, written as {@code \uFFFD} otherwise; in an object key as in a value (Jackson
 * refuses it in a key, so the document is parsed with such keys masked).
 *
 * <p>With a registry, a value framed as Confluent's JSON Schema serializer frames it (magic byte 0,
 * a 4-byte schema id, then the JSON text) is checked after the prefix, offsets counted from the
 * magic byte, and its id must name a JSON schema. Without one nothing vouches for the id's bytes,
 * which are no text: such a value is the JSON text it is, which cannot start with a NUL, so it is
 * {@code INVALID_JSON} at byte 0. Every byte sent on has been checked. Protobuf is not supported.
 */
public final class JsonFormat implements ValueFormat {
    /** The registry's name for a JSON Schema ({@code schemaType}). */
    static final String JSON_SCHEMA = "JSON";

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

    private final boolean checkSurrogateEscapes;
    private final Optional<Supplier<SchemaRegistry>> registry;

    /** @param checkSurrogateEscapes whether {@code LONE_SURROGATE_ESCAPE} is checked */
    public JsonFormat(boolean checkSurrogateEscapes) {
        this(checkSurrogateEscapes, Optional.empty());
    }

    /**
     * @param checkSurrogateEscapes whether {@code LONE_SURROGATE_ESCAPE} is checked
     * @param registry where the schema id of a Confluent-framed value is checked to name a JSON
     *     schema; without one no value is read as framed
     */
    public JsonFormat(boolean checkSurrogateEscapes, Optional<Supplier<SchemaRegistry>> registry) {
        this.checkSurrogateEscapes = checkSurrogateEscapes;
        this.registry = registry;
    }

    @Override
    public byte[] check(Part part, byte[] value, RecordChecks checks) {
        int start = 0;
        // Confluent's JSON Schema serializer writes its magic byte 0 and a 4-byte schema id before
        // the JSON text, and a JSON text never starts with 0x00: such a value is the document after
        // the prefix, offsets still counted from the magic byte, once the registry has vouched for
        // the id. Without a registry it is read whole, and its NUL is no JSON.
        if (registry.isPresent() && WireFormat.hasPrefix(value)) {
            Optional<DeadLetterRule> refused = framing(value);
            if (refused.isPresent()) {
                checks.reject(new Finding(part, refused.get(), 1, 4, 4, value));
                return value;
            }
            start = WireFormat.PREFIX_LENGTH;
        }
        return document(part, value, start, checks);
    }

    /**
     * Why a framed value's schema id rules it out: {@code UNKNOWN_SCHEMA} when the registry has no
     * such id, {@code INVALID_JSON} when the id names an Avro or Protobuf schema (the bytes after it
     * are not JSON), as {@code NOT_AVRO} says of an Avro value whose id names a JSON schema.
     */
    private Optional<DeadLetterRule> framing(byte[] value) {
        try {
            registry.get().get().schema(WireFormat.schemaId(value));
            return Optional.of(DeadLetterRule.INVALID_JSON); // an Avro schema
        } catch (UnknownSchemaException e) {
            return Optional.of(DeadLetterRule.UNKNOWN_SCHEMA);
        } catch (UnusableSchemaException e) {
            // An Avro schema, but one that cannot be used: the bytes after the id are not JSON either way.
            return Optional.of(DeadLetterRule.INVALID_JSON);
        } catch (NotAvroSchemaException e) {
            return e.schemaType().equals(JSON_SCHEMA) ? Optional.empty() : Optional.of(DeadLetterRule.INVALID_JSON);
        }
    }

    /** The JSON text {@code value[start, end)}. */
    private byte[] document(Part part, byte[] value, int start, RecordChecks checks) {
        byte[] doc = start == 0 ? value : Arrays.copyOfRange(value, start, value.length);
        boolean wellFormed = Utf8Validator.isWellFormed(doc);
        byte[] parseable = wellFormed ? doc : masked(doc);
        Optional<Invalid> invalid = parse(parseable);
        boolean keysEscaped = false;
        if (invalid.isPresent()) {
            // Jackson refuses a lone surrogate escape in a key, though it takes one in a value: it
            // is the same JSON either way, and LONE_SURROGATE_ESCAPE's to judge, so read it masked.
            int[] lone = SurrogateEscapes.lone(parseable);
            byte[] unescaped = lone.length == 0 ? parseable : SurrogateEscapes.replaced(parseable, lone);
            if (unescaped != parseable && parse(unescaped).isEmpty()) {
                parseable = unescaped;
                invalid = Optional.empty();
                keysEscaped = true;
            }
        }
        if (invalid.isPresent()) {
            Invalid at = invalid.get();
            int shown = at.offset < doc.length ? 1 : 0;
            checks.reject(
                    new Finding(part, at.field, DeadLetterRule.INVALID_JSON, start + at.offset, shown, shown, value));
            return value;
        }
        JsonFieldLocator fields = new JsonFieldLocator(parseable);
        byte[] out = checks.text(part, value, start, offset -> fields.fieldAt(offset - start));
        if (out != value && !wellFormed) {
            // a valid document held no raw NUL: each one is a repaired C0 80 (the prefix's magic
            // byte is not the document's)
            out = withDocument(value, start, escapeNul(documentOf(out, start)));
        }
        if (checkSurrogateEscapes) {
            byte[] outDoc = documentOf(out, start);
            int[] lone = SurrogateEscapes.lone(outDoc);
            JsonFieldLocator located = out == value
                    ? fields
                    : new JsonFieldLocator(keysEscaped ? SurrogateEscapes.replaced(outDoc, lone) : outDoc);
            byte[] fixed = loneSurrogateEscapes(part, outDoc, lone, located, checks, start, out);
            out = fixed == outDoc ? out : withDocument(value, start, fixed);
        }
        if (out != value) {
            keysApart(part, value, start, doc, documentOf(out, start), fields, checks);
        }
        return out;
    }

    /**
     * A fix that makes two member names of one object equal would drop a member for any reader: the
     * record is rejected instead, described by the changed name's first ill-formed byte or lone
     * surrogate escape (or the content rule that changed it).
     */
    private void keysApart(
            Part part,
            byte[] value,
            int start,
            byte[] doc,
            byte[] fixedDoc,
            JsonFieldLocator fields,
            RecordChecks checks) {
        Optional<int[]> name = JsonKeys.collision(doc, fixedDoc);
        if (name.isEmpty()) {
            return;
        }
        int from = name.get()[0];
        int to = name.get()[1];
        FieldPath path = () -> fields.fieldAt(from).orElse("");
        Finding key = checks.changedKey(part, path, value, start + from, to - from);
        if (checkSurrogateEscapes && Utf8Validator.isWellFormed(doc, from, to - from)) {
            for (int at : SurrogateEscapes.lone(doc)) {
                if (at >= from && at < to) {
                    key = new Finding(
                                    part,
                                    key.field(),
                                    DeadLetterRule.LONE_SURROGATE_ESCAPE,
                                    start + at,
                                    SurrogateEscapes.LENGTH,
                                    SurrogateEscapes.LENGTH,
                                    value)
                            .withDetail(key.detail().orElseThrow());
                    break;
                }
            }
        }
        checks.keysCollide(key);
    }

    /** The document of a part: all of it, or what follows the framing prefix. */
    private static byte[] documentOf(byte[] part, int start) {
        return start == 0 ? part : Arrays.copyOfRange(part, start, part.length);
    }

    /** The framing prefix of {@code value}, if any, followed by {@code document}. */
    private static byte[] withDocument(byte[] value, int start, byte[] document) {
        if (start == 0) {
            return document;
        }
        byte[] whole = Arrays.copyOf(value, start + document.length);
        System.arraycopy(document, 0, whole, start, document.length);
        return whole;
    }

    /** Where a document stops being JSON. */
    private record Invalid(int offset, Optional<String> field) {}

    private static Optional<Invalid> parse(byte[] document) {
        // Jackson guesses UTF-16 or UTF-32 from NUL bytes among the first four. A JSON text is UTF-8
        // here, and a raw NUL is never JSON (not whitespace, nor allowed unescaped in a string):
        // such a document is invalid at that NUL, before Jackson can misread it.
        for (int i = 0; i < Math.min(4, document.length); i++) {
            if (document[i] == 0) {
                return Optional.of(new Invalid(i, Optional.empty()));
            }
        }
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
     * Reports each lone surrogate escape of a valid document, and writes {@code \uFFFD} over each
     * one the policy fixes (same length, so offsets hold).
     */
    private static byte[] loneSurrogateEscapes(
            Part part,
            byte[] document,
            int[] lone,
            JsonFieldLocator fields,
            RecordChecks checks,
            int start,
            byte[] whole) {
        byte[] out = document;
        for (int at : lone) {
            boolean fix = checks.illFormed(() -> new Finding(
                    part,
                    fields.fieldAt(at),
                    DeadLetterRule.LONE_SURROGATE_ESCAPE,
                    start + at,
                    SurrogateEscapes.LENGTH,
                    SurrogateEscapes.LENGTH,
                    whole));
            if (fix) {
                out = out == document ? document.clone() : out;
                System.arraycopy(SurrogateEscapes.REPLACEMENT, 0, out, at, SurrogateEscapes.LENGTH);
            }
        }
        return out;
    }
}
