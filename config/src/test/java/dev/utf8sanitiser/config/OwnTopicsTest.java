package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnTopicsTest {
    @Test
    void namesTheInputWhoseOutputOrDeadLetterTopicItIs() {
        OwnTopics own = OwnTopics.of(new SanitiserConfig(Map.of("sanitiser.input.topics", "orders,payments")));

        assertThat(own.writer("orders.clean")).contains("the sanitiser.output.topic of orders");
        assertThat(own.writer("payments.dlq")).contains("the sanitiser.dlq.topic of payments");
        assertThat(own.writer("orders")).isEmpty();
        assertThat(own.writer("invoices.clean")).isEmpty(); // invoices is no input
    }

    @Test
    void withAPatternTheInputIsWhateverItMatches() {
        OwnTopics own = OwnTopics.of(new SanitiserConfig(Map.of(
                "sanitiser.input.pattern", "[a-z]+",
                "sanitiser.dlq.topic", "dead.letters")));

        assertThat(own.writer("anything.clean")).contains("the sanitiser.output.topic of anything");
        assertThat(own.writer("Upper.clean")).isEmpty();
        assertThat(own.writer("dead.letters")).contains("the sanitiser.dlq.topic of every input");
    }
}
