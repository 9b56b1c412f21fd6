package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fault tests' input writer writes every record even when the broker is away for longer than a
 * record may wait: the sends that expire are sent again by a new producer, and the input read back
 * holds every record (some perhaps twice, which {@link FaultAccounting} expects downstream).
 */
class FaultInputWriterIT {
    private static final int RECORDS = 3_000;

    @Test
    void sendsAgainWhatExpiredWhileTheBrokerWasAway() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            kafka.createTopics(3, "writer-in");
            // Records may wait 3 s; the broker is away for 8 s, so some expire.
            FaultInputWriter writer = new FaultInputWriter(
                    kafka.producerConfig(),
                    "writer-in",
                    RECORDS,
                    Duration.ofSeconds(10),
                    FaultSuite::key,
                    FaultSuite::value,
                    Duration.ofSeconds(3));
            Thread.sleep(2_000);
            kafka.stopBroker(true);
            Thread.sleep(8_000);
            kafka.restart();
            writer.await();

            assertThat(writer.failure()).isNull();
            assertThat(writer.sendsRepeated()).as("sends repeated").isPositive();
            assertThat(writer.producersReplaced()).as("producers replaced").isPositive();
            Map<Integer, Integer> input = FaultAccounting.countInput(kafka.consumerConfig("unused"), "writer-in", 3);
            assertThat(input).hasSize(RECORDS);
            System.out.printf(
                    "FaultInputWriterIT: %d records, %d sends repeated, %d producers replaced, %d written twice%n",
                    RECORDS,
                    writer.sendsRepeated(),
                    writer.producersReplaced(),
                    input.values().stream().mapToInt(n -> n - 1).sum());
        }
    }
}
