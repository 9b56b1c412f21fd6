package dev.utf8sanitiser.config;

import java.util.Locale;
import java.util.Optional;

/** How the sanitiser reads a record's value ({@code sanitiser.payload.format}). */
public enum PayloadFormat {
    /** The whole value is one text: every byte is checked. The default. */
    TEXT,
    /** The value is JSON: the document must parse, and every string in it is checked. */
    JSON,
    /**
     * The value is Avro in the Confluent wire format (magic byte, 4-byte schema id, binary); every
     * string field is checked. Needs {@code schema.registry.url}.
     */
    AVRO,
    /**
     * The value is Protobuf in the Confluent wire format (magic byte, 4-byte schema id, message
     * indexes, binary); the string fields protobuf checks are checked, or all of them with {@code
     * sanitiser.protobuf.check.all.strings}. Needs {@code schema.registry.url}.
     */
    PROTOBUF;

    /** Whether values of this format name their schema in a registry, which must then be set. */
    public boolean needsSchemaRegistry() {
        return this == AVRO || this == PROTOBUF;
    }

    /** The name in configuration files: {@code text}, {@code json}, {@code avro}, {@code protobuf}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The format with this configuration name, ignoring case. */
    public static Optional<PayloadFormat> fromConfigName(String name) {
        for (PayloadFormat format : values()) {
            if (format.configName().equalsIgnoreCase(name)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }
}
