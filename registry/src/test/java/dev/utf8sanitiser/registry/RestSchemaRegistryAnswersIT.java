package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the client makes of answers that a registry at the right URL would not give: only Confluent's
 * "not found" is a verdict on a record; a 404 from anything else, a redirect, an http:// URL for a
 * TLS port are configuration mistakes, and no message quotes more than a few hundred bytes.
 */
class RestSchemaRegistryAnswersIT {
    private static final String ORDER = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\","
            + "\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";
    private static final String PAGE = "<!DOCTYPE html>\n<html>\n<head><title>Apicurio Registry</title></head>\n"
            + "<body>\n" + "<p>Not found. Try the web console.</p>\n".repeat(200) + "</body>\n</html>\n";

    @Test
    void confluentsSchemaNotFoundIsAVerdict() {
        try (ScriptedServer registry =
                        ScriptedServer.answering(404, "{\"error_code\":40403,\"message\":\"Schema 7 not found\"}");
                RestSchemaRegistry client = FastClients.client(registry.url())) {
            UnknownSchemaException e = catchThrowableOfType(UnknownSchemaException.class, () -> client.schema(7));

            assertThat(e.id()).isEqualTo(7);
            assertThat(e)
                    .hasMessage("The Schema Registry at " + registry.url()
                            + " has no schema with id 7 (HTTP 404, error code 40403: Schema 7 not found)");
            assertThat(registry.requests()).containsExactly("GET /schemas/ids/7");
        }
    }

    @Test
    void aWebPageFor404IsAWrongUrlNotAVerdict() {
        try (ScriptedServer apicurio = ScriptedServer.answering(404, PAGE);
                RestSchemaRegistry client = FastClients.client(apicurio.url() + "/apis")) {
            Throwable e = catchThrowable(() -> client.schema(7));

            assertThat(e).isExactlyInstanceOf(RegistryMisconfiguredException.class);
            assertThat(e.getMessage())
                    .startsWith("The Schema Registry at " + apicurio.url() + "/apis answered schema id 7 (GET "
                            + apicurio.url() + "/apis/schemas/ids/7) with HTTP 404: <!DOCTYPE html> <html> <head>"
                            + "<title>Apicurio Registry</title></head> <body> <p>Not found.")
                    .contains("... (" + PAGE.getBytes(UTF_8).length + " bytes), which is not Confluent's \"not"
                            + " found\" answer; is schema.registry.url the registry's API, path included (for"
                            + " example /apis/ccompat/v7 on Apicurio Registry)?")
                    .doesNotContain("\n");
            assertThat(apicurio.requests()).as("not retried").hasSize(1);
        }
    }

    @Test
    void anEmpty404IsAWrongUrlNotAVerdict() {
        try (ScriptedServer empty = ScriptedServer.answering(404, "");
                RestSchemaRegistry client = FastClients.client(empty.url())) {
            Throwable e = catchThrowable(() -> client.schema(7));

            assertThat(e)
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessageStartingWith("The Schema Registry at " + empty.url() + " answered schema id 7 (GET "
                            + empty.url() + "/schemas/ids/7) with HTTP 404, empty body, which is not Confluent's");
        }
    }

    @Test
    void aConfluentErrorOtherThanSchemaNotFoundIsAWrongUrlNotAVerdict() {
        // What Confluent's own registry (and the test registry) answer for a path they do not serve.
        try (TestSchemaRegistry confluent = TestSchemaRegistry.start();
                RestSchemaRegistry client = FastClients.client(confluent.url() + "/apis/ccompat/v7")) {
            confluent.register("orders-value", ORDER);

            Throwable e = catchThrowable(() -> client.schema(1));

            assertThat(e)
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessageContaining("with HTTP 404, error code 404: HTTP 404 Not Found, which is not");
        }
    }

    @Test
    void aMissingReferenceIsAVerdictOnlyWhenConfluentSaysSo() {
        String referencing = "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"R\\\",\\\"fields\\\":"
                + "[{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"com.acme.Gone\\\"}]}\","
                + "\"references\":[{\"name\":\"com.acme.Gone\",\"subject\":\"gone\",\"version\":3}]}";
        Map<String, String> notFound = Map.of(
                "40401", "{\"error_code\":40401,\"message\":\"Subject 'gone' not found.\"}",
                "40402", "{\"error_code\":40402,\"message\":\"Version 3 not found.\"}",
                "page", PAGE);
        for (Map.Entry<String, String> answer : notFound.entrySet()) {
            try (ScriptedServer server = ScriptedServer.start(exchange -> {
                        boolean byId = exchange.getRequestURI().getPath().equals("/schemas/ids/1");
                        ScriptedServer.send(
                                exchange, byId ? 200 : 404, (byId ? referencing : answer.getValue()).getBytes(UTF_8));
                    });
                    RestSchemaRegistry client = FastClients.client(server.url())) {
                Throwable e = catchThrowable(() -> client.schema(1));

                if (answer.getKey().equals("page")) {
                    assertThat(e)
                            .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                            .hasMessageContaining("answered subject gone version 3, referenced by schema id 1 (GET "
                                    + server.url() + "/subjects/gone/versions/3) with HTTP 404: <!DOCTYPE html>");
                } else {
                    assertThat(e)
                            .as(answer.getKey())
                            .isExactlyInstanceOf(UnknownSchemaException.class)
                            .hasMessageContaining("error code " + answer.getKey());
                }
            }
        }
    }

