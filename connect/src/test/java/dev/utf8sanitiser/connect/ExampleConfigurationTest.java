package dev.utf8sanitiser.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.config.SanitiserConfigLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.transforms.Transformation;
import org.junit.jupiter.api.Test;

/** config/examples/connect-smt.properties configures the real class as Connect would. */
class ExampleConfigurationTest {

    private static final Path EXAMPLE =
            Path.of(System.getProperty("connect.example", "../config/examples/connect-smt.properties"));

    @Test
    void theExampleNamesTheTransformationAndConfiguresIt() throws Exception {
        Map<String, String> connector = SanitiserConfigLoader.readProperties(EXAMPLE);
        String prefix = "transforms." + connector.get("transforms") + ".";
        // What ConnectorConfig hands a transformation: every key under its prefix, type included.
        Map<String, Object> props = new HashMap<>();
        connector.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                props.put(key.substring(prefix.length()), value);
            }
        });

        @SuppressWarnings("unchecked")
        Transformation<SinkRecord> smt = (Transformation<SinkRecord>) Class.forName((String) props.get("type"))
                .getDeclaredConstructor()
                .newInstance();
        smt.configure(props);

        assertThat(smt).isInstanceOf(Utf8Sanitise.Value.class);
        assertThat(connector.get("value.converter")).endsWith("ByteArrayConverter");
        assertThatThrownBy(() -> smt.apply(Records.sink(Schema.BYTES_SCHEMA, Records.SURROGATE)))
                .isInstanceOf(DataException.class)
                .hasMessage("SURROGATE at value byte 3 (ED A0 80)");
        assertThatThrownBy(() -> smt.apply(Records.sink(Schema.BYTES_SCHEMA, Records.bytes("a", 0))))
                .hasMessage("NUL at value byte 1 (00)");
    }
}
