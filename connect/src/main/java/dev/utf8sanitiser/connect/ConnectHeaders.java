package dev.utf8sanitiser.connect;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.config.HeaderType;
import org.apache.kafka.connect.header.Headers;

/**
 * Adds the sanitiser's headers to a Connect record as {@code sanitiser.header.type} says, so that
 * the connector's header converter writes the bytes of docs/dlq.md: UTF-8 text.
 */
final class ConnectHeaders {
    private ConnectHeaders() {}

    static void add(Headers headers, String name, String value, HeaderType type) {
        if (type == HeaderType.BYTES) {
            headers.addBytes(name, value.getBytes(UTF_8));
        } else {
            headers.addString(name, value);
        }
    }

    static void add(Headers headers, String name, byte[] utf8, HeaderType type) {
        if (type == HeaderType.BYTES) {
            headers.addBytes(name, utf8);
        } else {
            headers.addString(name, new String(utf8, UTF_8));
        }
    }
}
