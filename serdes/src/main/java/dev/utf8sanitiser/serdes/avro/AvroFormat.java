package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.registry.NotAvroSchemaException;
import dev.utf8sanitiser.registry.SchemaRegistry;
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

/**
 * Avro values in the Confluent wire format: magic byte 0, the writer schema's id as 4 bytes big
 * endian, then the Avro binary. Every {@code string} in the binary is checked where it lies, with
 * its field path; fixed strings are written back with their new lengths, under the same schema id.
 *
 * <p>Record-level rules: {@code NOT_AVRO} (shorter than the prefix, another magic byte, or an id that
 * names a non-Avro schema), {@code UNKNOWN_SCHEMA} (the registry answered that the id does not
 * exist), {@code UNUSABLE_SCHEMA} (the registry has a schema for the id, but it cannot be used:
 * {@link dev.utf8sanitiser.registry.UnusableSchemaException}), {@code MALFORMED_AVRO} (the
 * binary does not match the writer schema). A fix that would make two keys of one map equal rejects
 * the record, described by the changed key. A registry that cannot
 * answer is not a verdict: {@link dev.utf8sanitiser.registry.RegistryUnavailableException}
 * goes to the host.
 */
public final class AvroFormat implements ValueFormat {
    private final SchemaRegistry registry;
    // Schema ids never change what they name, so a compiled walker is good forever.
    private final Map<Integer, SchemaWalker> walkers = new ConcurrentHashMap<>();
    private final ThreadLocal<StringBatch> batches = ThreadLocal.withInitial(StringBatch::new);

    public AvroFormat(SchemaRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public byte[] check(Part part, byte[] value, RecordChecks checks) {
        Optional<SchemaWalker> found = RegisteredSchema.lookup(
                part, value, checks, DeadLetterRule.NOT_AVRO, NotAvroSchemaException.class, this::walker);
        if (found.isEmpty()) {
            return value;
        }
        SchemaWalker walker = found.get();
        if (checks.wellFormedPassesUnseen() && allStringsWellFormed(walker, value)) {
            return value;
        }
        try {
            return walker.walk(
                    value,
                    WireFormat.PREFIX_LENGTH,
                    value.length,
                    (path, bytes, offset, length) -> checks.string(part, path, bytes, offset, length));
        } catch (KeysCollideException e) {
            FieldPath path = e::field;
            checks.keysCollide(checks.changedKey(part, path, value, e.offset(), e.length()));
            return value;
        } catch (MalformedAvroException e) {
            int shown = e.offset() < value.length ? 1 : 0;
            Optional<String> field = e.field().isEmpty() ? Optional.empty() : Optional.of(e.field());
            checks.reject(new Finding(part, field, DeadLetterRule.MALFORMED_AVRO, e.offset(), shown, shown, value));
            return value;
        }
    }

    /**
     * Whether the value is valid Avro whose strings are all well-formed, found by the walker's fast
     * scan ({@link StringScan}) and one pass of the validator over a copy of the value with what
     * lies between the strings blanked ({@link StringBatch}):
     * then no string needs a look of its own. Any other answer, malformed Avro included, is for the
     * string-by-string walk, so that what it finds first, and so reports, stays the same.
     */
    private boolean allStringsWellFormed(SchemaWalker walker, byte[] value) {
        StringBatch batch = batches.get();
        batch.start(value, WireFormat.PREFIX_LENGTH, value.length);
        return walker.scan(value, WireFormat.PREFIX_LENGTH, value.length, batch) && batch.allWellFormed();
    }

    /**
     * The walker for a schema id. The registry is asked outside any lock (it may retry for a while),
     * so two threads may both fetch a new id once; the first walker stored wins.
     */
    private SchemaWalker walker(int id) {
        SchemaWalker walker = walkers.get(id);
        if (walker == null) {
            walker = SchemaWalker.of(registry.schema(id));
            SchemaWalker raced = walkers.putIfAbsent(id, walker);
            walker = raced == null ? walker : raced;
        }
        return walker;
    }
}
