package dev.utf8sanitiser.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The test registry answers as Confluent's does, over real HTTP. */
class TestSchemaRegistryIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ORDER = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";
    private static final String ORDER_SPACED =
            "{ \"type\": \"record\", \"name\": \"Order\", \"namespace\": \"com.acme\","
                    + " \"fields\": [ { \"name\": \"id\", \"type\": \"string\" } ] }";
    private static final String ADDRESS = "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"city\",\"type\":\"string\"}]}";
    private static final String CUSTOMER = "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"address\",\"type\":\"com.acme.Address\"}]}";

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static TestSchemaRegistry registry;

    record Answer(int status, JsonNode body, String contentType) {}

    @BeforeAll
    static void start() {
        registry = TestSchemaRegistry.start();
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    private static Answer call(HttpClient client, String url, String method, String body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", TestSchemaRegistry.CONTENT_TYPE);
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(
                response.statusCode(),
                JSON.readTree(response.body()),
                response.headers().firstValue("Content-Type").orElse(""));
    }

    private static Answer get(String path) throws IOException, InterruptedException {
        return call(HTTP, registry.url() + path, "GET", null);
    }

    private static Answer post(String path, Map<String, Object> body) throws IOException, InterruptedException {
        return call(HTTP, registry.url() + path, "POST", JSON.writeValueAsString(body));
    }

    @Test
    void idsAreGlobalAndTheSameSchemaKeepsItsIdInEverySubject() throws Exception {
        Answer first = post("/subjects/ids-a/versions", Map.of("schema", ORDER_SPACED));
        int id = first.body().get("id").asInt();

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(id).isPositive();
        assertThat(post("/subjects/ids-a/versions", Map.of("schema", ORDER, "schemaType", "AVRO"))
                        .body()
                        .get("id")
                        .asInt())
                .as("the same schema, spaced differently")
                .isEqualTo(id);
        assertThat(registry.register("ids-b", ORDER))
                .as("the same schema in another subject")
                .isEqualTo(id);
        assertThat(get("/subjects/ids-a/versions").body()).hasToString("[1]");
        assertThat(get("/subjects/ids-b/versions").body()).hasToString("[1]");

        int next = registry.register("ids-a", "\"string\"");
        assertThat(next).isGreaterThan(id);
        assertThat(get("/subjects/ids-a/versions").body()).hasToString("[1,2]");
    }

    private static final String ORDER_WITH_NOTE = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":"
            + "\"com.acme\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"note\",\"type\":\"string\"}]}";
    private static final String ORDER_WITH_OPTIONAL_NOTE = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":"
            + "\"com.acme\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"},"
            + "{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"}]}";

    private static Answer put(String path, Map<String, Object> body) throws IOException, InterruptedException {
        return call(HTTP, registry.url() + path, "PUT", JSON.writeValueAsString(body));
    }

    @Test
    void answersTheConfigAndModeCallsStandardClientsMake() throws Exception {
        assertThat(get("/config").body().get("compatibilityLevel").asText()).isEqualTo("NONE");
        assertThat(get("/mode").body().get("mode").asText()).isEqualTo("READWRITE");

        Answer unset = get("/config/config-a");
        assertThat(unset.status()).isEqualTo(404);
        assertThat(unset.body().get("error_code").asInt()).isEqualTo(40408);
        assertThat(get("/config/config-a?defaultToGlobal=true")
                        .body()
                        .get("compatibilityLevel")
                        .asText())
                .isEqualTo("NONE");

        Answer set = put("/config/config-a", Map.of("compatibility", "BACKWARD"));
        assertThat(set.status()).isEqualTo(200);
        assertThat(set.body().get("compatibility").asText()).isEqualTo("BACKWARD");
        assertThat(get("/config/config-a").body().get("compatibilityLevel").asText())
                .isEqualTo("BACKWARD");

        Answer bad = put("/config/config-a", Map.of("compatibility", "SIDEWAYS"));
        assertThat(bad.status()).isEqualTo(422);
        assertThat(bad.body().get("error_code").asInt()).isEqualTo(42203);
    }

    @Test
    void looksUpWhichVersionOfASubjectASchemaIs() throws Exception {
        int id = registry.register("lookup-a", ORDER);
        registry.register("lookup-a", "\"string\"");

        Answer found = post("/subjects/lookup-a", Map.of("schema", ORDER_SPACED));
        Answer missing = post("/subjects/lookup-a", Map.of("schema", "\"long\""));
        Answer noSubject = post("/subjects/lookup-none", Map.of("schema", ORDER));

        assertThat(found.status()).isEqualTo(200);
        assertThat(found.body().get("id").asInt()).isEqualTo(id);
        assertThat(found.body().get("version").asInt()).isEqualTo(1);
        assertThat(missing.body().get("error_code").asInt()).isEqualTo(40403);
        assertThat(noSubject.body().get("error_code").asInt()).isEqualTo(40401);
    }

    @Test
    void checksAndEnforcesTheCompatibilityLevelWithAvrosOwnRules() throws Exception {
        registry.register("compat-a", ORDER);
        put("/config/compat-a", Map.of("compatibility", "BACKWARD"));

        Answer breaking = post("/compatibility/subjects/compat-a/versions/latest", Map.of("schema", ORDER_WITH_NOTE));
        Answer fine =
                post("/compatibility/subjects/compat-a/versions/latest", Map.of("schema", ORDER_WITH_OPTIONAL_NOTE));
        Answer refused = post("/subjects/compat-a/versions", Map.of("schema", ORDER_WITH_NOTE));
        Answer taken = post("/subjects/compat-a/versions", Map.of("schema", ORDER_WITH_OPTIONAL_NOTE));

        assertThat(breaking.body().get("is_compatible").asBoolean())
                .as("a new field without a default cannot read the old data")
                .isFalse();
        assertThat(breaking.body().get("messages").get(0).asText()).contains("cannot read");
        assertThat(fine.body().get("is_compatible").asBoolean()).isTrue();
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().get("error_code").asInt()).isEqualTo(40901);
        assertThat(taken.status()).isEqualTo(200);
        assertThat(get("/subjects/compat-a/versions").body()).hasToString("[1,2]");
    }

    @Test
    void idsStartAtOne() {
        try (TestSchemaRegistry fresh = TestSchemaRegistry.start()) {
            assertThat(fresh.register("s", "\"int\"")).isEqualTo(1);
            assertThat(fresh.register("t", "\"long\"")).isEqualTo(2);
        }
    }

    @Test
    void servesASchemaByIdWithoutSchemaTypeForAvro() throws Exception {
        int id = registry.register("by-id", ORDER_SPACED);

        Answer answer = get("/schemas/ids/" + id);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body().get("schema").asText()).isEqualTo(ORDER);
        assertThat(answer.body().has("schemaType")).isFalse();
        assertThat(answer.body().has("references")).isFalse();
    }

    @Test
    void servesOtherSchemaTypesAsSentAndNamesThem() throws Exception {
        int id = registry.register("json-value", "JSON", "{\"type\": \"object\"}", List.of());

        JsonNode body = get("/schemas/ids/" + id).body();

        assertThat(body.get("schemaType").asText()).isEqualTo("JSON");
        assertThat(body.get("schema").asText()).isEqualTo("{\"type\": \"object\"}");
    }

    @Test
    void echoesReferencesAndChecksThatTheyExist() throws Exception {
        registry.register("address", ADDRESS);
        int id = registry.register(
                "customer", "AVRO", CUSTOMER, List.of(new SchemaReference("com.acme.Address", "address", 1)));

        JsonNode body = get("/schemas/ids/" + id).body();

        assertThat(body.get("schema").asText()).isEqualTo(CUSTOMER);
        assertThat(body.get("references"))
                .hasToString("[{\"name\":\"com.acme.Address\",\"subject\":\"address\",\"version\":1}]");
        assertThat(post(
                                "/subjects/customer-2/versions",
                                Map.of(
                                        "schema",
                                        CUSTOMER,
                                        "references",
                                        List.of(Map.of(
                                                "name", "com.acme.Address", "subject", "nowhere", "version", 1))))
                        .body()
                        .get("error_code")
                        .asInt())
                .isEqualTo(42201);
        assertThatThrownBy(() -> registry.register("customer-3", CUSTOMER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("com.acme.Address")
                .hasMessageEndingWith("(error code 42201)");
    }

    @Test
    void servesSubjectsAndTheirVersions() throws Exception {
        int first = registry.register("versions", "\"int\"");
        int second = registry.register("versions", "\"long\"");

        assertThat(get("/subjects").body()).extracting(JsonNode::asText).contains("versions");
        JsonNode latest = get("/subjects/versions/versions/latest").body();
        assertThat(latest.get("subject").asText()).isEqualTo("versions");
        assertThat(latest.get("version").asInt()).isEqualTo(2);
        assertThat(latest.get("id").asInt()).isEqualTo(second);
        assertThat(latest.get("schema").asText()).isEqualTo("\"long\"");
        assertThat(get("/subjects/versions/versions/1").body().get("id").asInt())
                .isEqualTo(first);
    }

    @Test
    void answersErrorsAsConfluentDoes() throws Exception {
        assertThat(get("/schemas/ids/9999")).satisfies(answer -> {
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.body()).hasToString("{\"error_code\":40403,\"message\":\"Schema 9999 not found\"}");
        });
        assertThat(get("/subjects/nobody/versions").body().get("error_code").asInt())
                .isEqualTo(40401);
        registry.register("errors", "\"int\"");
        assertThat(get("/subjects/errors/versions/7").body().get("error_code").asInt())
                .isEqualTo(40402);
        assertThat(get("/subjects/errors/versions/zero")).satisfies(answer -> {
            assertThat(answer.status()).isEqualTo(422);
            assertThat(answer.body().get("error_code").asInt()).isEqualTo(42202);
        });
        assertThat(post("/subjects/errors/versions", Map.of("schema", "{\"type\": \"nonsense\"}")))
                .satisfies(answer -> {
                    assertThat(answer.status()).isEqualTo(422);
                    assertThat(answer.body().get("error_code").asInt()).isEqualTo(42201);
                });
        assertThat(get("/no/such/path").status()).isEqualTo(404);
        assertThat(call(HTTP, registry.url() + "/schemas/ids/1", "DELETE", null).status())
                .isEqualTo(405);
    }

    @Test
    void subjectNamesAreDecodedFromThePath() throws Exception {
        int id = registry.register(":.ctx:orders value+1", "\"bytes\"");

        assertThat(get("/subjects/%3A.ctx%3Aorders%20value+1/versions/1")
                        .body()
                        .get("id")
                        .asInt())
                .isEqualTo(id);
    }

    @Test
    void failsTheNextRequestsWhenToldAndCountsEveryRequest() throws Exception {
        int id = registry.register("failing", "\"float\"");
        registry.clearRequests();
        registry.failNext(2, 503);

        assertThat(get("/schemas/ids/" + id).status()).isEqualTo(503);
        assertThat(get("/schemas/ids/" + id).body().get("error_code").asInt()).isEqualTo(503);
        assertThat(get("/schemas/ids/" + id).status()).isEqualTo(200);
        assertThat(registry.requestCount()).isEqualTo(3);
        assertThat(registry.requests()).containsOnly("GET /schemas/ids/" + id);
    }

    @Test
    void answersSlowlyWhenTold() throws Exception {
        try (TestSchemaRegistry slow = TestSchemaRegistry.start()) {
            slow.delayResponses(Duration.ofMillis(300));
            long start = System.nanoTime();

            assertThat(call(HTTP, slow.url() + "/subjects", "GET", null).status())
                    .isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        }
    }

    @Test
    void stopsAndRestartsOnTheSamePortWithTheSameSchemas() throws Exception {
        try (TestSchemaRegistry restarting = TestSchemaRegistry.start()) {
            int id = restarting.register("kept", "\"double\"");
            int port = restarting.port();

            restarting.stop();
            assertThat(restarting.isRunning()).isFalse();
            assertThatThrownBy(() -> call(HTTP, restarting.url() + "/subjects", "GET", null))
                    .isInstanceOf(ConnectException.class);

            restarting.restart();
            assertThat(restarting.port()).isEqualTo(port);
            assertThat(call(HTTP, restarting.url() + "/schemas/ids/" + id, "GET", null)
                            .body()
                            .get("schema")
                            .asText())
                    .isEqualTo("\"double\"");
        }
    }

    @Test
    void requiresBasicCredentialsWhenTold() throws Exception {
        try (TestSchemaRegistry secured =
                TestSchemaRegistry.builder().basicAuth("alice", "s3cret").start()) {
            String good = "Basic " + Base64.getEncoder().encodeToString("alice:s3cret".getBytes());
            String bad = "Basic " + Base64.getEncoder().encodeToString("alice:wrong".getBytes());

            Answer refused = call(HTTP, secured.url() + "/subjects", "GET", null);
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.body()).hasToString("{\"error_code\":401,\"message\":\"Unauthorized\"}");
            assertThat(call(HTTP, secured.url() + "/subjects", "GET", null, "Authorization", bad)
                            .status())
                    .isEqualTo(401);
            assertThat(call(HTTP, secured.url() + "/subjects", "GET", null, "Authorization", good)
                            .status())
                    .isEqualTo(200);
            assertThat(secured.clientConfig())
                    .containsEntry("basic.auth.credentials.source", "USER_INFO")
                    .containsEntry("basic.auth.user.info", "alice:s3cret");
        }
    }

    @Test
    void requiresABearerTokenWhenTold() throws Exception {
        try (TestSchemaRegistry secured =
                TestSchemaRegistry.builder().bearerToken("t0ken").start()) {
            assertThat(call(HTTP, secured.url() + "/subjects", "GET", null).status())
                    .isEqualTo(401);
            assertThat(call(HTTP, secured.url() + "/subjects", "GET", null, "Authorization", "Bearer t0ken")
                            .status())
                    .isEqualTo(200);
            assertThat(secured.clientConfig()).containsEntry("bearer.auth.token", "t0ken");
        }
    }

    @Test
    void servesHttpsToClientsThatTrustItsCertificate() throws Exception {
        try (TestSchemaRegistry https = TestSchemaRegistry.builder().https().start()) {
            TestSchemaRegistry.Tls tls = https.tls().orElseThrow();
            HttpClient trusting = HttpClient.newBuilder()
                    .sslContext(sslContext(tls.trustStore(), null))
                    .build();

            assertThat(https.url()).startsWith("https://127.0.0.1:");
            assertThat(call(trusting, https.url() + "/subjects", "GET", null).status())
                    .isEqualTo(200);
            assertThatThrownBy(() -> call(HTTP, https.url() + "/subjects", "GET", null))
                    .isInstanceOf(SSLHandshakeException.class);
            assertThat(https.clientConfig())
                    .containsEntry(
                            "schema.registry.ssl.truststore.location",
                            tls.trustStore().toString())
                    .containsEntry("schema.registry.ssl.truststore.type", "PKCS12")
                    .doesNotContainKey("schema.registry.ssl.keystore.location");
        }
    }

    @Test
    void requiresAClientCertificateWhenTold() throws Exception {
        try (TestSchemaRegistry mutual =
                TestSchemaRegistry.builder().requireClientCertificate().start()) {
            TestSchemaRegistry.Tls tls = mutual.tls().orElseThrow();
            HttpClient withCertificate = HttpClient.newBuilder()
                    .sslContext(
                            sslContext(tls.trustStore(), tls.clientKeyStore().orElseThrow()))
                    .build();
            HttpClient without = HttpClient.newBuilder()
                    .sslContext(sslContext(tls.trustStore(), null))
                    .build();

            assertThat(call(withCertificate, mutual.url() + "/subjects", "GET", null)
                            .status())
                    .isEqualTo(200);
            assertThatThrownBy(() -> call(without, mutual.url() + "/subjects", "GET", null))
                    .isInstanceOf(IOException.class);
            assertThat(mutual.clientConfig()).containsKey("schema.registry.ssl.keystore.location");
        }
    }

    @Test
    void deletesItsFilesOnClose() {
        TestSchemaRegistry https = TestSchemaRegistry.builder().https().start();
        Path trustStore = https.tls().orElseThrow().trustStore();
        assertThat(trustStore).exists();

        https.close();

        assertThat(trustStore.getParent()).doesNotExist();
    }

    private static SSLContext sslContext(Path trustStore, Path keyStore) throws IOException, GeneralSecurityException {
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(trustStore));
        KeyManagerFactory keys = null;
        if (keyStore != null) {
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(load(keyStore), "test-only".toCharArray());
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    private static KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, "test-only".toCharArray());
        }
        return store;
    }
}
