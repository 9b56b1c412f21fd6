package dev.utf8sanitiser.serdes.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.registry.RestSchemaRegistry;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.flink.avro.registry.confluent.shaded.io.confluent.kafka.schemaregistry.avro.AvroSchema;
import org.apache.flink.avro.registry.confluent.shaded.io.confluent.kafka.schemaregistry.client.CachedSchemaRegistryClient;
import org.apache.flink.avro.registry.confluent.shaded.io.confluent.kafka.schemaregistry.client.SchemaMetadata;
import org.apache.flink.avro.registry.confluent.shaded.io.confluent.kafka.schemaregistry.client.rest.entities.SchemaReference;
import org.junit.jupiter.api.Test;

/**
 * Confluent's own Java client (7.5.3, relocated inside Flink's {@code flink-sql-avro-confluent-registry},
 * test scope only: Confluent's artifacts are not on Maven Central) against a registry: what real
 * clients ask of the registry a user runs, and of the test registry that {@code run} and {@code demo}
 * start. The same cases run against both; the project's own client then reads what Confluent's wrote.
 */
abstract class ConfluentClientConformance {
    static final String ORDER = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";
    static final String ORDER_WITH_NOTE = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
            + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}]}";
    static final String ORDER_WITH_REQUIRED_SKU = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"sku\",\"type\":\"string\"}]}";
    static final String COUNTRY = "{\"type\":\"record\",\"name\":\"Country\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"code\",\"type\":\"string\"}]}";
    static final String CUSTOMER = "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"country\",\"type\":\"com.acme.Country\"}]}";

    /** The registry's Confluent API. */
    abstract String url();

    /** A subject of this test class alone: the registry may be shared with other cases. */
    abstract String subject(String name);

    CachedSchemaRegistryClient confluent() {
        return new CachedSchemaRegistryClient(url(), 100);
    }

    RestSchemaRegistry ours() {
        return RestSchemaRegistry.create(Map.of("schema.registry.url", url()));
    }

    @Test
    void registersLooksUpAndListsAsConfluentsClientExpects() throws Exception {
        CachedSchemaRegistryClient client = confluent();
        String subject = subject("orders-value");
        int id = client.register(subject, new AvroSchema(ORDER));

        assertThat(client.register(subject, new AvroSchema(ORDER))).isEqualTo(id);
        assertThat(new CachedSchemaRegistryClient(url(), 100).getSchemaById(id).canonicalString())
                .isEqualTo(new AvroSchema(ORDER).canonicalString());
        SchemaMetadata latest = client.getLatestSchemaMetadata(subject);
        assertThat(latest.getId()).isEqualTo(id);
        assertThat(latest.getVersion()).isEqualTo(1);
        assertThat(client.getAllSubjects()).contains(subject);
        // Asked of the registry, not of the client's cache: POST /subjects/{subject}.
        assertThat(new CachedSchemaRegistryClient(url(), 100).getVersion(subject, new AvroSchema(ORDER)))
                .isEqualTo(1);
        try (RestSchemaRegistry ours = ours()) {
            assertThat(ours.schema(id)).isEqualTo(new Schema.Parser().parse(ORDER));
        }
    }

    @Test
    void compatibilityIsSetAndChecked() throws Exception {
        CachedSchemaRegistryClient client = confluent();
        String subject = subject("compat-value");
        client.register(subject, new AvroSchema(ORDER));
        assertThat(client.updateCompatibility(subject, "BACKWARD")).isEqualTo("BACKWARD");
        assertThat(client.getCompatibility(subject)).isEqualTo("BACKWARD");

        assertThat(client.testCompatibility(subject, new AvroSchema(ORDER_WITH_NOTE)))
                .isTrue();
        assertThat(client.testCompatibility(subject, new AvroSchema(ORDER_WITH_REQUIRED_SKU)))
                .isFalse();
    }

    @Test
    void theModeIsReadWrite() throws Exception {
        assertThat(confluent().getMode()).isEqualTo("READWRITE");
    }

    @Test
    void aSchemaWithAReferenceIsRegisteredAndResolved() throws Exception {
        CachedSchemaRegistryClient client = confluent();
        String countries = subject("country");
        client.register(countries, new AvroSchema(COUNTRY));
        AvroSchema customer = new AvroSchema(
                CUSTOMER,
                List.of(new SchemaReference("com.acme.Country", countries, 1)),
                Map.of("com.acme.Country", COUNTRY),
                null);
        int id = client.register(subject("customers-value"), customer);

        assertThat(new CachedSchemaRegistryClient(url(), 100).getSchemaById(id).references())
                .extracting(SchemaReference::getSubject)
                .containsExactly(countries);
        try (RestSchemaRegistry ours = ours()) {
            Schema resolved = ours.schema(id);
            assertThat(resolved.getField("country").schema().getFullName()).isEqualTo("com.acme.Country");
            assertThat(resolved.getField("country").schema().getField("code")).isNotNull();
        }
    }
}
