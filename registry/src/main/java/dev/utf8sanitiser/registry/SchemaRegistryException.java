package dev.utf8sanitiser.registry;

import org.apache.kafka.common.KafkaException;

/** A failure to get a schema from the registry. */
public abstract sealed class SchemaRegistryException extends KafkaException
        permits UnknownSchemaException,
                UnusableSchemaException,
                NotAvroSchemaException,
                NotProtobufSchemaException,
                RegistryUnavailableException {
    SchemaRegistryException(String message) {
        super(message);
    }

    SchemaRegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}
