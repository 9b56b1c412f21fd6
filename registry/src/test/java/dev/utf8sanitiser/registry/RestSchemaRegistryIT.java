package dev.utf8sanitiser.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.testkit.SchemaReference;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The REST client against the test registry, over real HTTP on the loopback interface. */
class RestSchemaRegistryIT {
    private static final String ORDER = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"]}]}";
    private static final String COUNTRY = "{\"type\":\"record\",\"name\":\"Country\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"code\",\"type\":\"string\"}]}";
    private static final String ADDRESS = "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"city\",\"type\":\"string\"},{\"name\":\"country\",\"type\":\"com.acme.Country\"}]}";
    private static final String CUSTOMER = "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"home\",\"type\":\"com.acme.Address\"},"
            + "{\"name\":\"citizenship\",\"type\":\"com.acme.Country\"}]}";

    private static TestSchemaRegistry registry;

    @BeforeAll
    static void start() {
        registry = TestSchemaRegistry.start();
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    @BeforeEach
    void healthy() {
        registry.failNext(0, 503);
        registry.clearRequests();
    }

    /** Quick retries, so that giving up takes a second, not a minute. */
    private static Map<String, Object> fast(Map<String, Object> config, String... keysAndValues) {
        Map<String, Object> props = new HashMap<>(config);
        props.put("retries.wait.ms", "10");
        props.put("retries.max.wait.ms", "50");
        props.put("http.connect.timeout.ms", "1000");
        props.put("http.read.timeout.ms", "2000");
        props.put("sanitiser.registry.retry.timeout.ms", "1500");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    private static RestSchemaRegistry client(TestSchemaRegistry registry, String... keysAndValues) {
        return RestSchemaRegistry.create(fast(registry.clientConfig(), keysAndValues));
    }

    /** A URL where nothing listens: a port just freed. */
    private static String closedUrl() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    @Test
    void fetchesTheWriterSchemaById() {
        int id = registry.register("orders-value", ORDER);

        try (RestSchemaRegistry client = client(registry)) {
            assertThat(client.schema(id)).isEqualTo(new Schema.Parser().parse(ORDER));
        }
        assertThat(registry.requests()).containsExactly("GET /schemas/ids/" + id);
    }

    @Test
    void keepsAFetchedSchemaForever() {
        int id = registry.register("cached-value", ORDER);
        try (RestSchemaRegistry client = client(registry)) {
            Schema first = client.schema(id);
            registry.clearRequests();

            assertThat(client.schema(id)).isSameAs(first);
            assertThat(registry.requestCount()).isZero();
        }
    }

    @Test
    void concurrentLookupsOfOneIdMakeOneRequest() throws Exception {
        try (TestSchemaRegistry slow = TestSchemaRegistry.start();
                RestSchemaRegistry client = client(slow)) {
            int id = slow.register("slow-value", ORDER);
            slow.delayResponses(Duration.ofMillis(300));
            ExecutorService threads = Executors.newFixedThreadPool(8);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Schema>> lookups = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    lookups.add(threads.submit(() -> {
                        go.await();
                        return client.schema(id);
                    }));
                }
                go.countDown();
                Schema first = lookups.get(0).get(10, TimeUnit.SECONDS);
                for (Future<Schema> lookup : lookups) {
                    assertThat(lookup.get(10, TimeUnit.SECONDS)).isSameAs(first);
                }
            } finally {
                threads.shutdownNow();
            }
            assertThat(slow.requestCount()).isEqualTo(1);
        }
    }

