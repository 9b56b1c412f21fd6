package dev.utf8sanitiser.serdes.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.utf8sanitiser.registry.NotAvroSchemaException;
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
import java.util.HashMap;
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
 * URL without the API's path, a JSON schema's id) and a sanitising deserializer end to end. Skipped,
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
