package dev.utf8sanitiser.serdes.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import dev.utf8sanitiser.registry.NotAvroSchemaException;
import dev.utf8sanitiser.registry.ProtobufSchemaText;
import dev.utf8sanitiser.registry.RegistryMisconfiguredException;
import dev.utf8sanitiser.registry.RestSchemaRegistry;
import dev.utf8sanitiser.registry.UnknownSchemaException;
import dev.utf8sanitiser.serdes.IllFormedTextException;
import dev.utf8sanitiser.serdes.SanitisingDeserializer;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The project against a real Confluent-API registry, Apicurio Registry 3.3.3 ({@link
 * ApicurioRegistry}): Confluent's client's cases, then the project's own client (an unknown id, a
 * URL without the API's path, a JSON schema's id, a Protobuf schema that imports another through a
 * reference) and a sanitising deserializer end to end, Avro and Protobuf. Skipped,
 * with the reason, where no Java 21 can run it; .ci/run checks that it ran.
 */
class ApicurioRegistryIT extends ConfluentClientConformance {
    private static ApicurioRegistry registry;

    @BeforeAll
    static void start() throws Exception {
        Optional<String> why = ApicurioRegistry.unavailable();
        assumeTrue(why.isEmpty(), () -> why.orElse(""));
        registry = ApicurioRegistry.start();
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
    }

    @Override
    String url() {
        return registry.url();
    }

    @Override
    String subject(String name) {
        return "apicurio-" + name;
    }

    private static Map<String, Object> config(String url) {
        Map<String, Object> config = new HashMap<>();
        config.put("schema.registry.url", url);
        config.put("retries.wait.ms", "10");
        config.put("retries.max.wait.ms", "50");
        config.put("sanitiser.registry.retry.timeout.ms", "1500");
        return config;
    }

    @Test
    void anUnknownIdIsUnknown() {
        try (RestSchemaRegistry ours = RestSchemaRegistry.create(config(url()))) {
            assertThatThrownBy(() -> ours.schema(987_654)).isInstanceOf(UnknownSchemaException.class);
        }
    }

    /** The mistake of the issue: the server's root, not its Confluent API. Never a verdict on data. */
    @Test
    void aUrlWithoutTheApisPathIsAConfigurationError() {
        try (RestSchemaRegistry ours = RestSchemaRegistry.create(config(registry.rootUrl()))) {
            assertThatThrownBy(() -> ours.schema(1))
                    .isInstanceOf(RegistryMisconfiguredException.class)
                    .isNotInstanceOf(UnknownSchemaException.class);
            assertThatThrownBy(ours::probeOnce).isInstanceOf(RegistryMisconfiguredException.class);
        }
        try (RestSchemaRegistry ours = RestSchemaRegistry.create(config(url()))) {
            ours.probeOnce(); // the right URL passes the start-up check
        }
    }

