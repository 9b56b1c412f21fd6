package dev.utf8sanitiser.config;

/**
 * The Connect type of the headers the SMT adds ({@code sanitiser.header.type}). Their bytes in Kafka
 * are the same UTF-8 text either way, provided the type suits the connector's header converter.
 */
public enum HeaderType {
    /** A string header: for SimpleHeaderConverter (the worker's default) and StringConverter. */
    STRING,
    /** A bytes header holding the UTF-8 text: for ByteArrayConverter, which refuses strings. */
    BYTES
}
