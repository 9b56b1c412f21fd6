package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.registry.SchemaRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;

/**
 * Checks the bytes of a key or value before another deserializer sees them: a consumer that
 * refuses ill-formed text instead of reading U+FFFD where it was. Under {@code strict}, {@code poll}
 * throws Kafka's {@code RecordDeserializationException} (partition and offset included) caused by
 * an {@link IllFormedTextException}; under {@code replace} and {@code repair} the inner deserializer
 * gets fixed bytes. A registry that cannot answer surfaces as the cause too, a
 * {@link dev.utf8sanitiser.registry.RegistryUnavailableException}: retry, do not skip.
 */
public final class SanitisingDeserializer<T> implements Deserializer<T> {
    private final Wrapped<T, Deserializer<T>> wrapped;

    /** For clients that create it from configuration. */
    public SanitisingDeserializer() {
        this.wrapped = wrap(Optional.empty(), Optional.empty());
    }

    public SanitisingDeserializer(Deserializer<T> inner) {
        this(inner, Optional.empty());
    }

    /** With a registry of the caller's, which stays the caller's to close. */
    public SanitisingDeserializer(Deserializer<T> inner, Optional<SchemaRegistry> registry) {
        this.wrapped = wrap(Optional.of(Objects.requireNonNull(inner, "inner")), registry);
    }

    private static <T> Wrapped<T, Deserializer<T>> wrap(
            Optional<Deserializer<T>> inner, Optional<SchemaRegistry> registry) {
        return new Wrapped<>(inner, registry, Serde::deserializer, Deserializer::configure, Deserializer::close);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        wrapped.configure(configs, isKey);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return deserialize(topic, null, data);
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        // The record's headers are the broker's; nothing is added to them on the way in.
        Sanitisation sanitisation = wrapped.sanitisation();
        return wrapped.inner().deserialize(topic, headers, sanitisation.apply(topic, null, data));
    }

    @Override
    public void close() {
        wrapped.close();
    }
}
