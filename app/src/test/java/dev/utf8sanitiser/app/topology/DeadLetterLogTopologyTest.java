package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.LogLines;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.streams.SanitiseProcessor;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;

/** At DEBUG, each dead letter is one log line with its source coordinates and rule, and no payload. */
class DeadLetterLogTopologyTest {
    @Test
    void eachDeadLetterIsOneDebugLineWithItsCoordinatesAndRuleButNotItsBytes() {
        Properties streams = new Properties();
        streams.put("application.id", "log-test");
        streams.put("bootstrap.servers", "unused:9092");
        LogLines log = LogLines.of(SanitiseProcessor.class, Level.DEBUG);
        try (log;
                TopologyTestDriver driver = new TopologyTestDriver(
                        SanitiserTopology.build(new SanitiserConfig(Map.of("sanitiser.input.topics", "orders"))),
                        streams)) {
            TestInputTopic<byte[], byte[]> in =
                    driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer());
            in.pipeInput("secret".getBytes(), new byte[] {0x73, 0x65, 0x63, (byte) 0xC0, (byte) 0xAF});
            in.pipeInput("fine".getBytes(), "well-formed".getBytes());
        }
        assertThat(log.lines())
                .containsExactly("DEBUG dead-lettered topic=orders partition=0 offset=0 rule=NON_SHORTEST_FORM");
    }
}
