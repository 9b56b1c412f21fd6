package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.registry.NotAvroSchemaException;
import dev.utf8sanitiser.registry.NotProtobufSchemaException;
import dev.utf8sanitiser.registry.ProtobufSchemaText;
import dev.utf8sanitiser.registry.RegistryUnavailableException;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.registry.UnknownSchemaException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/** Schemas in a map, for unit tests of the format; the REST client is tested over real HTTP. */
public final class MapSchemaRegistry implements SchemaRegistry {
    private final Map<Integer, Schema> schemas = new HashMap<>();
    private final Map<Integer, String> otherTypes = new HashMap<>();
    private final Map<Integer, ProtobufSchemaText> protobufs = new HashMap<>();
    final AtomicInteger lookups = new AtomicInteger();
    volatile boolean down;

    public MapSchemaRegistry with(int id, Schema schema) {
        schemas.put(id, schema);
        return this;
    }

    public MapSchemaRegistry withProtobuf(int id, ProtobufSchemaText schema) {
        protobufs.put(id, schema);
        return this;
    }

    @Override
    public ProtobufSchemaText protobuf(int id) {
        lookups.incrementAndGet();
        if (down) {
            throw new RegistryUnavailableException("test registry is down");
        }
        if (schemas.containsKey(id)) {
            throw new NotProtobufSchemaException(id, "AVRO");
        }
        if (otherTypes.containsKey(id)) {
            throw new NotProtobufSchemaException(id, otherTypes.get(id));
        }
        ProtobufSchemaText schema = protobufs.get(id);
        if (schema == null) {
            throw new UnknownSchemaException(id, "Schema " + id + " not found");
        }
        return schema;
    }

    public MapSchemaRegistry withOther(int id, String type) {
        otherTypes.put(id, type);
        return this;
    }

    @Override
    public Schema schema(int id) {
        lookups.incrementAndGet();
        if (down) {
            throw new RegistryUnavailableException("test registry is down");
        }
        if (otherTypes.containsKey(id)) {
            throw new NotAvroSchemaException(id, otherTypes.get(id));
        }
        if (protobufs.containsKey(id)) {
            throw new NotAvroSchemaException(id, "PROTOBUF");
        }
        Schema schema = schemas.get(id);
        if (schema == null) {
            throw new UnknownSchemaException(id, "Schema " + id + " not found");
        }
        return schema;
    }

    @Override
    public int register(String subject, Schema schema) {
        int id = schemas.size() + 1;
        schemas.put(id, schema);
        return id;
    }

    @Override
    public void close() {}
}
