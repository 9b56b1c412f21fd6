package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The properties the sanitiser gives Kafka Streams, read by Kafka's own {@link StreamsConfig} as
 * Kafka Streams reads them: each copy of the Streams configuration it builds must find {@code
 * processing.exception.handler.global.enabled} set, or Kafka 4.3 logs a WARN line at every start
 * of a stream thread. The partition assignor builds one from the main consumer's configuration.
 */
class KafkaStreamsPropertiesTest {
    private static final String GLOBAL = "processing.exception.handler.global.enabled";

    private final SanitiserConfig config = new SanitiserConfig(Map.of(
            "application.id", "properties-test",
            "bootstrap.servers", "127.0.0.1:9092",
            "sanitiser.input.topics", "in"));

    @Test
    void theApplicationsStreamsConfigurationEnablesTheGlobalHandler() {
        Properties properties = SanitiserApplication.kafkaStreamsProperties(config.streamsProperties());
        assertThat(new StreamsConfig(properties).getBoolean(GLOBAL)).isTrue();
    }

    @Test
    void theConfigurationThePartitionAssignorBuildsFromTheMainConsumerEnablesItToo() {
        Properties properties = SanitiserApplication.kafkaStreamsProperties(config.streamsProperties());
        Map<String, Object> consumer = new StreamsConfig(properties).getMainConsumerConfigs("group", "client", 0);
        assertThat(new StreamsConfig(consumer).getBoolean(GLOBAL)).isTrue();
    }

    @Test
    void anOperatorsOwnSettingIsKept() {
        SanitiserConfig disabled = new SanitiserConfig(Map.of(
                "application.id",
                "properties-test",
                "bootstrap.servers",
                "127.0.0.1:9092",
                "sanitiser.input.topics",
                "in",
                GLOBAL,
                "false"));
        Properties properties = SanitiserApplication.kafkaStreamsProperties(disabled.streamsProperties());
        assertThat(new StreamsConfig(properties).getBoolean(GLOBAL)).isFalse();
        Map<String, Object> consumer = new StreamsConfig(properties).getMainConsumerConfigs("group", "client", 0);
        assertThat(new StreamsConfig(consumer).getBoolean(GLOBAL)).isFalse();
    }
}
