package dev.utf8sanitiser.serdes.record;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.common.header.Header;

/**
 * A header the sanitiser writes: a name and a UTF-8 value. Kafka's public API has the {@link
 * Header} interface but its implementation lives in an {@code internals} package, which this
 * project does not use.
 */
public record Utf8Header(String key, byte[] value) implements Header {
    public Utf8Header {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    public static Utf8Header of(String key, String text) {
        return new Utf8Header(key, text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Utf8Header other && key.equals(other.key) && Arrays.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return key + "=" + new String(value, StandardCharsets.UTF_8);
    }
}
