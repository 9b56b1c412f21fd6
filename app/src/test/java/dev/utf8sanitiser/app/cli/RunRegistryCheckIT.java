package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} checks the Schema Registry before it touches Kafka: a wrong URL, refused credentials
 * or {@code http://} to a TLS port is a bad configuration (exit 2, one line), a registry that is
 * down is a fatal error (exit 1, one line). The broker address leads nowhere: start-up must end
 * before it is needed.
 */
class RunRegistryCheckIT {
    @TempDir
    Path dir;

    private CliRun run(String registryUrl, String... more) throws IOException {
        StringBuilder properties = new StringBuilder()
                .append("bootstrap.servers=127.0.0.1:1\n")
                .append("admin.default.api.timeout.ms=2000\n")
                .append("admin.request.timeout.ms=1000\n")
                .append("sanitiser.input.topics=orders\n")
                .append("sanitiser.payload.format=avro\n")
                .append("sanitiser.http.port=-1\n")
                .append("schema.registry.url=")
                .append(registryUrl)
                .append('\n')
                .append("sanitiser.registry.retry.timeout.ms=500\n")
                .append("retries.wait.ms=50\n");
        for (String line : more) {
            properties.append(line).append('\n');
        }
        Path config = Files.writeString(dir.resolve("run.properties"), properties);
        return CliRun.of("run", "--config", config.toString());
    }

    @Test
    void aUrlWithoutTheRegistrysPathIsABadConfiguration() throws IOException {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
            String url = registry.url() + "/apis/ccompat/v7";

            CliRun run = run(url);

            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.stderr())
                    .startsWith("utf8-sanitiser: run: The Schema Registry at " + url + " answered schema id 0 (the"
                            + " start-up check) (GET " + url + "/schemas/ids/0) with HTTP 404")
                    .hasLineCount(1);
            assertThat(registry.requests()).containsExactly("GET /apis/ccompat/v7/schemas/ids/0");
        }
    }

    @Test
    void aWebPageIsABadConfiguration() throws IOException {
        HttpServer web = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        web.createContext("/", exchange -> {
            byte[] page = "<html>\n<body>Not Found</body>\n</html>\n".getBytes(UTF_8);
            exchange.sendResponseHeaders(404, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        web.start();
        try {
            String url = "http://127.0.0.1:" + web.getAddress().getPort();

            CliRun run = run(url);

            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.stderr())
                    .contains("with HTTP 404: <html> <body>Not Found</body> </html>, not Confluent's")
                    .hasLineCount(1);
        } finally {
            web.stop(0);
        }
    }

    @Test
    void refusedCredentialsAreABadConfiguration() throws IOException {
        try (TestSchemaRegistry secured =
                TestSchemaRegistry.builder().bearerToken("t0ken").start()) {
            CliRun run = run(secured.url(), "bearer.auth.token=stale");

            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.stderr())
                    .startsWith("utf8-sanitiser: run: The Schema Registry at " + secured.url() + " refused schema id 0")
                    .contains("the client sent a bearer token (bearer.auth.token)")
                    .hasLineCount(1);
        }
    }

    @Test
    void plainHttpToATlsPortIsABadConfiguration() throws IOException {
        try (TestSchemaRegistry tls = TestSchemaRegistry.builder().https().start()) {
            String plain = tls.url().replace("https://", "http://");

            CliRun run = run(plain);

            assertThat(run.exit()).isEqualTo(2);
            assertThat(run.stderr())
                    .isEqualTo("utf8-sanitiser: run: The server at " + plain + " did not answer HTTP: it speaks TLS,"
                            + " so schema.registry.url must start with https:// (" + tls.url() + ")\n");
        }
    }

    @Test
    void aRegistryThatIsDownIsAFatalErrorNotABadConfiguration() throws IOException {
        String down;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            down = "http://127.0.0.1:" + socket.getLocalPort();
        }

        CliRun run = run(down);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.stderr())
                .startsWith(
                        "utf8-sanitiser: run: Schema Registry unavailable: schema id 0 (the start-up check) failed ")
                .contains(
                        "(sanitiser.registry.retry.timeout.ms=500); last failure per URL: " + down + ": cannot connect")
                .hasLineCount(1);
    }
}
