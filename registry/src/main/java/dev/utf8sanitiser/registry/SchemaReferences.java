package dev.utf8sanitiser.registry;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.util.SchemaResolver;
import org.apache.avro.util.Schemas;

/**
 * Resolves the references of one schema id: into one Avro schema, or for Protobuf into the texts of
 * the files it imports. Every schema it references,
 * directly or not, is asked for once (by subject and version) and parsed before the schemas that
 * use it. The graph is walked with a stack on the heap, so its shape cannot exhaust the thread's
 * stack, and within limits, so that no registry answer can make one lookup unbounded:
 *
 * <ul>
 *   <li>at most {@value #MAX_REFERENCES} distinct subject versions referenced in all, and no schema
 *       listing more references than that;
 *   <li>at most {@value #MAX_DEPTH} references from the id's schema to the deepest one it needs;
 *   <li>no cycle: a schema that needs itself, directly or not, can never be parsed;
 *   <li>at most {@value #MAX_TEXT} characters of schema text in all, the id's own included.
 * </ul>
 *
 * Each text is parsed once, and the names used before their definition (a recursive record, a
 * forward reference) are resolved once for the whole schema, not after every text: Apache Avro's
 * {@code Schema.Parser#parse} resolves every name it knows again at each call, which costs the
 * square of the number of schemas times their size. Resolving the names used early costs the
 * schema's size for each distinct such name, so that product is bounded by {@value #MAX_RESOLUTION}.
 *
 * A schema past them, one whose references name a schema that is not Avro, or one Apache Avro
 * cannot read is {@link UnusableSchemaException}: a verdict on the record. Failures to get an
 * answer are the {@link Source}'s and pass through unchanged.
 */
final class SchemaReferences {
    /** The most distinct subject versions one schema id may reference, directly or not. */
    static final int MAX_REFERENCES = 1_000;

    /** The longest chain of references from a schema id to a schema it needs. */
    static final int MAX_DEPTH = 64;

    /** The most characters of schema text, the id's and every referenced one together. */
    static final int MAX_TEXT = 8 * 1024 * 1024;

    /**
     * The most work resolving names used before their definition may take: the number of distinct
     * such names plus one, times the number of parts (types and fields) of the schema.
     */
    static final long MAX_RESOLUTION = 4_000_000;

    private static final String AVRO = "AVRO";
    private static final String PROTOBUF = "PROTOBUF";

    /** A schema reference as Confluent writes it; version {@code -1} is the latest. */
    record Reference(String name, String subject, int version) {
        Reference {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(subject, "subject");
        }

        /** The version as the REST API's path spells it. */
        String versionSegment() {
            return version == -1 ? "latest" : Integer.toString(version);
        }

        /** What the registry answers the same for, so what is asked once per lookup. */
        Key key() {
            return new Key(subject, version);
        }

        String describe() {
            return "subject " + ErrorBody.quote(subject) + " version " + versionSegment();
        }
    }

    /** A subject version, the unit of memoisation. */
    record Key(String subject, int version) {}

    /** A registry's answer for a schema: its type, its text and what it references. */
    record Answer(String schemaType, String schema, List<Reference> references) {
        Answer {
            Objects.requireNonNull(schemaType, "schemaType");
            Objects.requireNonNull(schema, "schema");
            references = List.copyOf(references);
        }

        boolean isAvro() {
            return schemaType.equals(AVRO);
        }

        boolean isProtobuf() {
            return schemaType.equals(PROTOBUF);
        }
    }

    /** Where referenced schemas come from: the registry, asked for one subject version. */
    @FunctionalInterface
    interface Source {
        /**
         * @throws UnknownSchemaException the registry has no such subject version
         * @throws RegistryUnavailableException the registry could not be asked in time
         */
        Answer fetch(Reference reference);
    }

    /** A schema on the way from the id down: its answer and the next of its references to visit. */
    private static final class Frame {
        final Reference reference;
        final Answer answer;
        int next;

        Frame(Reference reference, Answer answer) {
            this.reference = reference;
            this.answer = answer;
        }
    }

    private SchemaReferences() {}

