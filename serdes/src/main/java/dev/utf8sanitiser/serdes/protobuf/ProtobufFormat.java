package dev.utf8sanitiser.serdes.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import dev.utf8sanitiser.registry.NotProtobufSchemaException;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.registry.UnusableSchemaException;
import dev.utf8sanitiser.serdes.framing.MessageIndexes;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.FieldPath;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.KeysCollideException;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.RecordChecks;
import dev.utf8sanitiser.serdes.record.RegisteredSchema;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;

/**
 * Protobuf values in Confluent's wire format: magic byte 0, the schema id as 4 bytes big endian,
 * the message indexes ({@link MessageIndexes}), then the message. Every string field protobuf-java
 * checks (proto3 strings, map entries' strings, proto2 ones under {@code java_string_check_utf8},
 * editions' {@code utf8_validation = VERIFY}), or every string field with {@code checkAllStrings},
 * is checked where it lies, with its field path; fixed strings are written back with every length
 * prefix around them, under the same schema id and message indexes.
 *
 * <p>Record-level rules: {@code NOT_PROTOBUF} (shorter than the prefix, another magic byte, or an
 * id that names a schema not Protobuf), {@code UNKNOWN_SCHEMA}, {@code UNUSABLE_SCHEMA} (as for
 * Avro; a {@code .proto} text that cannot be parsed or linked too, editions among them; the
 * message ends with the reason), {@code MALFORMED_PROTOBUF}
 * (message indexes that cannot be read or name no message of the file, or a message protobuf-java
 * would refuse: {@link ProtobufWalker}). A fix that would make two keys of one map equal rejects
 * the record, described by the changed key, as for Avro. A registry that cannot answer is not a verdict: {@link
 * dev.utf8sanitiser.registry.RegistryUnavailableException} goes to the host.
 */
public final class ProtobufFormat implements ValueFormat {
    private final IntFunction<FileDescriptor> files;
    private final boolean checkAllStrings;
    // Schema ids never change what they name, so a compiled schema is good forever.
    private final Map<Integer, Compiled> schemas = new ConcurrentHashMap<>();
    // Nor does a schema that cannot be used: its text is not parsed again for every record.
    private final Map<Integer, UnusableSchemaException> unusable = new ConcurrentHashMap<>();

    /** A schema id's compiled schema, with the type of the common message indexes {@code [0]}. */
    private record Compiled(CompiledSchema schema, Optional<Descriptor> first) {}

    public ProtobufFormat(SchemaRegistry registry, boolean checkAllStrings) {
        this(id -> ProtoFiles.descriptor(id, registry.protobuf(id)), checkAllStrings);
        Objects.requireNonNull(registry, "registry");
    }

    /**
     * Schemas from {@code files}, which gives the file of a schema id or throws as {@link
     * SchemaRegistry#protobuf} does: descriptors built elsewhere (tests, benchmarks).
     */
    ProtobufFormat(IntFunction<FileDescriptor> files, boolean checkAllStrings) {
        this.files = Objects.requireNonNull(files, "files");
        this.checkAllStrings = checkAllStrings;
    }

    @Override
    public byte[] check(Part part, byte[] value, RecordChecks checks) {
        Optional<Compiled> found = RegisteredSchema.lookup(
                part, value, checks, DeadLetterRule.NOT_PROTOBUF, NotProtobufSchemaException.class, this::compiled);
        if (found.isEmpty()) {
            return value;
        }
        Compiled compiled = found.get();
        MessageIndexes indexes;
        try {
            indexes = MessageIndexes.read(value, WireFormat.PREFIX_LENGTH);
        } catch (MessageIndexes.MalformedIndexesException e) {
            return malformed(part, value, e.offset(), "", checks);
        }
        int[] path = indexes.path();
        Optional<Descriptor> type = path.length == 1 && path[0] == 0
                ? compiled.first()
                : compiled.schema().type(path);
        if (type.isEmpty()) {
            return malformed(part, value, WireFormat.PREFIX_LENGTH, "", checks);
        }
        try {
            return compiled.schema()
                    .walk(
                            type.get(),
                            value,
                            indexes.end(),
                            value.length,
                            (fieldPath, bytes, offset, length) ->
                                    checks.string(part, fieldPath, bytes, offset, length));
        } catch (KeysCollideException e) {
            FieldPath key = e::field;
            checks.keysCollide(checks.changedKey(part, key, value, e.offset(), e.length()));
            return value;
        } catch (MalformedProtobufException e) {
            return malformed(part, value, e.offset(), e.field(), checks);
        }
    }

    private static byte[] malformed(Part part, byte[] value, int offset, String field, RecordChecks checks) {
        int shown = offset < value.length ? 1 : 0;
        Optional<String> named = field.isEmpty() ? Optional.empty() : Optional.of(field);
        checks.reject(new Finding(part, named, DeadLetterRule.MALFORMED_PROTOBUF, offset, shown, shown, value));
        return value;
    }

    /**
     * The compiled schema of an id. The registry is asked outside any lock (it may retry for a
     * while), so two threads may both compile a new id once; the first stored wins.
     */
    private Compiled compiled(int id) {
        Compiled compiled = schemas.get(id);
        if (compiled == null) {
            UnusableSchemaException known = unusable.get(id);
            if (known != null) {
                throw known;
            }
            CompiledSchema schema;
            try {
                schema = CompiledSchema.of(files.apply(id), checkAllStrings);
            } catch (UnusableSchemaException e) {
                unusable.putIfAbsent(id, e);
                throw e;
            }
            compiled = new Compiled(schema, schema.type(new int[] {0}));
            Compiled raced = schemas.putIfAbsent(id, compiled);
            compiled = raced == null ? compiled : raced;
        }
        return compiled;
    }
}
