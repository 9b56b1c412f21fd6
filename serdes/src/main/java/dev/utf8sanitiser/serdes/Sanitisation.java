package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.serdes.registry.RestSchemaRegistry;
import dev.utf8sanitiser.serdes.registry.SchemaRegistry;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Utils;

/**
 * What a sanitising serializer or deserializer does to the bytes of one key or value, configured
 * with the sanitiser's keys (docs/configuration.md). Owns the schema registry client it creates.
 */
final class Sanitisation implements AutoCloseable {
    private final RecordSanitiser sanitiser;
    private final Part part;
    private final SchemaRegistry ownedRegistry;

    private Sanitisation(RecordSanitiser sanitiser, Part part, SchemaRegistry ownedRegistry) {
        this.sanitiser = sanitiser;
        this.part = part;
        this.ownedRegistry = ownedRegistry;
    }

    /**
     * @param registry a registry to use rather than one made from {@code schema.registry.url}
     * @throws dev.utf8sanitiser.config.SanitiserConfigException with every problem in {@code configs}
     */
    static Sanitisation configure(Map<String, ?> configs, boolean isKey, Optional<SchemaRegistry> registry) {
        SanitiserConfig config = new SanitiserConfig(
                configs,
                registry.isPresent()
                        ? EnumSet.noneOf(Requirement.class)
                        : EnumSet.of(Requirement.SCHEMA_REGISTRY_FOR_AVRO));
        SchemaRegistry[] created = new SchemaRegistry[1];
        RecordSanitiser sanitiser = ValueFormats.sanitiser(
                config,
                ValueFormats.of(
                        config, () -> registry.orElseGet(() -> created[0] = RestSchemaRegistry.create(config))));
        return new Sanitisation(sanitiser, isKey ? Part.KEY : Part.VALUE, created[0]);
    }

    /** The serde {@code sanitiser.serde.inner} names, configured: for serdes a client creates by name. */
    @SuppressWarnings("unchecked")
    static <T> Serde<T> innerSerde(Map<String, ?> configs, boolean isKey) {
        Class<?> type = new SanitiserConfig(configs, Set.of()).serdeInner();
        Serde<T> serde = Utils.newInstance((Class<Serde<T>>) type);
        serde.configure(configs, isKey);
        return serde;
    }

    /**
     * The bytes to hand on: the same array when well-formed, fixed bytes under {@code replace} and
     * {@code repair} (adding {@code __utf8.action} and {@code __utf8.errors} to {@code headers} when
     * there are any), or an exception.
     *
     * @throws IllFormedTextException the bytes are refused
     */
    byte[] apply(String topic, Headers headers, byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        Decision decision = sanitiser.decidePart(part, bytes);
        if (decision instanceof Decision.DeadLetter dead) {
            throw new IllFormedTextException(topic, dead.first(), dead.errors());
        }
        if (decision instanceof Decision.Changed changed) {
            if (headers != null) {
                headers.add(HeaderNames.ACTION, changed.action().getBytes(StandardCharsets.UTF_8));
                headers.add(
                        HeaderNames.ERRORS, Integer.toString(changed.errors()).getBytes(StandardCharsets.UTF_8));
            }
            return part.equals(Part.KEY) ? changed.key() : changed.value();
        }
        return bytes;
    }

    @Override
    public void close() {
        if (ownedRegistry != null) {
            ownedRegistry.close();
        }
    }
}
