package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.registry.RegistryUnavailableException;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** Byte-array values in JSON and in Avro's Confluent wire format, read by serdes' formats. */
class PayloadFormatIT {
    private static final String PERSON = "{\"type\":\"record\",\"name\":\"Person\",\"fields\":["
            + "{\"name\":\"name\",\"type\":\"string\"},"
            + "{\"name\":\"address\",\"type\":{\"type\":\"record\",\"name\":\"Address\",\"fields\":["
            + "{\"name\":\"city\",\"type\":\"string\"}]}}]}";

    private static SinkRecord record(byte[] value) {
        return new SinkRecord("orders", 0, null, null, Schema.BYTES_SCHEMA, value, 42);
    }

    @Test
    void jsonValuesFailWithTheFieldOfTheirFirstError() {
        byte[] value = bytes("{\"customer\":{\"name\":\"Jos", 0xE9, "\"}}");
        try (Utf8Sanitise<SinkRecord> smt = new Utf8Sanitise.Value<>()) {
            smt.configure(Map.of("sanitiser.payload.format", "json"));
            assertThatThrownBy(() -> smt.apply(record(value)))
                    .isInstanceOf(DataException.class)
                    .hasMessageContaining("TRUNCATED at value field customer.name byte 24 (E9)");
            assertThatThrownBy(() -> smt.apply(record(bytes("{\"a\":")))).hasMessageContaining("INVALID_JSON");
        }
    }

    @Test
    void avroValuesAreFixedInsideTheBinaryAndThePredicateSeesTheirStrings() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
            int id = registry.register("orders-value", PERSON);
            // name "Ann", city "B" C0 AF
            byte[] value = concat(WireFormat.prefix(id), bytes(0x06, "Ann", 0x06, "B", 0xC0, 0xAF));
            Map<String, Object> props = new HashMap<>();
            props.put("sanitiser.payload.format", "avro");
            props.put("schema.registry.url", registry.url());
            props.put("sanitiser.policy", "replace");

            try (Utf8Sanitise<SinkRecord> smt = new Utf8Sanitise.Value<>();
                    IsWellFormedUtf8<SinkRecord> predicate = new IsWellFormedUtf8<>()) {
                smt.configure(props);
                Map<String, Object> predicateProps = new HashMap<>(props);
                predicateProps.remove("sanitiser.policy");
                predicate.configure(predicateProps);

                SinkRecord fixed = smt.apply(record(value));

                assertThat(predicate.test(record(value))).isFalse();
                assertThat(predicate.test(fixed)).isTrue();
                byte[] out = (byte[]) fixed.value();
                assertThat(Arrays.copyOf(out, 5)).isEqualTo(WireFormat.prefix(id));
                assertThat(Arrays.copyOfRange(out, 9, out.length))
                        .isEqualTo(bytes(0x0E, "B", 0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD));
                assertThat(fixed.headers().lastWithName("__utf8.action").value())
                        .isEqualTo("replaced");
            }
        }
    }

    @Test
    void anUnreachableRegistryIsAnErrorOfTheTaskNotOfTheRecord() {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.payload.format", "avro");
        props.put("schema.registry.url", "http://127.0.0.1:1");
        props.put("sanitiser.registry.retry.timeout.ms", "200");
        props.put("max.retries", "1");
        try (Utf8Sanitise<SinkRecord> smt = new Utf8Sanitise.Value<>()) {
            smt.configure(props);
            assertThatThrownBy(() -> smt.apply(record(concat(WireFormat.prefix(1), bytes(0x02, "a")))))
                    .isInstanceOf(RegistryUnavailableException.class);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
