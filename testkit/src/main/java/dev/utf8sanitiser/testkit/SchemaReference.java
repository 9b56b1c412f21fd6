package dev.utf8sanitiser.testkit;

import java.util.Objects;

/**
 * A reference from one schema to a schema registered under another subject, as Confluent spells it:
 * what {@link TestSchemaRegistry#register(String, String, String, java.util.List)} takes.
 *
 * @param name for Avro, the full name of the named type the referenced schema defines
 */
public record SchemaReference(String name, String subject, int version) {
    public SchemaReference {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(subject, "subject");
    }
}
