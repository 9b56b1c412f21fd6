package dev.utf8sanitiser.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.utf8sanitiser.testkit.SchemaReference;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Protobuf schemas over real HTTP from the test registry: texts, imports by reference, verdicts. */
class RestSchemaRegistryProtobufIT {
    private static final String MONEY = "syntax = \"proto3\"; package common; message Money { string c = 1; }";
    private static final String UNIT = "syntax = \"proto3\"; package common; message Unit { string u = 1; }";

    @Test
    void givesTheTextWithEveryImportByItsReferenceName() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start();
                RestSchemaRegistry client = FastClients.client(registry.url())) {
            registry.register("unit", "PROTOBUF", UNIT, List.of());
            String money = MONEY.replace("package common;", "package common; import \"unit.proto\";");
            registry.register("money", "PROTOBUF", money, List.of(new SchemaReference("unit.proto", "unit", 1)));
            String order = "syntax = \"proto3\"; import \"common/money.proto\"; message O { common.Money m = 1; }";
            int id = registry.register(
                    "orders-value", "PROTOBUF", order, List.of(new SchemaReference("common/money.proto", "money", 1)));
            int avro = registry.register("other-value", "{\"type\": \"string\"}");

            ProtobufSchemaText text = client.protobuf(id);

            assertThat(text.schema()).isEqualTo(order);
            assertThat(text.imports()).isEqualTo(Map.of("unit.proto", UNIT, "common/money.proto", money));
            assertThat(text.imports().keySet())
                    .as("each file after those it imports")
                    .containsExactly("unit.proto", "common/money.proto");
            assertThat(client.protobuf(id)).isSameAs(text);
            assertThat(catchThrowable(() -> client.schema(id))).isInstanceOf(NotAvroSchemaException.class);
            assertThat(catchThrowable(() -> client.protobuf(avro)))
                    .isInstanceOf(NotProtobufSchemaException.class)
                    .hasMessage("schema id " + avro + " is a AVRO schema, not Protobuf");
            assertThat(catchThrowable(() -> client.protobuf(9999))).isInstanceOf(UnknownSchemaException.class);
        }
    }

    @Test
    void aReferenceToASchemaNotProtobufIsUnusable() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start();
                RestSchemaRegistry client = FastClients.client(registry.url())) {
            registry.register("avro", "{\"type\": \"string\"}");
            int id = registry.register(
                    "orders-value",
                    "PROTOBUF",
                    "syntax = \"proto3\";",
                    List.of(new SchemaReference("a.proto", "avro", 1)));

            assertThat(catchThrowable(() -> client.protobuf(id)))
                    .isInstanceOf(UnusableSchemaException.class)
                    .hasMessage("Schema id " + id + " references subject avro version 1, which is a AVRO schema, not"
                            + " Protobuf");
        }
    }
}
