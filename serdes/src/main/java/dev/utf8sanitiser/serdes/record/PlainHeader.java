package dev.utf8sanitiser.serdes.record;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import org.apache.kafka.common.header.Header;

/**
 * A header: a name and its bytes, the sanitiser's own headers UTF-8 text ({@link #of}). Kafka's
 * public API has the {@link Header} interface but its implementation lives in an {@code internals}
 * package, which this project does not use.
 */
public record PlainHeader(String key, byte[] value) implements Header {
    public PlainHeader {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }

    /** A header whose value is {@code text} in UTF-8, as every header of docs/dlq.md is. */
    public static PlainHeader of(String key, String text) {
        return new PlainHeader(key, text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PlainHeader other && key.equals(other.key) && Arrays.equals(value, other.value);
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
