package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.util.EnumSet;
import java.util.HashMap;
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
    private final SchemaRegistryOwner ownedRegistry;

    private Sanitisation(RecordSanitiser sanitiser, Part part, SchemaRegistryOwner ownedRegistry) {
        this.sanitiser = sanitiser;
        this.part = part;
        this.ownedRegistry = ownedRegistry;
    }

    /**
     * @param registry a registry to use rather than one made from {@code schema.registry.url}
     * @throws dev.utf8sanitiser.config.SanitiserConfigException with every problem in {@code configs}
     */
    static Sanitisation configure(Map<String, ?> configs, boolean isKey, Optional<SchemaRegistry> registry) {
        Map<String, Object> settings = new HashMap<>(configs);
        if (isKey) {
            // Keys have their own payload format, as Kafka's serdes have key.serializer.encoding:
            // one map configures a client's key and value serdes, and its Avro values are not keys.
            SanitiserConfig shared = new SanitiserConfig(configs, Set.of());
            settings.put(
                    SanitiserConfig.PAYLOAD_FORMAT_CONFIG,
                    shared.serdeKeyPayloadFormat().configName());
        }
        SanitiserConfig config = new SanitiserConfig(
                settings,
                registry.isPresent()
                        ? EnumSet.noneOf(Requirement.class)
                        : EnumSet.of(Requirement.SCHEMA_REGISTRY_FOR_AVRO));
        // Opened only if the payload format needs it, and only when the caller gave none.
        SchemaRegistryOwner owned = SchemaRegistryOwner.unchecked(config);
        RecordSanitiser sanitiser =
                ValueFormats.sanitiser(config, ValueFormats.of(config, () -> registry.orElseGet(owned)));
        return new Sanitisation(sanitiser, isKey ? Part.KEY : Part.VALUE, owned);
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
        Decision<byte[]> decision = sanitiser.decidePart(part, bytes);
        if (decision instanceof Decision.DeadLetter<byte[]> dead) {
            throw new IllFormedTextException(topic, dead.first(), dead.errors(), sanitiser.policy());
        }
        if (decision instanceof Decision.Changed<byte[]> changed) {
            if (headers != null) {
                changed.annotation().forEach(headers::add);
            }
            return changed.fixed();
        }
        return bytes;
    }

    @Override
    public void close() {
        ownedRegistry.close();
    }
}