    @Test
    void aJsonSchemasIdIsNotAvro() throws Exception {
        // Apicurio tells the type from the content too: a JSON Schema that says it is one.
        String schema = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\","
                + "\"properties\":{\"id\":{\"type\":\"string\"}}}";
        String body = "{\"schemaType\":\"JSON\",\"schema\":\"" + schema.replace("\"", "\\\"") + "\"}";
        HttpResponse<String> answer = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url() + "/subjects/" + subject("json-value") + "/versions"))
                                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        int id = Integer.parseInt(answer.body().replaceAll("\\D+", ""));
        try (RestSchemaRegistry ours = RestSchemaRegistry.create(config(url()))) {
            assertThatThrownBy(() -> ours.schema(id)).isInstanceOf(NotAvroSchemaException.class);
        }
    }

    @Test
    void aSanitisingDeserializerChecksAvroStringsWithTheRealRegistry() throws Exception {
        int id = confluent()
                .register(
                        subject("notes-value"),
                        new org.apache.flink.avro.registry.confluent.shaded.io.confluent.kafka.schemaregistry.avro
                                .AvroSchema(ORDER));
        Schema order = new Schema.Parser().parse(ORDER);
        byte[] good = wire(id, order, new Utf8("order-42"));
        byte[] bad = wire(id, order, new Utf8(new byte[] {'o', (byte) 0xED, (byte) 0xA0, (byte) 0x80}));

        Map<String, Object> config = config(url());
        config.put("sanitiser.payload.format", "avro");
        config.put("sanitiser.serde.inner", "org.apache.kafka.common.serialization.Serdes$ByteArraySerde");
        try (SanitisingDeserializer<byte[]> deserializer = new SanitisingDeserializer<>()) {
            deserializer.configure(config, false);
            assertThat(deserializer.deserialize("notes", good)).isEqualTo(good);
            assertThatThrownBy(() -> deserializer.deserialize("notes", bad))
                    .isInstanceOfSatisfying(IllFormedTextException.class, e -> {
                        assertThat(e.rule()).isEqualTo("SURROGATE");
                        assertThat(e.field()).contains("id");
                        // 5-byte prefix, 1-byte length, 'o': from the magic byte.
                        assertThat(e.offset()).isEqualTo(7);
                    });
        }
    }

    private static final String ADDRESS_PROTO =
            """
            syntax = "proto3";
            package common;

            message Address {
              string city = 1;
            }
            """;

    private static final String SHOP_PROTO =
            """
            syntax = "proto3";
            package shop;

            import "common.proto";

            message Order {
              string id = 1;
              common.Address ship_to = 2;

              message Line {
                string sku = 1;
                common.Address from = 2;
              }
            }
            """;

    /**
     * Registers a Protobuf schema through the Confluent API, as Confluent's serializer does.
     *
     * @return its id
     */
    private int registerProtobuf(String subject, String schema, List<Map<String, Object>> references) throws Exception {
        Map<String, Object> request = new HashMap<>();
        request.put("schemaType", "PROTOBUF");
        request.put("schema", schema);
        request.put("references", references);
        HttpResponse<String> answer = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url() + "/subjects/" + subject + "/versions"))
                                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        new ObjectMapper().writeValueAsString(request)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return new ObjectMapper().readTree(answer.body()).path("id").asInt();
    }

    /** shop.proto, registered with common.proto as its reference; its id. */
    private int registerShop() throws Exception {
        registerProtobuf(subject("common-proto"), ADDRESS_PROTO, List.of());
        return registerProtobuf(
                subject("shop-proto"),
                SHOP_PROTO,
                List.of(Map.of("name", "common.proto", "subject", subject("common-proto"), "version", 1)));
    }

    @Test
    void aProtobufSchemaComesWithTheFileItImportsByReference() throws Exception {
        int id = registerShop();
        try (RestSchemaRegistry ours = RestSchemaRegistry.create(config(url()))) {
            ProtobufSchemaText text = ours.protobuf(id);
            assertThat(text.schema()).contains("import \"common.proto\"").contains("message Line");
            assertThat(text.imports()).containsOnlyKeys("common.proto");
            assertThat(text.imports().get("common.proto")).contains("message Address");
            assertThatThrownBy(() -> ours.schema(id)).isInstanceOf(NotAvroSchemaException.class);
        }
    }

    /**
     * A record of {@code shop.Order.Line} (message indexes {@code [0, 0]}) whose nested imported
     * message holds the string, through the sanitising deserializer: valid, ill-formed under strict
     * with its field path, and replaced into bytes protobuf-java parses. The descriptors of the
     * oracle are built here, not from the registry's text.
     */
    @Test
    void aSanitisingDeserializerChecksProtobufStringsWithTheRealRegistry() throws Exception {
        int id = registerShop();
        Descriptor line = lineDescriptor();
        byte[] good = protobufWire(id, line("s-1", "\u0141\u00f3d\u017a".getBytes(StandardCharsets.UTF_8)));
        byte[] bad = protobufWire(id, line("s-1", new byte[] {'B', (byte) 0xED, (byte) 0xA0, (byte) 0x80, 'n'}));

        Map<String, Object> config = config(url());
        config.put("sanitiser.payload.format", "protobuf");
        config.put("sanitiser.serde.inner", "org.apache.kafka.common.serialization.Serdes$ByteArraySerde");
        try (SanitisingDeserializer<byte[]> deserializer = new SanitisingDeserializer<>()) {
            deserializer.configure(config, false);
            assertThat(deserializer.deserialize("lines", good)).isEqualTo(good);
            assertThatThrownBy(() -> deserializer.deserialize("lines", bad))
                    .isInstanceOfSatisfying(IllFormedTextException.class, e -> {
                        assertThat(e.rule()).isEqualTo("SURROGATE");
                        assertThat(e.field()).contains("from.city");
                        // prefix 5, indexes 3, sku 2 + 3, from 2, city 2, 'B': from the magic byte.
                        assertThat(e.offset()).isEqualTo(18);
                    });
        }
        config.put("sanitiser.policy", "replace");
        try (SanitisingDeserializer<byte[]> deserializer = new SanitisingDeserializer<>()) {
            deserializer.configure(config, false);
            byte[] fixed = deserializer.deserialize("lines", bad);
            assertThat(Arrays.copyOf(fixed, 8)).isEqualTo(Arrays.copyOf(bad, 8));
            DynamicMessage read = DynamicMessage.parseFrom(line, Arrays.copyOfRange(fixed, 8, fixed.length));
            DynamicMessage from = (DynamicMessage) read.getField(line.findFieldByName("from"));
            assertThat(from.getField(from.getDescriptorForType().findFieldByName("city")))
                    .isEqualTo("B\uFFFD\uFFFD\uFFFDn");
            assertThat(read.getField(line.findFieldByName("sku"))).isEqualTo("s-1");
        }
    }

    /** {@code shop.Order.Line} as protobuf-java builds it from descriptor protos of its own. */
    private static Descriptor lineDescriptor() throws Exception {
        FileDescriptorProto common = FileDescriptorProto.newBuilder()
                .setName("common.proto")
                .setPackage("common")
                .setSyntax("proto3")
                .addMessageType(DescriptorProto.newBuilder().setName("Address").addField(field("city", 1, null)))
                .build();
        FileDescriptorProto shop = FileDescriptorProto.newBuilder()
                .setName("shop.proto")
                .setPackage("shop")
                .setSyntax("proto3")
                .addDependency("common.proto")
                .addMessageType(DescriptorProto.newBuilder()
                        .setName("Order")
                        .addField(field("id", 1, null))
                        .addField(field("ship_to", 2, ".common.Address"))
                        .addNestedType(DescriptorProto.newBuilder()
                                .setName("Line")
                                .addField(field("sku", 1, null))
                                .addField(field("from", 2, ".common.Address"))))
                .build();
        FileDescriptor commonFile = FileDescriptor.buildFrom(common, new FileDescriptor[0]);
        FileDescriptor shopFile = FileDescriptor.buildFrom(shop, new FileDescriptor[] {commonFile});
        return shopFile.findMessageTypeByName("Order").findNestedTypeByName("Line");
    }

    private static FieldDescriptorProto field(String name, int number, String messageType) {
        FieldDescriptorProto.Builder field = FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
                .setType(
                        messageType == null
                                ? FieldDescriptorProto.Type.TYPE_STRING
                                : FieldDescriptorProto.Type.TYPE_MESSAGE);
        if (messageType != null) {
            field.setTypeName(messageType);
        }
        return field.build();
    }

    /** A Line in the wire format, written by hand: its city may be any bytes. */
    private static byte[] line(String sku, byte[] city) {
        ByteArrayOutputStream address = new ByteArrayOutputStream();
        address.write(1 << 3 | 2);
        address.write(city.length);
        address.writeBytes(city);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] skuBytes = sku.getBytes(StandardCharsets.UTF_8);
        out.write(1 << 3 | 2);
        out.write(skuBytes.length);
        out.writeBytes(skuBytes);
        out.write(2 << 3 | 2);
        out.write(address.size());
        out.writeBytes(address.toByteArray());
        return out.toByteArray();
    }

    /** Confluent's Protobuf wire format for a type nested in the first: magic, id, indexes [0, 0]. */
    private static byte[] protobufWire(int id, byte[] message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array(), 0, 4);
        out.writeBytes(new byte[] {4, 0, 0}); // two indexes (zig-zag 4), then 0 and 0
        out.writeBytes(message);
        return out.toByteArray();
    }

    /** Confluent's wire format: magic byte, schema id, the Avro binary of a record of one string. */
    private static byte[] wire(int id, Schema schema, Utf8 value) throws Exception {
        GenericRecord record = new GenericData.Record(schema);
        record.put("id", value);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