    @Test
    void aRedirectIsAWrongUrl() {
        try (ScriptedServer ui = ScriptedServer.start(exchange -> {
                    exchange.getResponseHeaders().set("Location", "/ui/");
                    exchange.sendResponseHeaders(302, -1);
                });
                RestSchemaRegistry client = FastClients.client(ui.url())) {
            assertThat(catchThrowable(() -> client.schema(7)))
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessage("The Schema Registry at " + ui.url() + " redirected schema id 7 (GET " + ui.url()
                            + "/schemas/ids/7, HTTP 302) to /ui/; the client does not follow redirects: set"
                            + " schema.registry.url to the registry's own URL");
        }
    }

    @Test
    void quotesAtMostAFewHundredBytesOfWhatTheRegistrySent() {
        String huge = "{\"error_code\":50001,\"message\":\"" + "x".repeat(1_000_000) + "\"}";
        String refused = "Denied\n" + "é".repeat(500_000);
        try (ScriptedServer failing = ScriptedServer.start(exchange -> {
                    boolean auth = exchange.getRequestURI().getPath().endsWith("/2");
                    ScriptedServer.send(exchange, auth ? 401 : 500, (auth ? refused : huge).getBytes(UTF_8));
                });
                RestSchemaRegistry client = FastClients.client(failing.url(), "max.retries", "1")) {
            Throwable serverError = catchThrowable(() -> client.schema(1));
            Throwable unauthorised = catchThrowable(() -> client.schema(2));

            assertThat(serverError)
                    .isExactlyInstanceOf(RegistryUnavailableException.class)
                    .hasMessageContaining("HTTP 500, error code 50001: xxxx")
                    .hasMessageContaining("... (1000000 bytes)");
            assertThat(serverError.getMessage().getBytes(UTF_8).length).isLessThan(ErrorBody.QUOTE_LIMIT + 300);
            assertThat(unauthorised)
                    .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                    .hasMessageContaining("(HTTP 401: Denied éé")
                    .hasMessageContaining(
                            "... (" + refused.getBytes(UTF_8).length + " bytes)); the client sent no" + " credentials")
                    .hasMessageNotContaining("\uFFFD");
            assertThat(unauthorised.getMessage().getBytes(UTF_8).length).isLessThan(ErrorBody.QUOTE_LIMIT + 400);
        }
    }

    @Test
    void plainHttpToATlsPortSaysUseHttps() {
        try (TestSchemaRegistry tls = TestSchemaRegistry.builder().https().start()) {
            Map<String, Object> config = new HashMap<>(tls.clientConfig());
            String plain = tls.url().replace("https://", "http://");
            config.putAll(FastClients.config(plain));

            try (RestSchemaRegistry client = RestSchemaRegistry.create(config)) {
                assertThat(catchThrowable(() -> client.schema(1)))
                        .isExactlyInstanceOf(RegistryMisconfiguredException.class)
                        .hasMessage("The server at " + plain + " did not answer HTTP: it speaks TLS, so"
                                + " schema.registry.url must start with https:// (" + tls.url() + ")");
            }
            assertThat(tls.requestCount()).isZero();
        }
    }

    @Test
    void aServerThatHangsUpWithoutTlsIsTransientNotTls() throws IOException {
        try (ServerSocket hangsUp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!hangsUp.isClosed()) {
                    try (Socket socket = hangsUp.accept()) {
                        // Close at once, as a server that is going down does.
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String url = "http://127.0.0.1:" + hangsUp.getLocalPort();

            try (RestSchemaRegistry client = FastClients.client(url, "max.retries", "1")) {
                assertThat(catchThrowable(() -> client.schema(1)))
                        .isExactlyInstanceOf(RegistryUnavailableException.class)
                        .hasMessageContaining(url + ": the server closed the connection without an HTTP answer");
            }
        }
    }
}
