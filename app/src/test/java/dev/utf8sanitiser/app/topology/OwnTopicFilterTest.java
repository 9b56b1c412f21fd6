package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An input pattern that matches the sanitiser's own output, which start-up did not find: the
 * records of that output are not read again (they once went to G.clean.clean, and on).
 */
class OwnTopicFilterTest {
    /**
     * Matches G and G.clean. Start-up's search tries the letters written in the pattern and one of
     * each kind, and G is written as \x47 here, so it accepts the pattern: the case for the filter.
     */
    private static final String PATTERN = "\\x47+(\\.clean)?";

    private TopologyTestDriver driver;

    @BeforeEach
    void start() {
        SanitiserConfig config = new SanitiserConfig(Map.of("sanitiser.input.pattern", PATTERN));
        Properties streams = new Properties();
        streams.put("application.id", "own-topics-test");
        streams.put("bootstrap.servers", "unused:9092");
        driver = new TopologyTestDriver(SanitiserTopology.build(config), streams);
    }

    @AfterEach
    void close() {
        driver.close();
    }

    private void send(String topic, String value) {
        driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(value.getBytes(StandardCharsets.UTF_8));
    }

    private TestOutputTopic<byte[], byte[]> output(String topic) {
        return driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Test
    void theOutputTopicOfAMatchedInputIsNotReadAgain() {
        send("G", "one");
        send("G.clean", "two");

        assertThat(output("G.clean").readValuesToList())
                .extracting(v -> new String(v, StandardCharsets.UTF_8))
                .containsExactly("one");
        assertThat(output("G.clean.clean").isEmpty()).isTrue();
        assertThat(output("G.clean.dlq").isEmpty()).isTrue();
    }

    @Test
    void otherMatchedTopicsAreRead() {
        send("GG", "three");

        assertThat(output("GG.clean").readValuesToList()).hasSize(1);
    }
}