    @Test
    void anUnknownIdIsUnknownSchemaAndIsAskedAgainNextTime() {
        try (TestSchemaRegistry fresh = TestSchemaRegistry.start();
                RestSchemaRegistry client = client(fresh)) {
            UnknownSchemaException e = catchThrowableOfType(UnknownSchemaException.class, () -> client.schema(1));

            assertThat(e.id()).isEqualTo(1);
            assertThat(e)
                    .hasMessage("The Schema Registry at " + fresh.url() + " has no schema with id 1 (HTTP 404, error"
                            + " code 40403: Schema 1 not found)");
            assertThat(fresh.requestCount()).as("a 404 is not retried").isEqualTo(1);

            int id = fresh.register("late-value", ORDER);
            assertThat(id).isEqualTo(1);
            assertThat(client.schema(1)).as("the failure was not cached").isEqualTo(new Schema.Parser().parse(ORDER));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"JSON", "PROTOBUF"})
    void aSchemaOfAnotherTypeIsNotAvro(String type) {
        int id = registry.register(
                "other-" + type,
                type,
                type.equals("JSON") ? "{\"type\":\"object\"}" : "syntax = \"proto3\";",
                List.of());

        try (RestSchemaRegistry client = client(registry)) {
            NotAvroSchemaException e = catchThrowableOfType(NotAvroSchemaException.class, () -> client.schema(id));
            int asked = registry.requestCount();
            NotAvroSchemaException again = catchThrowableOfType(NotAvroSchemaException.class, () -> client.schema(id));

            assertThat(e.id()).isEqualTo(id);
            assertThat(e.schemaType()).isEqualTo(type);
            assertThat(again.schemaType()).isEqualTo(type);
            assertThat(registry.requestCount())
                    .as("the answer is kept: a topic of framed JSON asks once per id")
                    .isEqualTo(asked);
        }
    }

    @Test
    void resolvesReferencesRecursivelyIntoOneSchema() {
        registry.register("country", COUNTRY);
        registry.register("address", "AVRO", ADDRESS, List.of(new SchemaReference("com.acme.Country", "country", 1)));
        int id = registry.register(
                "customer-value",
                "AVRO",
                CUSTOMER,
                List.of(
                        new SchemaReference("com.acme.Address", "address", 1),
                        new SchemaReference("com.acme.Country", "country", 1)));
        registry.clearRequests();

        try (RestSchemaRegistry client = client(registry)) {
            Schema customer = client.schema(id);

            Schema country = customer.getField("citizenship").schema();
            assertThat(country.getFullName()).isEqualTo("com.acme.Country");
            assertThat(customer.getField("home").schema().getField("country").schema())
                    .isSameAs(country);
            assertThat(customer.getField("home")
                            .schema()
                            .getField("city")
                            .schema()
                            .getType())
                    .isEqualTo(Schema.Type.STRING);
        }
        assertThat(registry.requests())
                .as("each referenced version once, though Country is referenced twice")
                .containsExactly(
                        "GET /schemas/ids/" + id,
                        "GET /subjects/address/versions/1",
                        "GET /subjects/country/versions/1");
    }

    @Test
    void aMissingReferenceIsUnknownSchemaAndAnUnreadableSchemaUnusable() throws IOException {
        HttpServer fake = fake(Map.of(
                "/schemas/ids/1",
                "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"R\\\",\\\"fields\\\":"
                        + "[{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"com.acme.Gone\\\"}]}\","
                        + "\"references\":[{\"name\":\"com.acme.Gone\",\"subject\":\"gone\",\"version\":3}]}",
                "/schemas/ids/2",
                "{\"schema\":\"{\\\"type\\\":\\\"no such type\\\"}\"}",
                "/schemas/ids/3",
                "<html>a web server, not a registry</html>"));
        try (RestSchemaRegistry client = RestSchemaRegistry.create(fast(Map.of(
                "schema.registry.url", "http://127.0.0.1:" + fake.getAddress().getPort())))) {
            assertThat(catchThrowableOfType(UnknownSchemaException.class, () -> client.schema(1)))
                    .hasMessageContaining("Schema id 1 references com.acme.Gone in subject gone version 3, which the"
                            + " Schema Registry at http://127.0.0.1:")
                    .hasMessageEndingWith("does not have (HTTP 404, error code 40401: Subject 'gone' not found.)");
            assertThat(catchThrowableOfType(UnusableSchemaException.class, () -> client.schema(2)))
                    .hasMessageStartingWith("Schema id 2 is not a schema Apache Avro can read: ");
            assertThatThrownBy(() -> client.schema(3))
                    .isInstanceOf(RegistryUnavailableException.class)
                    .hasMessageContaining("answered schema id 3 with something that is not a Confluent Schema Registry"
                            + " answer (not JSON); is schema.registry.url right?");
        } finally {
            fake.stop(0);
        }
    }

