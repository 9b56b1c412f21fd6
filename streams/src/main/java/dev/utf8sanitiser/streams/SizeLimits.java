package dev.utf8sanitiser.streams;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The most bytes a record may take in each topic the sanitiser writes: the producer's {@code
 * max.request.size} (which the producer checks before sending), and where it is known, the topic's
 * {@code max.message.bytes} (which the broker checks). A record larger than either fails its send,
 * and since a failed send fails the transaction, the stream thread stops and reads the same record
 * again when it restarts: so the sanitiser compares sizes before it sends (docs/dlq.md).
 */
public final class SizeLimits {
    /** Kafka's default {@code max.request.size}: 1 MiB. */
    public static final int DEFAULT_MAX_REQUEST_SIZE = 1024 * 1024;

    private final int maxRequestSize;
    private final Map<String, Integer> topics = new ConcurrentHashMap<>();

    /**
     * @param maxRequestSize the producer's {@code max.request.size}
     * @param maxMessageBytes {@code max.message.bytes} of the topics whose value is known
     */
    public SizeLimits(int maxRequestSize, Map<String, Integer> maxMessageBytes) {
        this.maxRequestSize = maxRequestSize;
        topics.putAll(maxMessageBytes);
    }

    /**
     * The limits of these topics, and the producer's: unless the properties set {@code
     * max.request.size}, this sets {@code producer.max.request.size} in {@code streamsProperties} to
     * the largest topic limit, when that is above Kafka's default, so that a topic's room is not
     * wasted by the producer's default.
     */
    public static SizeLimits forTopics(Map<String, Object> streamsProperties, Map<String, Integer> maxMessageBytes) {
        String producerKey = StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        if (!streamsProperties.containsKey(producerKey)
                && !streamsProperties.containsKey(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)) {
            int largest = maxMessageBytes.values().stream()
                    .mapToInt(Integer::intValue)
                    .max()
                    .orElse(DEFAULT_MAX_REQUEST_SIZE);
            if (largest > DEFAULT_MAX_REQUEST_SIZE) {
                streamsProperties.put(producerKey, largest);
            }
        }
        return new SizeLimits(maxRequestSize(streamsProperties), maxMessageBytes);
    }

    /** The producer's limit only, read from the Kafka Streams properties. */
    public static SizeLimits of(Map<String, ?> streamsProperties) {
        return new SizeLimits(maxRequestSize(streamsProperties), Map.of());
    }

    /**
     * The {@code max.request.size} of Kafka Streams' producer: {@code producer.max.request.size},
     * else {@code max.request.size}, else Kafka's default.
     */
    public static int maxRequestSize(Map<String, ?> streamsProperties) {
        Object value = streamsProperties.get(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
        if (value == null) {
            value = streamsProperties.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        }
        if (value == null) {
            return DEFAULT_MAX_REQUEST_SIZE;
        }
        return (Integer) ConfigDef.parseType(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, value, ConfigDef.Type.INT);
    }

    /** The most bytes a record sent to {@code topic} may take. */
    public int of(String topic) {
        Integer topicLimit = topics.get(topic);
        return topicLimit == null ? maxRequestSize : Math.min(maxRequestSize, topicLimit);
    }
}
