package dev.utf8sanitiser.registry;

/** The id names a schema of another type ({@code JSON}, {@code PROTOBUF}), so the record is not Avro. */
public final class NotAvroSchemaException extends SchemaRegistryException {
    private final int id;
    private final String schemaType;

    public NotAvroSchemaException(int id, String schemaType) {
        super("schema id " + id + " is a " + schemaType + " schema, not Avro");
        this.id = id;
        this.schemaType = schemaType;
    }

    public int id() {
        return id;
    }

    public String schemaType() {
        return schemaType;
    }
}
