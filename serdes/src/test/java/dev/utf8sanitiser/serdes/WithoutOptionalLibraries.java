package dev.utf8sanitiser.serdes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.config.SanitiserConfigException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Run only by the {@code without-optional-libraries} execution (serdes/pom.xml), whose class path
 * lacks Apache Avro and ICU4J, as a user's does who depends on the serdes without adding them: text
 * and JSON and the content rules work; settings that need a missing library are
 * refused with its name instead of a {@code NoClassDefFoundError} on the first record.
 */
@EnabledIfSystemProperty(named = "without.optional.libraries", matches = "true")
class WithoutOptionalLibraries {
    private static final HexFormat HEX = HexFormat.ofDelimiter("");

    @Test
    void theClassPathReallyLacksThem() {
        assertThatThrownBy(() -> Class.forName("org.apache.avro.Schema")).isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("com.ibm.icu.text.Normalizer2"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void textAndJsonAndContentRulesWork() {
        for (String format : new String[] {"text", "json"}) {
            Map<String, Object> config = Map.of(
                    "sanitiser.payload.format", format,
                    "sanitiser.content.rules", "NUL:reject",
                    "sanitiser.serde.inner", "org.apache.kafka.common.serialization.Serdes$StringSerde");
            try (SanitisingDeserializer<String> deserializer = new SanitisingDeserializer<>()) {
                deserializer.configure(config, false);
                assertThat(deserializer.deserialize("t", "\"caf\u00e9\"".getBytes(StandardCharsets.UTF_8)))
                        .isEqualTo("\"caf\u00e9\"");
                assertThatThrownBy(() -> deserializer.deserialize("t", HEX.parseHex("22eda08022")))
                        .isInstanceOfSatisfying(IllFormedTextException.class, e -> assertThat(e.rule())
                                .isEqualTo("SURROGATE"));
                // A raw NUL: the content rule in text, not JSON at all in JSON.
                String rule = format.equals("text") ? "NUL" : "INVALID_JSON";
                assertThatThrownBy(() -> deserializer.deserialize("t", HEX.parseHex("22610022")))
                        .isInstanceOfSatisfying(IllFormedTextException.class, e -> assertThat(e.rule())
                                .isEqualTo(rule));
            }
        }
    }

    @Test
    void avroIsRefusedNamingTheLibrary() {
        Map<String, Object> config = Map.of(
                "sanitiser.payload.format", "avro",
                "schema.registry.url", "http://127.0.0.1:1",
                "sanitiser.serde.inner", "org.apache.kafka.common.serialization.Serdes$ByteArraySerde");
        try (SanitisingDeserializer<byte[]> deserializer = new SanitisingDeserializer<>()) {
            assertThatThrownBy(() -> deserializer.configure(config, false))
                    .isInstanceOf(SanitiserConfigException.class)
                    .hasMessageContaining("org.apache.avro:avro");
        }
    }
}
