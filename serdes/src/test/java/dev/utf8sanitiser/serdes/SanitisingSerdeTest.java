package dev.utf8sanitiser.serdes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.config.SanitiserConfigException;
import dev.utf8sanitiser.serdes.avro.MapSchemaRegistry;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class SanitisingSerdeTest {
    private static final byte[] CESU8_EMOJI = bytes(0x41, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80);

    @Test
    void aStrictStringDeserializerRefusesWhatTheJdkWouldTurnIntoReplacementCharacters() {
        try (Deserializer<String> plain = Serdes.String().deserializer();
                Deserializer<String> strict =
                        new SanitisingDeserializer<>(Serdes.String().deserializer())) {
            strict.configure(Map.of(), false);
            assertThat(plain.deserialize("t", CESU8_EMOJI)).isEqualTo("A\uFFFD\uFFFD");
            assertThatThrownBy(() -> strict.deserialize("t", CESU8_EMOJI))
                    .isInstanceOfSatisfying(IllFormedTextException.class, e -> {
                        assertThat(e.rule()).isEqualTo("SURROGATE");
                        assertThat(e.offset()).isEqualTo(1);
                        assertThat(e.errors()).isEqualTo(6);
                        assertThat(e.getMessage())
                                .isEqualTo(
                                        "SURROGATE at value byte 1 (ED A0 BD ED B8 80) in a record of topic t (6 errors)");
                    });
            assertThat(strict.deserialize("t", "Grüße".getBytes(StandardCharsets.UTF_8)))
                    .isEqualTo("Grüße");
        }
    }

    @Test
    void theDeadLetterHeadersNameTheExceptionTheSerdesThrow() {
        // Kafka Streams' own dead-letter handler writes the thrown class; the sanitiser writes the same.
        assertThat(DeadLetterAnnotation.EXCEPTION_NAME).isEqualTo(IllFormedTextException.class.getName());
    }

    @Test
    void repairGivesTheInnerDeserializerTheCharacterMeant() {
        try (Deserializer<String> repair =
                new SanitisingDeserializer<>(Serdes.String().deserializer())) {
            repair.configure(Map.of("sanitiser.policy", "repair"), false);
            assertThat(repair.deserialize("t", CESU8_EMOJI)).isEqualTo("A😀");
        }
    }

    @Test
    void aKeyDeserializerNamesTheKey() {
        try (Deserializer<String> strict =
                new SanitisingDeserializer<>(Serdes.String().deserializer())) {
            strict.configure(Map.of(), true);
            assertThatThrownBy(() -> strict.deserialize("t", bytes(0xFF)))
                    .hasMessageStartingWith("INVALID_BYTE at key byte 0");
        }
    }

    @Test
    void theSerializerChecksWhatTheInnerSerializerWroteAndMarksFixedRecords() {
        try (Serializer<byte[]> replace =
                new SanitisingSerializer<>(Serdes.ByteArray().serializer())) {
            replace.configure(Map.of("sanitiser.policy", "replace"), false);
            RecordHeaders headers = new RecordHeaders();

            byte[] out = replace.serialize("t", headers, bytes(0x61, 0xC0, 0xAF));

            assertThat(out).isEqualTo(bytes(0x61, 0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD));
            assertThat(new String(headers.lastHeader(HeaderNames.ACTION).value(), StandardCharsets.UTF_8))
                    .isEqualTo("replaced");
            assertThat(replace.serialize("t", null, null)).isNull();
        }
    }

    @Test
    void configuredFromClientPropertiesItWrapsTheNamedSerde() {
        try (SanitisingSerde<String> serde = new SanitisingSerde<>()) {
            serde.configure(
                    Map.of(
                            "sanitiser.serde.inner", "org.apache.kafka.common.serialization.Serdes$StringSerde",
                            "sanitiser.payload.format", "json",
                            "bootstrap.servers", "ignored:9092"),
                    false);
            assertThat(serde.deserializer().deserialize("t", "{\"a\":\"b\"}".getBytes(StandardCharsets.UTF_8)))
                    .isEqualTo("{\"a\":\"b\"}");
            assertThatThrownBy(() -> serde.deserializer().deserialize("t", bytes(0x7B)))
                    .isInstanceOfSatisfying(IllFormedTextException.class, e -> assertThat(e.rule())
                            .isEqualTo("INVALID_JSON"));
        }
    }

    @Test
    void eachRefusesToWorkBeforeItIsConfigured() {
        try (SanitisingSerializer<byte[]> serializer =
                        new SanitisingSerializer<>(Serdes.ByteArray().serializer());
                SanitisingDeserializer<byte[]> deserializer =
                        new SanitisingDeserializer<>(Serdes.ByteArray().deserializer())) {
            assertThatThrownBy(() -> serializer.serialize("t", bytes(0x41)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("configure() was not called");
            assertThatThrownBy(() -> deserializer.deserialize("t", bytes(0x41)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("configure() was not called");
        }
    }

    @Test
    void eachConfiguresAndClosesTheOneItWraps() {
        List<String> calls = new ArrayList<>();
        Serializer<byte[]> innerSerializer = new Serializer<>() {
            @Override
            public void configure(Map<String, ?> configs, boolean isKey) {
                calls.add("serializer configured " + configs.get("x") + " " + isKey);
            }

            @Override
            public byte[] serialize(String topic, byte[] data) {
                return data;
            }

            @Override
            public void close() {
                calls.add("serializer closed");
            }
        };
        Deserializer<byte[]> innerDeserializer = new Deserializer<>() {
            @Override
            public void configure(Map<String, ?> configs, boolean isKey) {
                calls.add("deserializer configured " + configs.get("x") + " " + isKey);
            }

            @Override
            public byte[] deserialize(String topic, byte[] data) {
                return data;
            }

            @Override
            public void close() {
                calls.add("deserializer closed");
            }
        };
        SanitisingSerializer<byte[]> serializer = new SanitisingSerializer<>(innerSerializer);
        SanitisingDeserializer<byte[]> deserializer = new SanitisingDeserializer<>(innerDeserializer);

        serializer.configure(Map.of("x", "1"), true);
        deserializer.configure(Map.of("x", "2"), false);
        assertThatThrownBy(() -> serializer.serialize("t", bytes(0x41, 0xFF)))
                .isInstanceOf(IllFormedTextException.class);
        assertThat(deserializer.deserialize("t", bytes(0x41))).isEqualTo(bytes(0x41));
        serializer.close();
        deserializer.close();

        assertThat(calls)
                .containsExactly(
                        "serializer configured 1 true",
                        "deserializer configured 2 false",
                        "serializer closed",
                        "deserializer closed");
    }

    @Test
    void aSerializerCreatedByNameWrapsTheNamedSerde() {
        try (SanitisingSerializer<String> serializer = new SanitisingSerializer<>()) {
            serializer.configure(
                    Map.of("sanitiser.serde.inner", "org.apache.kafka.common.serialization.Serdes$StringSerde"), false);
            assertThat(serializer.serialize("t", "é")).isEqualTo("é".getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void avroValuesAreCheckedFieldByField() {
        MapSchemaRegistry registry = new MapSchemaRegistry()
                .with(
                        5,
                        SchemaBuilder.record("R")
                                .fields()
                                .requiredString("name")
                                .endRecord());
        try (Deserializer<byte[]> strict =
                new SanitisingDeserializer<>(Serdes.ByteArray().deserializer(), Optional.of(registry))) {
            strict.configure(Map.of("sanitiser.payload.format", "avro"), false);
            byte[] value = concat(WireFormat.prefix(5), bytes(0x04, 0x61, 0xFF));
            assertThatThrownBy(() -> strict.deserialize("t", value))
                    .isInstanceOfSatisfying(IllFormedTextException.class, e -> {
                        assertThat(e.field()).contains("name");
                        assertThat(e.offset()).isEqualTo(7);
                    });
        }
    }

    @Test
    void oneMapConfiguresKeyAndValueSerdesAndKeysAreTextUnlessTheyAreSaidToBeAvro() {
        MapSchemaRegistry registry = new MapSchemaRegistry()
                .with(
                        5,
                        SchemaBuilder.record("R")
                                .fields()
                                .requiredString("name")
                                .endRecord());
        Map<String, Object> shared = Map.of("sanitiser.payload.format", "avro");
        byte[] plainKey = "order-42".getBytes(StandardCharsets.UTF_8);
        try (Deserializer<String> key =
                        new SanitisingDeserializer<>(Serdes.String().deserializer(), Optional.of(registry));
                Deserializer<byte[]> value =
                        new SanitisingDeserializer<>(Serdes.ByteArray().deserializer(), Optional.of(registry));
                Deserializer<byte[]> avroKey =
                        new SanitisingDeserializer<>(Serdes.ByteArray().deserializer(), Optional.of(registry))) {
            key.configure(shared, true);
            value.configure(shared, false);
            avroKey.configure(
                    Map.of("sanitiser.payload.format", "avro", "sanitiser.serde.key.payload.format", "avro"), true);

            assertThat(key.deserialize("t", plainKey)).isEqualTo("order-42");
            assertThatThrownBy(() -> value.deserialize("t", plainKey))
                    .hasMessageStartingWith("NOT_AVRO at value byte 0");
            assertThatThrownBy(() -> avroKey.deserialize("t", plainKey))
                    .hasMessageStartingWith("NOT_AVRO at key byte 0");
            assertThat(avroKey.deserialize("t", concat(WireFormat.prefix(5), bytes(0x04, 0x61, 0x62))))
                    .hasSize(8);
        }
    }

    @Test
    void badSettingsAreReportedAllAtOnce() {
        try (Deserializer<String> d =
                new SanitisingDeserializer<>(Serdes.String().deserializer())) {
            assertThatThrownBy(() -> d.configure(
                            Map.of("sanitiser.policy", "lenient", "sanitiser.payload.format", "avro"), false))
                    .isInstanceOfSatisfying(SanitiserConfigException.class, e -> assertThat(e.messages())
                            .anySatisfy(m -> assertThat(m).contains("sanitiser.policy"))
                            .anySatisfy(m -> assertThat(m).contains("schema.registry.url")));
        }
    }

    static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
