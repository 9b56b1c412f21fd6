package dev.utf8sanitiser.serdes.record;

import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.header.Header;

/**
 * A whole record as sent on after a change: key, value and headers (the original headers, each
 * checked one replaced by its fixed value, in their order; without the sanitiser's own annotation,
 * which {@link Decision.Changed#annotation()} gives).
 */
public record RecordParts(byte[] key, byte[] value, List<Header> headers) {
    public RecordParts {
        Objects.requireNonNull(value, "value");
        headers = List.copyOf(headers);
    }
}
