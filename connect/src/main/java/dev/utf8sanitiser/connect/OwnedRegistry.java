package dev.utf8sanitiser.connect;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.registry.RegistryMisconfiguredException;
import dev.utf8sanitiser.serdes.registry.RestSchemaRegistry;
import dev.utf8sanitiser.serdes.registry.SchemaRegistry;
import org.apache.kafka.common.config.ConfigException;

/**
 * The schema registry client a plugin instance opens for Avro values, once, and closes with the
 * plugin. A registry that cannot answer throws from {@code apply}/{@code test}: Connect retries
 * or fails the task by its own error handling, and never files the record as ill-formed.
 *
 * <p>Opening it asks each URL once whether it is a registry that answers as the sanitiser needs
 * ({@link RestSchemaRegistry#probeOnce()}): a wrong URL, refused credentials or a TLS mistake fail
 * {@code configure}, so the task fails at start with that message, before a single record could be
 * skipped under {@code errors.tolerance=all}. A registry that cannot be reached is only logged: the
 * check does not wait for it, as the worker starts tasks on its own threads and must not stall.
 */
final class OwnedRegistry implements AutoCloseable {
    private SchemaRegistry registry;

    /**
     * @throws ConfigException the registry at {@code schema.registry.url} does not accept the
     *     configuration (RegistryMisconfiguredException's message)
     */
    synchronized SchemaRegistry open(SanitiserConfig config) {
        if (registry == null) {
            RestSchemaRegistry opened = RestSchemaRegistry.create(config);
            try {
                opened.probeOnce();
            } catch (RegistryMisconfiguredException e) {
                opened.close();
                throw new ConfigException(e.getMessage());
            }
            registry = opened;
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
