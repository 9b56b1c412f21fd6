package dev.utf8sanitiser.registry;

import org.apache.avro.Schema;

/**
 * The writer schemas of Avro records in the Confluent wire format, by id. Confluent's own client
 * ({@code io.confluent:kafka-schema-registry-client}) is not on Maven Central, so it cannot be a
 * dependency here; {@link RestSchemaRegistry} speaks the small part of the Confluent REST API the
 * sanitiser needs, and this interface keeps the rest of the code independent of it.
 *
 * <p>Schema ids never change what they name, so implementations cache a schema forever once fetched.
 */
public interface SchemaRegistry extends AutoCloseable {

    /**
     * The Avro schema registered under {@code id}, references resolved.
     *
     * @throws UnknownSchemaException the registry answered that the id does not exist: the record can
     *     never be read, so it goes to the dead-letter topic as {@code UNKNOWN_SCHEMA}
     * @throws UnusableSchemaException the registry has the schema, but it cannot be used (its
     *     references form a cycle or go past the limits, or Apache Avro cannot read it): {@code
     *     UNUSABLE_SCHEMA}
     * @throws NotAvroSchemaException the id names a JSON Schema or Protobuf schema: the record is not
     *     Avro ({@code NOT_AVRO})
     * @throws RegistryUnavailableException the registry could not be asked, after retrying with
     *     backoff: a transient failure that must stop processing, never send a record to the DLQ; or
     *     {@link RegistryMisconfiguredException}, the configuration must change (a wrong URL or path,
     *     refused credentials, failed TLS): it too stops processing
     */
    Schema schema(int id);

    /**
     * The Protobuf schema registered under {@code id}: its text and the texts of every file it
     * imports, references resolved within the same limits as an Avro schema's.
     *
     * @throws UnknownSchemaException as for {@link #schema(int)}
     * @throws UnusableSchemaException its references form a cycle, go past the limits, or name a
     *     schema that is not Protobuf
     * @throws NotProtobufSchemaException the id names an Avro or JSON Schema schema
     * @throws RegistryUnavailableException as for {@link #schema(int)}
     * @throws UnsupportedOperationException this registry serves Avro schemas only
     */
    default ProtobufSchemaText protobuf(int id) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " serves Avro schemas only");
    }

    /**
     * Registers {@code schema} under {@code subject} (or finds it there) and returns its id: for the
     * serializers, the demo and tests.
     *
     * @throws RegistryUnavailableException as for {@link #schema(int)}
     */
    int register(String subject, Schema schema);

    @Override
    void close();
}