    /**
     * The schema of {@code id}, whose answer is {@code top} (an Avro one), with everything it
     * references parsed first.
     *
     * @throws UnusableSchemaException past the limits, a cycle, a referenced schema that is not
     *     Avro, or text Apache Avro cannot read
     */
    static Schema resolve(int id, Answer top, Source source) {
        Schema.Parser parser = new Schema.Parser();
        // Confluent's registry keeps schemas whose defaults Avro would refuse; a writer schema's
        // defaults are never used to read, so they are not checked here either.
        parser.setValidateDefaults(false);
        Schema[] schema = new Schema[1];
        traverse(id, top, source, AVRO, (reference, answer) -> {
            if (reference == null) {
                schema[0] = resolveNames(id, parser, parse(id, parser, answer.schema(), ""));
            } else {
                parse(id, parser, answer.schema(), " (referenced " + reference.describe() + ")");
            }
        });
        return schema[0];
    }

    /**
     * The texts of every schema the Protobuf schema of {@code id}, whose answer is {@code top},
     * imports, directly or not, by the name it imports them by (its references' names), within the
     * same limits as an Avro schema's references.
     *
     * @throws UnusableSchemaException past the limits, a cycle, or a referenced schema that is not
     *     Protobuf
     */
    static ProtobufSchemaText protobuf(int id, Answer top, Source source) {
        Map<String, String> imports = new java.util.LinkedHashMap<>();
        traverse(id, top, source, PROTOBUF, (reference, answer) -> {
            if (reference != null) {
                imports.putIfAbsent(reference.name(), answer.schema());
            }
        });
        return new ProtobufSchemaText(top.schema(), imports);
    }

    /** Told of each schema once everything it references was, the id's own last (with no reference). */
    @FunctionalInterface
    private interface Done {
        void done(Reference reference, Answer answer);
    }

    private static void traverse(int id, Answer top, Source source, String type, Done done) {
        Set<Key> parsed = new HashSet<>();
        Set<Key> onPath = new HashSet<>();
        Deque<Frame> path = new ArrayDeque<>();
        int asked = 0;
        long text = top.schema().length();
        checkCount(id, top, null);
        path.push(new Frame(null, top));
        while (true) {
            Frame frame = path.peek();
            List<Reference> references = frame.answer.references();
            if (frame.next < references.size()) {
                Reference reference = references.get(frame.next++);
                Key key = reference.key();
                if (parsed.contains(key)) {
                    continue;
                }
                if (onPath.contains(key)) {
                    throw new UnusableSchemaException(
                            id, "The references of schema id " + id + " form a cycle: " + cycle(path, reference));
                }
                // The id's own schema is the first frame, so the new reference's depth is the
                // number of frames.
                if (path.size() > MAX_DEPTH) {
                    throw new UnusableSchemaException(
                            id,
                            "The references of schema id " + id + " go deeper than " + MAX_DEPTH + " levels (at "
                                    + reference.describe() + ")");
                }
                if (++asked > MAX_REFERENCES) {
                    throw new UnusableSchemaException(
                            id,
                            "Schema id " + id + " references more than " + MAX_REFERENCES
                                    + " distinct schemas (subject versions), directly or not");
                }
                Answer answer = source.fetch(reference);
                if (!answer.schemaType().equals(type)) {
                    throw new UnusableSchemaException(
                            id,
                            "Schema id " + id + " references " + reference.describe() + ", which is a "
                                    + ErrorBody.quote(answer.schemaType()) + " schema, not "
                                    + (type.equals(AVRO) ? "Avro" : "Protobuf"));
                }
                checkCount(id, answer, reference);
                text += answer.schema().length();
                if (text > MAX_TEXT) {
                    throw new UnusableSchemaException(
                            id,
                            "Schema id " + id + " and the schemas it references have more than " + MAX_TEXT
                                    + " characters of schema text in all (at " + reference.describe() + ")");
                }
                onPath.add(key);
                path.push(new Frame(reference, answer));
            } else {
                path.pop();
                done.done(frame.reference, frame.answer);
                if (frame.reference == null) {
                    return;
                }
                onPath.remove(frame.reference.key());
                parsed.add(frame.reference.key());
            }
        }
    }

