package dev.utf8sanitiser.registry;

import java.util.Map;
import java.util.Objects;

/**
 * A Protobuf schema as a Confluent registry holds it: the {@code .proto} text of a schema id, and
 * the text of every file it imports, directly or not, by the name an {@code import} statement names
 * it by (its reference's name). Imports of protobuf's own well-known types ({@code
 * google/protobuf/*.proto}) need no reference, as in Confluent's registry.
 *
 * @param schema the id's own file
 * @param imports by import name, each file after those it imports
 */
public record ProtobufSchemaText(String schema, Map<String, String> imports) {
    public ProtobufSchemaText {
        Objects.requireNonNull(schema, "schema");
        imports = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(imports));
    }
}
