package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import dev.utf8sanitiser.streams.DeadLetterBreakerOpenException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter circuit breaker: the record that would put the share of dead letters above the
 * limit is not dead-lettered; the processor throws instead, so the stream thread aborts.
 */
class DeadLetterBreakerTopologyTest {
    private static final byte[] GOOD = "ok".getBytes(StandardCharsets.UTF_8);
    private static final byte[] BAD = {'a', (byte) 0xFF};

    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void start(Map<String, String> breaker) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", "orders,other");
        props.putAll(breaker);
        Properties streams = new Properties();
        streams.put("application.id", "breaker-test");
        streams.put("bootstrap.servers", "unused:9092");
        driver = new TopologyTestDriver(SanitiserTopology.build(new SanitiserConfig(props), ValueFormat.TEXT), streams);
    }

    private TestInputTopic<byte[], byte[]> input(String topic) {
        return driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private long count(String topic) {
        return driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer())
                .getQueueSize();
    }

    private static Map<String, String> breaker(String share, String window, String min) {
        return Map.of(
                "sanitiser.circuit.breaker.dead.letter.share", share,
                "sanitiser.circuit.breaker.window.records", window,
                "sanitiser.circuit.breaker.min.records", min);
    }

    @Test
    void offByDefaultEveryBadRecordIsDeadLettered() {
        start(Map.of());
        for (int i = 0; i < 1000; i++) {
            input("orders").pipeInput(BAD);
        }
        assertThat(count("orders.dlq")).isEqualTo(1000);
    }

    @Test
    void aHundredGoodThenBadTripsAtTheRecordThatWouldPassHalf() {
        start(breaker("0.5", "1000", "100"));
        for (int i = 0; i < 100; i++) {
            input("orders").pipeInput(GOOD);
        }
        for (int i = 0; i < 100; i++) {
            input("orders").pipeInput(BAD); // 100 of 200: half, not above it
        }
        assertThat(count("orders.dlq")).isEqualTo(100);

        assertThatThrownBy(() -> input("orders").pipeInput(BAD))
                .rootCause()
                .isInstanceOfSatisfying(DeadLetterBreakerOpenException.class, open -> {
                    assertThat(open.topic()).isEqualTo("orders");
                    assertThat(open.deadLetters()).isEqualTo(101);
                    assertThat(open.records()).isEqualTo(201);
                })
                .hasMessageContaining("101 of the last 201 records")
                .hasMessageContaining("sanitiser.circuit.breaker.dead.letter.share=0.5");
        assertThat(count("orders.dlq"))
                .as("the record that trips it is not dead-lettered")
                .isEqualTo(100);
        assertThat(count("orders.clean")).isEqualTo(100);
    }

    @Test
    void itDoesNotTripBeforeTheWindowHoldsTheMinimum() {
        start(breaker("0.5", "1000", "10"));
        for (int i = 0; i < 9; i++) {
            input("orders").pipeInput(BAD); // 100% dead letters, but 9 records only
        }
        assertThat(count("orders.dlq")).isEqualTo(9);
        assertThatThrownBy(() -> input("orders").pipeInput(BAD))
                .rootCause()
                .isInstanceOf(DeadLetterBreakerOpenException.class);
        assertThat(count("orders.dlq")).isEqualTo(9);
    }

    /** The window slides: old dead letters leave it, so a steady 40% never trips a 50% limit. */
    @Test
    void theShareIsOverTheLastWindowOfRecords() {
        start(breaker("0.5", "10", "10"));
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 4; i++) {
                input("orders").pipeInput(BAD);
            }
            for (int i = 0; i < 6; i++) {
                input("orders").pipeInput(GOOD);
            }
        }
        assertThat(count("orders.dlq")).isEqualTo(200);
        // Now five bad in a row: the window of 10 holds 4 good + ... the sixth would be 6 of 10.
        for (int i = 0; i < 5; i++) {
            input("orders").pipeInput(BAD); // window: 1 bad 4 good... then 5 bad: at most 5 of 10
        }
        assertThatThrownBy(() -> input("orders").pipeInput(BAD))
                .rootCause()
                .isInstanceOfSatisfying(DeadLetterBreakerOpenException.class, open -> assertThat(open.deadLetters())
                        .isEqualTo(6));
        assertThat(count("orders.dlq")).isEqualTo(205);
    }

    @Test
    void eachInputTopicHasItsOwnWindow() {
        start(breaker("0.5", "100", "10"));
        for (int i = 0; i < 50; i++) {
            input("orders").pipeInput(GOOD);
        }
        for (int i = 0; i < 9; i++) {
            input("other").pipeInput(BAD);
        }
        assertThatThrownBy(() -> input("other").pipeInput(BAD))
                .rootCause()
                .isInstanceOfSatisfying(DeadLetterBreakerOpenException.class, open -> assertThat(open.topic())
                        .isEqualTo("other"));
    }
}
