package dev.utf8sanitiser.connect;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.registry.RestSchemaRegistry;
import dev.utf8sanitiser.serdes.registry.SchemaRegistry;

/**
 * The schema registry client a plugin instance opens for Avro values, once, and closes with the
 * plugin. A registry that cannot answer throws from {@code apply}/{@code test}: Connect retries
 * or fails the task by its own error handling, and never files the record as ill-formed.
 */
final class OwnedRegistry implements AutoCloseable {
    private SchemaRegistry registry;

    synchronized SchemaRegistry open(SanitiserConfig config) {
        if (registry == null) {
            registry = RestSchemaRegistry.create(config);
        }
        return registry;
    }

    @Override
    public synchronized void close() {
        if (registry != null) {
            registry.close();
            registry = null;
        }
    }
}
