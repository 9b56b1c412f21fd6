package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.registry.SchemaRegistry;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A serde that sanitises both ways around another serde: see {@link SanitisingSerializer} and
 * {@link SanitisingDeserializer}. {@code new SanitisingSerde<>(Serdes.String())}, configured with
 * {@code sanitiser.policy=strict}, is a String serde that refuses ill-formed UTF-8.
 */
public final class SanitisingSerde<T> implements Serde<T> {
    private final SanitisingSerializer<T> serializer;
    private final SanitisingDeserializer<T> deserializer;

    /** For clients that create it from configuration: wraps {@code sanitiser.serde.inner}. */
    public SanitisingSerde() {
        this.serializer = new SanitisingSerializer<>();
        this.deserializer = new SanitisingDeserializer<>();
    }

    public SanitisingSerde(Serde<T> inner) {
        this(inner, Optional.empty());
    }

    /** With a registry of the caller's, which stays the caller's to close. */
    public SanitisingSerde(Serde<T> inner, Optional<SchemaRegistry> registry) {
        this.serializer = new SanitisingSerializer<>(inner.serializer(), registry);
        this.deserializer = new SanitisingDeserializer<>(inner.deserializer(), registry);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }

    @Override
    public void close() {
        serializer.close();
        deserializer.close();
    }
}
