package dev.utf8sanitiser.registry;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one owner of the schema registry client a host opens from its configuration ({@code
 * schema.registry.url} and the keys beside it): opened on first use, checked as the host asks,
 * closed with the host. The Kafka Streams sanitiser, the serdes and the Connect plugins each hold
 * one, and hand it to {@code ValueFormats.of} as the supplier of the registry.
 *
 * <p>Thread-safe: Connect may call a plugin from a task's thread while the worker closes it.
 */
public final class SchemaRegistryOwner implements Supplier<SchemaRegistry>, AutoCloseable {
    private final SanitiserConfig config;
    private final Consumer<RestSchemaRegistry> check;
    private SchemaRegistry registry; // guarded by this

    /**
     * @param check run once on the new client before it is handed out (a probe of the registry);
     *     when it throws, the client is closed and the exception goes to the caller of {@link #get()}
     */
    public SchemaRegistryOwner(SanitiserConfig config, Consumer<RestSchemaRegistry> check) {
        this.config = Objects.requireNonNull(config, "config");
        this.check = Objects.requireNonNull(check, "check");
    }

    /** An owner whose client is handed out unchecked: the first lookup tells what is wrong. */
    public static SchemaRegistryOwner unchecked(SanitiserConfig config) {
        return new SchemaRegistryOwner(config, registry -> {});
    }

    /** The client, opened and checked on the first call. */
    @Override
    public synchronized SchemaRegistry get() {
        if (registry == null) {
            RestSchemaRegistry opened = RestSchemaRegistry.create(config);
            try {
                check.accept(opened);
            } catch (RuntimeException e) {
                opened.close();
                throw e;
            }
            registry = opened;
        }
        return registry;
    }

    /** Closes the client if it was opened; a later {@link #get()} opens a new one. */
    @Override
    public synchronized void close() {
        if (registry != null) {
            registry.close();
            registry = null;
        }
    }
}
