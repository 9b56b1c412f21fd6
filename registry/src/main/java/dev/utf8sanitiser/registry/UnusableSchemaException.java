package dev.utf8sanitiser.registry;

/**
 * The registry has a schema under this id, but it cannot be used: its references form a cycle, go
 * past the limits of {@link SchemaReferences}, name a schema that is not Avro, or Apache Avro cannot
 * read what they add up to. No retry changes that, so it is a verdict on the record ({@code
 * UNUSABLE_SCHEMA}).
 */
public final class UnusableSchemaException extends SchemaRegistryException {
    private final int id;

    public UnusableSchemaException(int id, String message) {
        super(message);
        this.id = id;
    }

    public int id() {
        return id;
    }
}
