package dev.utf8sanitiser.connect;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.registry.RegistryMisconfiguredException;
import dev.utf8sanitiser.registry.RestSchemaRegistry;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import org.apache.kafka.common.config.ConfigException;

/**
 * How a plugin instance opens its schema registry client for Avro values: once, on first use, and
 * closed with the plugin. A registry that cannot answer throws from {@code apply}/{@code test}:
 * Connect retries or fails the task by its own error handling, and never files the record as
 * ill-formed.
 *
 * <p>Opening it asks each URL once whether it is a registry that answers as the sanitiser needs
 * ({@link RestSchemaRegistry#probeOnce()}): a wrong URL, refused credentials or a TLS mistake fail
 * {@code configure}, so the task fails at start with that message, before a single record could be
 * skipped under {@code errors.tolerance=all}. A registry that cannot be reached is only logged: the
 * check does not wait for it, as the worker starts tasks on its own threads and must not stall.
 */
final class ConnectRegistry {
    private ConnectRegistry() {}

    /**
     * The owner of a plugin's registry client, which the plugin closes.
     *
     * <p>Its {@code get()} throws {@link ConfigException} when the registry at {@code
     * schema.registry.url} does not accept the configuration (RegistryMisconfiguredException's
     * message).
     */
    static SchemaRegistryOwner owner(SanitiserConfig config) {
        return new SchemaRegistryOwner(config, registry -> {
            try {
                registry.probeOnce();
            } catch (RegistryMisconfiguredException e) {
                throw new ConfigException(e.getMessage());
            }
        });
    }
}
