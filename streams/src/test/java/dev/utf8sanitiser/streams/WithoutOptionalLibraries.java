package dev.utf8sanitiser.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.config.SanitiserConfigException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Run only by the {@code without-optional-libraries} execution (streams/pom.xml), whose class path
 * lacks Apache Avro and ICU4J, as a user's does who depends on library mode without adding them:
 * the sanitise processor works; settings that need a missing library are refused with its name
 * instead of a {@code NoClassDefFoundError} on the first record.
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
    void libraryModeWorks() {
        Map<String, Object> config = new HashMap<>();
        config.put("application.id", "without-optional-libraries");
        config.put("bootstrap.servers", "unused:9092");
        config.put("sanitiser.policy", "replace");
        try (StreamsSanitiser sanitiser = StreamsSanitiser.create(config)) {
            StreamsBuilder builder = new StreamsBuilder();
            SanitisedStreams parts =
                    sanitiser.sanitise(builder.stream("in", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())));
            parts.output().to("out", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
            parts.deadLetters().to("dlq", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
            Properties properties = new Properties();
            properties.putAll(config);
            try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties)) {
                driver.createInputTopic(
                                "in",
                                Serdes.ByteArray().serializer(),
                                Serdes.ByteArray().serializer())
                        .pipeInput(new byte[] {'k'}, HEX.parseHex("61c0af62"));
                assertThat(driver.createOutputTopic(
                                        "out",
                                        Serdes.ByteArray().deserializer(),
                                        Serdes.ByteArray().deserializer())
                                .readValue())
                        .isEqualTo("a\ufffd\ufffdb".getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void normalisationIsRefusedNamingTheLibrary() {
        assertThatThrownBy(() -> StreamsSanitiser.create(Map.of("sanitiser.normalisation", "NFC")))
                .isInstanceOf(SanitiserConfigException.class)
                .hasMessageContaining("com.ibm.icu:icu4j");
        assertThatThrownBy(() -> StreamsSanitiser.create(Map.of("sanitiser.content.rules", "NOT_NORMALISED:reject")))
                .isInstanceOf(SanitiserConfigException.class)
                .hasMessageContaining("com.ibm.icu:icu4j");
    }
}
