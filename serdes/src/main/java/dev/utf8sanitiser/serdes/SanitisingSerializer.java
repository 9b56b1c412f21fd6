package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.registry.SchemaRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serializes with another serializer, then checks the bytes it wrote: a producer that refuses to
 * send ill-formed text ({@link IllFormedTextException} from {@code send}), or fixes it under
 * {@code replace} and {@code repair}. Configured with the sanitiser's keys; created by a client from
 * its configuration, it wraps the serde named by {@code sanitiser.serde.inner}.
 */
public final class SanitisingSerializer<T> implements Serializer<T> {
    private final Wrapped<T, Serializer<T>> wrapped;

    /** For clients that create it from configuration. */
    public SanitisingSerializer() {
        this.wrapped = wrap(Optional.empty(), Optional.empty());
    }

    public SanitisingSerializer(Serializer<T> inner) {
        this(inner, Optional.empty());
    }

    /** With a registry of the caller's, which stays the caller's to close. */
    public SanitisingSerializer(Serializer<T> inner, Optional<SchemaRegistry> registry) {
        this.wrapped = wrap(Optional.of(Objects.requireNonNull(inner, "inner")), registry);
    }

    private static <T> Wrapped<T, Serializer<T>> wrap(
            Optional<Serializer<T>> inner, Optional<SchemaRegistry> registry) {
        return new Wrapped<>(inner, registry, Serde::serializer, Serializer::configure, Serializer::close);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        wrapped.configure(configs, isKey);
    }

    @Override
    public byte[] serialize(String topic, T data) {
        return serialize(topic, null, data);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        Sanitisation sanitisation = wrapped.sanitisation();
        return sanitisation.apply(topic, headers, wrapped.inner().serialize(topic, headers, data));
    }

    @Override
    public void close() {
        wrapped.close();
    }
}
