package dev.utf8sanitiser.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.core.Utf8Validator;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Kafka Streams DLQ control's deserializer: text through, every kind of ill-formed UTF-8 thrown. */
class StrictUtf8DeserializerTest {
    private final StrictUtf8Deserializer deserializer = new StrictUtf8Deserializer();

    @Test
    void wellFormedTextPassesUnchanged() {
        String text = "ascii, é, 中文, 🙂 and U+10FFFF \uDBFF\uDFFF";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        assertThat(deserializer.deserialize("in", bytes)).isEqualTo(text);
        assertThat(deserializer.deserialize("in", new byte[0])).isEmpty();
        assertThat(deserializer.deserialize("in", null)).isNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "80", // a continuation byte alone
                "41 C3", // a sequence cut short at the end
                "C3 41", // a lead byte followed by ASCII
                "E4 B8 41", // a three-byte sequence cut short
                "C0 80", // overlong NUL
                "C1 BF", // overlong two-byte
                "E0 80 80", // overlong three-byte
                "F0 80 80 80", // overlong four-byte
                "ED A0 80", // a high surrogate
                "ED BF BF", // a low surrogate
                "F4 90 80 80", // above U+10FFFF
                "F5 80 80 80", // a lead byte that never occurs
                "FE",
                "FF"
            })
    void everyKindOfIllFormedInputThrows(String hex) {
        byte[] bytes = bytes(hex);
        assertThat(Utf8Validator.isWellFormed(bytes))
                .as("the case is ill-formed")
                .isFalse();
        assertThatThrownBy(() -> deserializer.deserialize("in", bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("in");
    }

    private static byte[] bytes(String hex) {
        String[] parts = hex.split(" ");
        byte[] bytes = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            bytes[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return bytes;
    }
}
