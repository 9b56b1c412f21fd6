package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.registry.RegistryMisconfiguredException;
import dev.utf8sanitiser.registry.RegistryUnavailableException;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

/**
 * A registry failure, even one the client reports at once (refused credentials, TLS), is never a
 * verdict: it escapes the topology, which is what stops the stream thread, and nothing is written.
 * With a Kafka handler that continues, which the configuration refuses, the same record would be
 * dropped.
 */
class RegistryFailureTopologyTest {
    private static final byte[] AVRO_VALUE = concat(WireFormat.prefix(7), new byte[] {0x02, 'a'});

    private static SanitiserConfig config() {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", "orders");
        props.put("sanitiser.payload.format", "avro");
        props.put("schema.registry.url", "http://unused:8081");
        props.put("application.id", "registry-failure-test");
        props.put("bootstrap.servers", "unused:9092");
        return new SanitiserConfig(props);
    }

    private static SchemaRegistry failing(Supplier<RuntimeException> failure) {
        return new SchemaRegistry() {
            @Override
            public Schema schema(int id) {
                throw failure.get();
            }

            @Override
            public int register(String subject, Schema schema) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void close() {}
        };
    }

    private static TopologyTestDriver driver(SanitiserConfig config, SchemaRegistry registry, Properties streams) {
        return new TopologyTestDriver(
                SanitiserTopology.build(config, ValueFormats.of(config, () -> registry)), streams);
    }

    private static Properties streamsProperties(SanitiserConfig config) {
        Properties streams = new Properties();
        streams.putAll(config.streamsProperties());
        return streams;
    }

    @Test
    void failuresTheClientReportsAtOnceStopTheThreadAndWriteNothing() {
        List<RuntimeException> failures = List.of(
                new RegistryMisconfiguredException("The Schema Registry at http://unused:8081 refused schema id 7"
                        + " (HTTP 401, error code 40101: Unauthorized)"),
                new RegistryMisconfiguredException("TLS with the Schema Registry at https://unused:8081 failed"),
                new RegistryUnavailableException("Schema Registry unavailable: schema id 7 failed 9 times"));
        SanitiserConfig config = config();
        for (RuntimeException failure : failures) {
            try (TopologyTestDriver driver = driver(config, failing(() -> failure), streamsProperties(config))) {
                Throwable thrown = catchThrowable(
                        () -> driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer())
                                .pipeInput(AVRO_VALUE));

                assertThat(thrown).isInstanceOf(StreamsException.class);
                assertThat(thrown).rootCause().isSameAs(failure);
                for (String topic : List.of("orders.clean", "orders.dlq")) {
                    assertThat(driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer())
                                    .isEmpty())
                            .as("%s after %s", topic, failure.getMessage())
                            .isTrue();
                }
            }
        }
    }

    @Test
    void aHandlerThatContinuesWouldDropTheRecordWhichIsWhyTheConfigurationRefusesIt() {
        SanitiserConfig config = config();
        Properties streams = streamsProperties(config);
        streams.put(
                "processing.exception.handler",
                "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler");
        RegistryUnavailableException outage = new RegistryUnavailableException("Schema Registry unavailable");

        try (TopologyTestDriver driver = driver(config, failing(() -> outage), streams)) {
            driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer())
                    .pipeInput(AVRO_VALUE);

            assertThat(driver.createOutputTopic(
                                    "orders.clean", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                            .isEmpty())
                    .isTrue();
            assertThat(driver.createOutputTopic("orders.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                            .isEmpty())
                    .as("dropped: neither delivered nor dead-lettered")
                    .isTrue();
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
