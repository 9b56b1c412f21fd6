package dev.utf8sanitiser.serdes.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.registry.NotAvroSchemaException;
import dev.utf8sanitiser.registry.RestSchemaRegistry;
import dev.utf8sanitiser.registry.UnknownSchemaException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The REST client against Confluent's own Schema Registry ({@code confluentinc/cp-schema-registry}
 * on a Kafka container), so that the test registry's answers are not the only evidence. Runs where
 * a Docker engine runs and the images are present or can be pulled; skipped (not failed) within
 * seconds otherwise, such as on this project's build machines (no engine, or no image registry).
 */
@RequiresDockerImages({ConfluentSchemaRegistryContainerIT.KAFKA_IMAGE, ConfluentSchemaRegistryContainerIT.REGISTRY_IMAGE
})
@Testcontainers(disabledWithoutDocker = true)
class ConfluentSchemaRegistryContainerIT {
    static final String KAFKA_IMAGE = "apache/kafka:3.9.0";
    static final String REGISTRY_IMAGE = "confluentinc/cp-schema-registry:7.9.0";

    private static final String ADDRESS = "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"city\",\"type\":\"string\"}]}";
    private static final String CUSTOMER = "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"home\",\"type\":\"com.acme.Address\"}]}";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Network NETWORK = Network.newNetwork();

    @Container
    private static final KafkaContainer KAFKA = new KafkaContainer(DockerImageName.parse(KAFKA_IMAGE))
            .withNetwork(NETWORK)
            .withNetworkAliases("kafka")
            .withListener("kafka:19092");

    @Container
    private static final GenericContainer<?> REGISTRY = new GenericContainer<>(DockerImageName.parse(REGISTRY_IMAGE))
            .withNetwork(NETWORK)
            .withExposedPorts(8081)
            .withEnv("SCHEMA_REGISTRY_HOST_NAME", "schema-registry")
            .withEnv("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:8081")
            .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://kafka:19092")
            .dependsOn(KAFKA)
            .waitingFor(Wait.forHttp("/subjects").forStatusCode(200).withStartupTimeout(Duration.ofMinutes(2)));

    private static String url() {
        return "http://" + REGISTRY.getHost() + ":" + REGISTRY.getMappedPort(8081);
    }

    private static RestSchemaRegistry client() {
        return RestSchemaRegistry.create(
                Map.of("schema.registry.url", url(), "sanitiser.registry.retry.timeout.ms", "10000"));
    }

    /** The media type of the Confluent API, as Confluent's clients send it. */
    private static final String CONFLUENT_CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    /** Registers with a plain POST, for what {@link RestSchemaRegistry#register} does not send. */
    private static int post(String subject, Map<String, Object> body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url() + "/subjects/" + subject + "/versions"))
                                .header("Content-Type", CONFLUENT_CONTENT_TYPE)
                                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body()).get("id").asInt();
    }

    @Test
    void registersAndFetchesAnAvroSchema() {
        Schema schema = new Schema.Parser().parse(ADDRESS.replace("Address", "Registered"));
        int id;
        try (RestSchemaRegistry client = client()) {
            id = client.register("registered-value", schema);
            assertThat(client.register("other-value", schema)).isEqualTo(id);
        }
        try (RestSchemaRegistry fresh = client()) {
            assertThat(fresh.schema(id)).isEqualTo(schema);
        }
    }

    @Test
    void anUnknownIdIsUnknownSchema() {
        try (RestSchemaRegistry client = client()) {
            UnknownSchemaException e = catchThrowableOfType(UnknownSchemaException.class, () -> client.schema(999_999));

            assertThat(e.id()).isEqualTo(999_999);
            assertThat(e).hasMessageContaining("HTTP 404, error code 40403");
        }
    }

    @Test
    void resolvesReferences() throws Exception {
        int addressId = post("address", Map.of("schema", ADDRESS));
        int customerId = post(
                "customer-value",
                Map.of(
                        "schema",
                        CUSTOMER,
                        "references",
                        List.of(Map.of("name", "com.acme.Address", "subject", "address", "version", 1))));

        try (RestSchemaRegistry client = client()) {
            Schema customer = client.schema(customerId);

            assertThat(customer.getField("home").schema()).isEqualTo(client.schema(addressId));
        }
    }

    @Test
    void aJsonSchemaIsNotAvro() throws Exception {
        int id = post("json-value", Map.of("schemaType", "JSON", "schema", "{\"type\":\"object\"}"));

        try (RestSchemaRegistry client = client()) {
            assertThat(catchThrowableOfType(NotAvroSchemaException.class, () -> client.schema(id))
                            .schemaType())
                    .isEqualTo("JSON");
        }
    }
}
