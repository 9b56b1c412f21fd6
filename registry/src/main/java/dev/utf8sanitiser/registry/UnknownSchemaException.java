package dev.utf8sanitiser.registry;

/** The registry answered that no schema has this id (HTTP 404, error code 40403). */
public final class UnknownSchemaException extends SchemaRegistryException {
    private final int id;

    public UnknownSchemaException(int id, String message) {
        super(message);
        this.id = id;
    }

    public int id() {
        return id;
    }
}