    /** A server that answers these paths with 200 and these bodies, and anything else as Confluent's 40401. */
    private static HttpServer fake(Map<String, String> answers) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String body = answers.get(exchange.getRequestURI().getPath());
            int status = body == null ? 404 : 200;
            if (body == null) {
                body = "{\"error_code\":40401,\"message\":\"Subject 'gone' not found.\"}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    @Test
    void triesTheNextUrlWhenOneCannotBeReached() throws IOException {
        int id = registry.register("failover-value", ORDER);
        String down = closedUrl();

        try (RestSchemaRegistry client = RestSchemaRegistry.create(
                fast(Map.of("schema.registry.url", down + "," + registry.url()), "max.retries", "0"))) {
            assertThat(client.schema(id)).isEqualTo(new Schema.Parser().parse(ORDER));

            registry.clearRequests();
            int other = registry.register("failover-2-value", "\"string\"");
            long start = System.nanoTime();
            assertThat(client.schema(other).getType()).isEqualTo(Schema.Type.STRING);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("the URL that answered is asked first from then on")
                    .isLessThan(Duration.ofSeconds(1));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 503, 408, 429})
    void retriesThroughTransientFailures(int status) {
        int id = registry.register("transient-value", ORDER);
        registry.failNext(2, status);

        try (RestSchemaRegistry client = client(registry)) {
            assertThat(client.schema(id)).isEqualTo(new Schema.Parser().parse(ORDER));
        }
        assertThat(registry.requestCount()).isEqualTo(3);
    }

    @Test
    void waitsForARegistryThatComesBack() throws Exception {
        try (TestSchemaRegistry restarting = TestSchemaRegistry.start();
                RestSchemaRegistry client = client(restarting, "sanitiser.registry.retry.timeout.ms", "10000")) {
            int id = restarting.register("back-value", ORDER);
            restarting.stop();
            CompletableFuture<Void> comesBack = CompletableFuture.runAsync(
                    restarting::restart, CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));

            assertThat(client.schema(id)).isEqualTo(new Schema.Parser().parse(ORDER));
            comesBack.get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void anUnreachableRegistryIsUnavailableOnceTheRetryTimeoutIsSpent() throws IOException {
        String down = closedUrl();
        try (RestSchemaRegistry client = RestSchemaRegistry.create(fast(
                Map.of("schema.registry.url", down),
                "max.retries",
                "1000",
                "sanitiser.registry.retry.timeout.ms",
                "500"))) {
            long start = System.nanoTime();

            RegistryUnavailableException e =
                    catchThrowableOfType(RegistryUnavailableException.class, () -> client.schema(1));

            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isBetween(Duration.ofMillis(300), Duration.ofSeconds(3));
            assertThat(e)
                    .hasMessageStartingWith("Schema Registry unavailable: schema id 1 failed ")
                    .hasMessageContaining("(sanitiser.registry.retry.timeout.ms=500)")
                    .hasMessageContaining(down + ": cannot connect: connection refused");
            assertThat(e.getCause()).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void maxRetriesBoundsTheAttempts() {
        int id = registry.register("retries-value", ORDER);
        registry.failNext(100, 503);

        try (RestSchemaRegistry client = client(registry, "max.retries", "2")) {
            assertThatThrownBy(() -> client.schema(id))
                    .isInstanceOf(RegistryUnavailableException.class)
                    .hasMessageStartingWith("Schema Registry unavailable: schema id " + id + " failed 3 times in ")
                    .hasMessageEndingWith(" s (max.retries=2); last failure per URL: " + registry.url()
                            + ": HTTP 503, error code 503: Failure injected by TestSchemaRegistry.failNext");
        }
        assertThat(registry.requestCount()).isEqualTo(3);
    }

    @Test
    void aSlowRegistryTimesOut() {
        try (TestSchemaRegistry slow = TestSchemaRegistry.start();
                RestSchemaRegistry client =
                        client(slow, "http.read.timeout.ms", "100", "sanitiser.registry.retry.timeout.ms", "400")) {
            slow.delayResponses(Duration.ofSeconds(2));

            assertThatThrownBy(() -> client.schema(1))
                    .isInstanceOf(RegistryUnavailableException.class)
                    .hasMessageContaining(slow.url() + ": no answer in time");
        }
    }

    @Test
    void refusedCredentialsStopAtOnce() {
        try (TestSchemaRegistry secured =
                TestSchemaRegistry.builder().basicAuth("alice", "s3cret").start()) {
            int id = secured.register("secured-value", ORDER);

            try (RestSchemaRegistry anonymous =
                    RestSchemaRegistry.create(fast(Map.of("schema.registry.url", secured.url())))) {
                assertThatThrownBy(() -> anonymous.schema(id))
                        .isInstanceOf(RegistryUnavailableException.class)
                        .hasMessage("The Schema Registry at " + secured.url() + " refused schema id " + id
                                + " (HTTP 401, error code 401: Unauthorized); the client sent no credentials. Check"
                                + " basic.auth.credentials.source and basic.auth.user.info, or bearer.auth.token. Not"
                                + " retried: processing stops until the configuration is fixed");
            }
            assertThat(secured.requestCount()).isEqualTo(1);

            try (RestSchemaRegistry wrong = client(secured, "basic.auth.user.info", "alice:wrong")) {
                assertThatThrownBy(() -> wrong.schema(id))
                        .isInstanceOf(RegistryUnavailableException.class)
                        .hasMessageContaining("the client sent HTTP Basic credentials"
                                + " (basic.auth.credentials.source=USER_INFO)");
            }
            assertThat(secured.requestCount()).isEqualTo(2);
        }
    }

    @Test
    void aForbiddenAnswerStopsAtOnceToo() {
        registry.failNext(1, 403);

        try (RestSchemaRegistry client = client(registry)) {
            assertThatThrownBy(() -> client.schema(1))
                    .isInstanceOf(RegistryUnavailableException.class)
                    .hasMessageContaining("HTTP 403")
                    .hasMessageContaining("lack the permission");
        }
        assertThat(registry.requestCount()).isEqualTo(1);
    }

    @Test
    void sendsBasicCredentialsFromUserInfoOrFromTheUrl() {
        try (TestSchemaRegistry secured =
                TestSchemaRegistry.builder().basicAuth("alice", "s3:cret").start()) {
            int id = secured.register("basic-value", ORDER);

            try (RestSchemaRegistry fromUserInfo = client(secured)) {
                assertThat(fromUserInfo.schema(id).getName()).isEqualTo("Order");
            }
            String withCredentials = secured.url().replace("http://", "http://alice:s3%3Acret@");
            try (RestSchemaRegistry fromUrl =
                    RestSchemaRegistry.create(fast(Map.of("schema.registry.url", withCredentials)))) {
                assertThat(fromUrl.schema(id).getName()).isEqualTo("Order");
                assertThat(fromUrl.toString()).doesNotContain("s3").contains(secured.url());
            }
        }
    }

    @Test
    void sendsTheBearerToken() {
        try (TestSchemaRegistry secured =
                TestSchemaRegistry.builder().bearerToken("t0ken").start()) {
            int id = secured.register("bearer-value", ORDER);

            try (RestSchemaRegistry client = client(secured)) {
                assertThat(client.schema(id).getName()).isEqualTo("Order");
            }
            try (RestSchemaRegistry wrong = client(secured, "bearer.auth.token", "stale")) {
                assertThatThrownBy(() -> wrong.schema(id))
                        .isInstanceOf(RegistryUnavailableException.class)
                        .hasMessageContaining("the client sent a bearer token (bearer.auth.token)");
            }
        }
    }

    @Test
    void speaksTlsWithTheConfiguredTrustStoreAndFailsAtOnceWithoutOrWithAnUnreadableOne() {
        try (TestSchemaRegistry https = TestSchemaRegistry.builder().https().start()) {
            int id = https.register("tls-value", ORDER);

            try (RestSchemaRegistry client = client(https)) {
                assertThat(client.schema(id).getName()).isEqualTo("Order");
            }
            https.clearRequests();
            try (RestSchemaRegistry untrusting =
                    RestSchemaRegistry.create(fast(Map.of("schema.registry.url", https.url())))) {
                assertThatThrownBy(() -> untrusting.schema(id))
                        .isInstanceOf(RegistryUnavailableException.class)
                        .hasMessageStartingWith("TLS with the Schema Registry at " + https.url() + " failed: ")
                        .hasMessageContaining("schema.registry.ssl.truststore");
            }
            assertThat(https.requestCount())
                    .as("no request got past the handshake")
                    .isZero();

            Map<String, Object> wrongPassword =
                    fast(https.clientConfig(), "schema.registry.ssl.truststore.password", "not-the-password");
            assertThatThrownBy(() -> RestSchemaRegistry.create(wrongPassword))
                    .as("a trust store that cannot be read is a configuration error")
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("schema.registry.ssl.truststore.location")
                    .hasMessageContaining("cannot be read as a PKCS12 store with the configured password")
                    .hasMessageNotContaining("not-the-password");
        }
    }

    @Test
    void checksTheHostNameUnlessTheAlgorithmIsEmpty() {
        try (TestSchemaRegistry elsewhere =
                TestSchemaRegistry.builder().https("dns:elsewhere.example").start()) {
            int id = elsewhere.register("host-value", ORDER);

            try (RestSchemaRegistry checking = client(elsewhere)) {
                assertThatThrownBy(() -> checking.schema(id))
                        .isInstanceOf(RegistryUnavailableException.class)
                        .hasMessageStartingWith("TLS with the Schema Registry at " + elsewhere.url() + " failed: ")
                        .hasMessageContaining("127.0.0.1");
            }
            try (RestSchemaRegistry lenient =
                    client(elsewhere, "schema.registry.ssl.endpoint.identification.algorithm", "")) {
                assertThat(lenient.schema(id).getName()).isEqualTo("Order");
            }
        }
    }

    @Test
    void presentsAClientCertificateFromTheKeyStore() {
        try (TestSchemaRegistry mutual =
                TestSchemaRegistry.builder().requireClientCertificate().start()) {
            int id = mutual.register("mtls-value", ORDER);

            try (RestSchemaRegistry client = client(mutual)) {
                assertThat(client.schema(id).getName()).isEqualTo("Order");
            }
            Map<String, Object> withoutCertificate = new HashMap<>(mutual.clientConfig());
            withoutCertificate.keySet().removeIf(key -> key.startsWith("schema.registry.ssl.keystore."));
            try (RestSchemaRegistry anonymous =
                    RestSchemaRegistry.create(fast(withoutCertificate, "sanitiser.registry.retry.timeout.ms", "300"))) {
                assertThatThrownBy(() -> anonymous.schema(id)).isInstanceOf(RegistryUnavailableException.class);
            }
        }
    }

    @Test
    void registersASchemaAndKnowsItsIdAndSchemaAfterwards() {
        Schema schema = new Schema.Parser().parse(ORDER.replace("Order", "Registered"));

        try (RestSchemaRegistry client = client(registry)) {
            int id = client.register("registered-value", schema);

            assertThat(registry.requests()).containsExactly("POST /subjects/registered-value/versions");
            assertThat(client.register("registered-value", schema)).isEqualTo(id);
            assertThat(client.schema(id)).isEqualTo(schema);
            assertThat(registry.requestCount())
                    .as("both answered from the cache")
                    .isEqualTo(1);
            assertThat(client.register("other-subject", schema)).isEqualTo(id);
        }
        try (RestSchemaRegistry other = client(registry)) {
            assertThat(other.schema(registry.register("registered-value", schema.toString())))
                    .isEqualTo(schema);
        }
    }

    @Test
    void aRefusedRegistrationIsReported() {
        registry.failNext(1, 409);

        try (RestSchemaRegistry client = client(registry)) {
            assertThatThrownBy(() -> client.register("refused-value", Schema.create(Schema.Type.INT)))
                    .isInstanceOf(RegistryUnavailableException.class)
                    .hasMessage("The Schema Registry at " + registry.url()
                            + " refused registering a schema under subject refused-value: HTTP 409, error code 409:"
                            + " Failure injected by TestSchemaRegistry.failNext");
        }
    }

    @Test
    void buildsFromTheSanitiserConfiguration() {
        int id = registry.register("config-value", ORDER);
        SanitiserConfig config = new SanitiserConfig(Map.of(
                "sanitiser.input.topics", "orders",
                "sanitiser.payload.format", "avro",
                "schema.registry.url", registry.url()));

        try (RestSchemaRegistry client = RestSchemaRegistry.create(config)) {
            assertThat(client.schema(id).getName()).isEqualTo("Order");
        }
        assertThatThrownBy(() -> RestSchemaRegistry.create(new SanitiserConfig(Map.of("sanitiser.input.topics", "a"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Missing schema.registry.url: a Schema Registry client needs it");
    }

    @Test
    void speaksOnlyHttpAndHttps() {
        assertThatThrownBy(() -> RestSchemaRegistry.create(Map.of("schema.registry.url", "mock://tests")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("the REST registry client speaks http and https only");
        assertThatThrownBy(() ->
                        RestSchemaRegistry.create(Map.of("schema.registry.url", "http://r:8081", "max.retries", "-1")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("max.retries");
    }

    @Test
    void cannotBeUsedOnceClosed() {
        RestSchemaRegistry client = client(registry);
        client.close();

        assertThatThrownBy(() -> client.schema(1)).isInstanceOf(IllegalStateException.class);
    }
}
