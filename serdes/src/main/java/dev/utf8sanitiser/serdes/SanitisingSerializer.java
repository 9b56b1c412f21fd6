package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.serdes.registry.SchemaRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serializes with another serializer, then checks the bytes it wrote: a producer that refuses to
 * send ill-formed text ({@link IllFormedTextException} from {@code send}), or fixes it under
 * {@code replace} and {@code repair}. Configured with the sanitiser's keys; created by a client from
 * its configuration, it wraps the serde named by {@code sanitiser.serde.inner}.
 */
public final class SanitisingSerializer<T> implements Serializer<T> {
    private Serializer<T> inner;
    private final Optional<SchemaRegistry> registry;
    private Sanitisation sanitisation;

    /** For clients that create it from configuration. */
    public SanitisingSerializer() {
        this.inner = null;
        this.registry = Optional.empty();
    }

    public SanitisingSerializer(Serializer<T> inner) {
        this(inner, Optional.empty());
    }

    /** With a registry of the caller's, which stays the caller's to close. */
    public SanitisingSerializer(Serializer<T> inner, Optional<SchemaRegistry> registry) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.registry = registry;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        if (inner == null) {
            inner = Sanitisation.<T>innerSerde(configs, isKey).serializer();
        } else {
            inner.configure(configs, isKey);
        }
        sanitisation = Sanitisation.configure(configs, isKey, registry);
    }

    @Override
    public byte[] serialize(String topic, T data) {
        return serialize(topic, null, data);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        if (sanitisation == null) {
            throw new IllegalStateException("configure() was not called");
        }
        return sanitisation.apply(topic, headers, inner.serialize(topic, headers, data));
    }

    @Override
    public void close() {
        if (inner != null) {
            inner.close();
        }
        if (sanitisation != null) {
            sanitisation.close();
        }
    }
}
