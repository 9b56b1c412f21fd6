package dev.utf8sanitiser.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The start-up check: a wrong URL, refused credentials or TLS are told apart from a registry that is down. */
class RestSchemaRegistryProbeIT {
    private static String closedUrl() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    @Test
    void aConfluentRegistryPassesWithOneRequestForIdZero() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start();
                RestSchemaRegistry client = FastClients.client(registry.url())) {
            registry.register("orders-value", "\"string\"");
            registry.clearRequests();

            assertThatCode(client::probe).doesNotThrowAnyException();
            assertThat(registry.requests()).containsExactly("GET /schemas/ids/0");
        }
    }

    @Test
    void aUrlWithoutTheRegistrysPathIsAMisconfiguration() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start();
                RestSchemaRegistry client = FastClients.client(registry.url() + "/apis/ccompat/v7")) {
            Throwable e = catchThrowable(client::probe);

            assertThat(e)
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessage("The Schema Registry at " + registry.url()
                            + "/apis/ccompat/v7 answered schema id 0 (the"
                            + " start-up check) (GET " + registry.url() + "/apis/ccompat/v7/schemas/ids/0) with HTTP"
                            + " 404, error code 404: HTTP 404 Not Found, not Confluent's \"schema not found\" (HTTP"
                            + " 404, error code 40403); is schema.registry.url a Confluent-compatible Schema"
                            + " Registry API, path included (for example /apis/ccompat/v7 on Apicurio Registry)?");
        }
    }

    @Test
    void aWebServerIsAMisconfigurationWhateverItAnswers() {
        try (ScriptedServer page = ScriptedServer.answering(200, "<html>Welcome</html>");
                RestSchemaRegistry client = FastClients.client(page.url())) {
            assertThat(catchThrowable(client::probe))
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessageContaining("is not a Confluent Schema Registry answer (not JSON)");
        }
        try (ScriptedServer teapot = ScriptedServer.answering(418, "{\"error\":\"teapot\"}");
                RestSchemaRegistry client = FastClients.client(teapot.url())) {
            assertThat(catchThrowable(client::probe))
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessageContaining("with HTTP 418: {\"error\":\"teapot\"}, not Confluent's");
        }
    }

    @Test
    void refusedCredentialsAreAMisconfiguration() {
        try (TestSchemaRegistry secured = TestSchemaRegistry.builder()
                        .basicAuth("alice", "s3cret")
                        .start();
                RestSchemaRegistry client = FastClients.client(secured.url())) {
            assertThat(catchThrowable(client::probe))
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessageStartingWith("The Schema Registry at " + secured.url() + " refused schema id 0 (the"
                            + " start-up check) (HTTP 401, error code 401: Unauthorized); the client sent no"
                            + " credentials.");
        }
    }

    @Test
    void aRegistryThatKeepsIdZeroFromAcceptedCredentialsPasses() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start();
                RestSchemaRegistry client = FastClients.client(registry.url())) {
            registry.failNext(1, 403);

            assertThatCode(client::probe).doesNotThrowAnyException();
        }
        try (ScriptedServer proxy = ScriptedServer.answering(403, "<html>Forbidden</html>");
                RestSchemaRegistry client = FastClients.client(proxy.url())) {
            assertThat(catchThrowable(client::probe))
                    .as("a 403 that is not a registry's")
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessageContaining("(HTTP 403: <html>Forbidden</html>)");
        }
    }

    @Test
    void aTlsProblemIsAMisconfiguration() {
        try (TestSchemaRegistry tls = TestSchemaRegistry.builder().https().start();
                RestSchemaRegistry untrusting = FastClients.client(tls.url())) {
            assertThat(catchThrowable(untrusting::probe))
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessageStartingWith("TLS with the Schema Registry at " + tls.url() + " failed: ");
        }
    }

    @Test
    void aRegistryThatIsDownIsUnavailableNotMisconfigured() throws IOException {
        String down = closedUrl();
        try (RestSchemaRegistry client = FastClients.client(down, "sanitiser.registry.retry.timeout.ms", "300")) {
            assertThat(catchThrowable(client::probe))
                    .isExactlyInstanceOf(RegistryUnavailableException.class)
                    .hasMessageStartingWith("Schema Registry unavailable: schema id 0 (the start-up check) failed ")
                    .hasMessageContaining(down + ": cannot connect");
        }
    }

    @Test
    void aRegistryThatComesBackWithinTheBudgetPasses() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start();
                RestSchemaRegistry client = FastClients.client(registry.url())) {
            registry.failNext(3, 503);

            assertThatCode(client::probe).doesNotThrowAnyException();
            assertThat(registry.requestCount()).isEqualTo(4);
        }
    }

    @Test
    void everyUrlIsCheckedAndOneDownIsNoReasonToRefuse() throws IOException {
        String down = closedUrl();
        try (TestSchemaRegistry good = TestSchemaRegistry.start();
                TestSchemaRegistry other = TestSchemaRegistry.start()) {
            try (RestSchemaRegistry client = FastClients.client(down + "," + good.url())) {
                assertThatCode(client::probe).doesNotThrowAnyException();
            }
            Map<String, Object> config = new HashMap<>(FastClients.config(good.url() + "," + other.url() + "/wrong"));
            try (RestSchemaRegistry client = RestSchemaRegistry.create(config)) {
                assertThat(catchThrowable(client::probe))
                        .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                        .hasMessageStartingWith("The Schema Registry at " + other.url() + "/wrong answered");
            }
            assertThat(good.requests()).containsExactly("GET /schemas/ids/0", "GET /schemas/ids/0");
        }
    }
}
