package dev.utf8sanitiser.registry;

/** The id names a schema of another type ({@code AVRO}, {@code JSON}), so the record is not Protobuf. */
public final class NotProtobufSchemaException extends SchemaRegistryException {
    private final int id;
    private final String schemaType;

    public NotProtobufSchemaException(int id, String schemaType) {
        super("schema id " + id + " is a " + schemaType + " schema, not Protobuf");
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
