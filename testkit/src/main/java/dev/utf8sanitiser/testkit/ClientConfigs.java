package dev.utf8sanitiser.testkit;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The client settings of {@link EmbeddedKafka} and {@link KafkaCluster}, from their admin settings. */
final class ClientConfigs {
    private ClientConfigs() {}

    /** {@code admin} with {@code byte[]} serializers; a new, modifiable map. */
    static Map<String, Object> producer(Map<String, Object> admin) {
        Map<String, Object> config = new HashMap<>(admin);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return config;
    }

    /**
     * {@code admin} with the group, {@code byte[]} deserializers and {@code
     * auto.offset.reset=earliest} (a test reads what it wrote before it subscribed); a new,
     * modifiable map.
     */
    static Map<String, Object> consumer(Map<String, Object> admin, String groupId) {
        Map<String, Object> config = new HashMap<>(admin);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return config;
    }
}