    /** A list longer than the limit ends the lookup before anything in it is asked for. */
    private static void checkCount(int id, Answer answer, Reference reference) {
        if (answer.references().size() > MAX_REFERENCES) {
            throw new UnusableSchemaException(
                    id,
                    "Schema id " + id + (reference == null ? "" : " references " + reference.describe() + ", which")
                            + " lists " + answer.references().size() + " references, more than " + MAX_REFERENCES);
        }
    }

    /** {@code subject a version 1 -> subject b version 2 -> subject a version 1}, its middle cut if long. */
    private static String cycle(Deque<Frame> path, Reference again) {
        List<String> steps = new ArrayList<>();
        boolean inCycle = false;
        for (Iterator<Frame> frames = path.descendingIterator(); frames.hasNext(); ) {
            Frame frame = frames.next();
            if (frame.reference != null && frame.reference.key().equals(again.key())) {
                inCycle = true;
            }
            if (inCycle) {
                steps.add(frame.reference.describe());
            }
        }
        steps.add(again.describe());
        if (steps.size() > 8) {
            int cut = steps.size() - 8;
            List<String> shown = new ArrayList<>(steps.subList(0, 4));
            shown.add("(" + cut + " more)");
            shown.addAll(steps.subList(steps.size() - 4, steps.size()));
            steps = shown;
        }
        return String.join(" -> ", steps);
    }

    /**
     * Parses {@code schema} with the names the parser knows, without resolving names used before
     * their definition: {@link #resolveNames} does that once at the end.
     */
    private static Schema parse(int id, Schema.Parser parser, String schema, String which) {
        try {
            return parser.parseInternal(schema);
        } catch (AvroRuntimeException | IllegalArgumentException e) {
            throw new UnusableSchemaException(
                    id,
                    "Schema id " + id + which + " is not a schema Apache Avro can read: "
                            + ErrorBody.quote(String.valueOf(e.getMessage())));
        }
    }

    /**
     * {@code schema} with every name used before its definition replaced by the type it names. One
     * pass over the schema finds them; with none (no recursive type, no forward reference), the
     * parsed schema is already whole.
     */
    private static Schema resolveNames(int id, Schema.Parser parser, Schema schema) {
        Map<String, Schema> types = parser.getTypes();
        Set<String> early = new HashSet<>();
        Map<Schema, Boolean> seen = new IdentityHashMap<>();
        Deque<Schema> stack = new ArrayDeque<>();
        stack.push(schema);
        long parts = 0;
        while (!stack.isEmpty()) {
            Schema next = stack.pop();
            if (seen.put(next, Boolean.TRUE) != null) {
                continue;
            }
            parts++;
            if (SchemaResolver.isUnresolvedSchema(next)) {
                String name = SchemaResolver.getUnresolvedSchemaName(next);
                Schema named = types.get(name);
                if (named == null) {
                    throw new UnusableSchemaException(
                            id,
                            "Schema id " + id + " is not a schema Apache Avro can read: "
                                    + ErrorBody.quote("Undefined schema: " + name));
                }
                early.add(name);
                stack.push(named);
                continue;
            }
            switch (next.getType()) {
                case RECORD -> next.getFields().forEach(field -> stack.push(field.schema()));
                case UNION -> next.getTypes().forEach(stack::push);
                case ARRAY -> stack.push(next.getElementType());
                case MAP -> stack.push(next.getValueType());
                default -> {}
            }
            parts += next.getType() == Schema.Type.RECORD ? next.getFields().size() : 0;
        }
        if (early.isEmpty()) {
            return schema;
        }
        if ((early.size() + 1) * parts > MAX_RESOLUTION) {
            throw new UnusableSchemaException(
                    id,
                    "Schema id " + id + " uses " + early.size() + " names before their definition in a schema of "
                            + parts + " parts; resolving them would take more than " + MAX_RESOLUTION + " steps");
        }
        try {
            SchemaResolver.ResolvingVisitor resolver = new SchemaResolver.ResolvingVisitor(types::get);
            Schemas.visit(schema, resolver);
            return resolver.getResolved(schema);
        } catch (AvroRuntimeException | IllegalArgumentException | IllegalStateException e) {
            throw new UnusableSchemaException(
                    id,
                    "Schema id " + id + " is not a schema Apache Avro can read: "
                            + ErrorBody.quote(String.valueOf(e.getMessage())));
        }
    }
}
