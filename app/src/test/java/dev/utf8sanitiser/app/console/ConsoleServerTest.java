package dev.utf8sanitiser.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.LogLines;
import dev.utf8sanitiser.app.http.HttpLimits;
import dev.utf8sanitiser.app.http.RawHttp;
import dev.utf8sanitiser.config.SanitiserConfig;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The console's HTTP rules over real sockets, for what a page refuses before it reads Kafka: other
 * topics than its dead-letter topics, other host names, wrong methods, oversized forms, forged
 * origins. Nothing listens at the bootstrap address, so a request that reached Kafka would show.
 */
class ConsoleServerTest {
    private static final String TOKEN = "s3cret-token";
    private static final String DLQ = "orders.dlq";

    private static Console console;
    private static ConsoleServer server;
    private static int port;

    @BeforeAll
    static void serve() throws IOException {
        SanitiserConfig settings = new SanitiserConfig(Map.of(
                "application.id", "console-server-test",
                "bootstrap.servers", "127.0.0.1:1",
                "sanitiser.input.topics", "orders",
                "sanitiser.console.token", TOKEN));
        Properties client = new Properties();
        client.put("bootstrap.servers", "127.0.0.1:1");
        console = Console.open(settings, client, List.of(), Clock.systemUTC());
        server = ConsoleServer.serve(console, 0, HttpLimits.DEFAULT);
        port = server.address().getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
        console.close();
    }

    private static RawHttp.Answer get(String path, String host) throws IOException {
        return RawHttp.request(port, "GET", path, host);
    }

    private static RawHttp.Answer post(String path, String form, String... headers) throws IOException {
        byte[] body = form.getBytes(StandardCharsets.UTF_8);
        return RawHttp.exchange(
                port,
                "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + String.join("", headers)
                        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length
                        + "\r\nConnection: close\r\n\r\n" + form);
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "127.0.0.1", "LOCALHOST", "[::1]"})
    void theConsoleAnswersToItsOwnHostNames(String host) throws IOException {
        RawHttp.Answer answer = get("/console/api/overview", host + ":" + port);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).startsWith("{\"at\":"); // no topics yet: no broker answers
    }

    @ParameterizedTest
    @ValueSource(strings = {"evil.example", "127.0.0.1.evil.example", "localhost.evil", "[::2]", "", "a b"})
    void aHostTheConsoleIsNotConfiguredForIsRefused(String host) throws IOException {
        RawHttp.Answer overview = get("/console/api/overview", host.isEmpty() ? "" : host + ":" + port);
        RawHttp.Answer page = get("/console/", host.isEmpty() ? "" : host);

        assertThat(overview.status()).isIn(400, 421); // 400: Jetty refuses a malformed Host itself
        assertThat(overview.body()).doesNotContain("\"at\"");
        assertThat(page.status()).isIn(400, 421);
    }

    @Test
    void aRefusedHostIsToldWhy() throws IOException {
        RawHttp.Answer answer = get("/console/api/overview", "evil.example:" + port);

        assertThat(answer.status()).isEqualTo(421);
        assertThat(answer.body()).contains("sanitiser.console.allowed.hosts");
    }

    @ParameterizedTest
    @ValueSource(strings = {"__consumer_offsets", "__transaction_state", "orders", "orders.clean", "other.dlq"})
    void aRecordOfATopicThatIsNotADeadLetterTopicOfTheConfigurationIsNotRead(String topic) throws IOException {
        RawHttp.Answer record = get("/console/record?topic=" + topic + "&partition=0&offset=0", "localhost:" + port);
        RawHttp.Answer preview = get("/console/replay?topic=" + topic + "&to=replayed&policy=as-is", "localhost");
        RawHttp.Answer replay = post("/console/replay", "topic=" + topic + "&to=replayed&policy=as-is&token=" + TOKEN);

        assertThat(record.status()).isEqualTo(404);
        assertThat(record.body()).contains("not one of the dead-letter topics");
        assertThat(preview.status()).isEqualTo(404);
        assertThat(replay.status()).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"..%2F..%2Fetc", "../../etc", "a%20b", "%00", "x%C3%A9"})
    void aTopicNameNoTopicCanHaveIs400(String topic) throws IOException {
        RawHttp.Answer record = get("/console/record?topic=" + topic + "&partition=0&offset=0", "localhost");
        RawHttp.Answer preview = get("/console/replay?topic=" + topic + "&to=replayed", "localhost");
        RawHttp.Answer target = get("/console/replay?topic=" + DLQ + "&to=" + topic, "localhost");

        assertThat(record.status()).isEqualTo(400);
        assertThat(preview.status()).isEqualTo(400);
        assertThat(target.status()).isEqualTo(400);
    }

    @Test
    void aFormOfMoreThan64KiBIs413() throws IOException {
        String big = "topic=" + DLQ + "&to=replayed&token=" + TOKEN + "&pad=" + "a".repeat(64 * 1024);

        assertThat(post("/console/replay", big).status()).isEqualTo(413);

        String chunk = Integer.toHexString(big.length());
        RawHttp.Answer chunked = RawHttp.exchange(
                port,
                "POST /console/replay HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n\r\n" + chunk
                        + "\r\n" + big + "\r\n0\r\n\r\n");
        assertThat(chunked.status()).isEqualTo(413);
    }

    @Test
    void wrongMethodsAre405WithAllow() throws IOException {
        for (String method : List.of("DELETE", "PUT", "OPTIONS", "PATCH")) {
            RawHttp.Answer page = RawHttp.exchange(
                    port,
                    method
                            + " /console/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            RawHttp.Answer replay = RawHttp.exchange(
                    port,
                    method + " /console/replay HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n"
                            + "Connection: close\r\n\r\n");

            assertThat(page.status()).as(method).isEqualTo(405);
            assertThat(page.headers()).containsEntry("allow", "GET, HEAD");
            assertThat(replay.status()).as(method).isEqualTo(405);
            assertThat(replay.headers()).containsEntry("allow", "GET, HEAD, POST");
        }
        assertThat(post("/console/", "a=b").status()).isEqualTo(405);
        RawHttp.Answer head = RawHttp.request(port, "HEAD", "/console/", "localhost");
        assertThat(head.status()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
    }

    @Test
    void aReplayFromAnotherSiteIsRefusedWhateverItsToken() throws IOException {
        String form = "topic=" + DLQ + "&to=replayed&policy=as-is&token=" + TOKEN;

        assertThat(post("/console/replay", form, "Sec-Fetch-Site: cross-site\r\n")
                        .status())
                .isEqualTo(403);
        assertThat(post("/console/replay", form, "Sec-Fetch-Site: same-site\r\n")
                        .status())
                .isEqualTo(403);
        assertThat(post("/console/replay", form, "Origin: http://evil.example\r\n")
                        .status())
                .isEqualTo(403);
        assertThat(post("/console/replay", form, "Origin: null\r\n").status()).isEqualTo(403);
    }

    /** A replay to the records' source topics is a replay: the same checks, before Kafka is asked. */
    @Test
    void aReplayToTheSourceTopicsIsRefusedAsAnyFromAnotherSiteWithoutTheTokenOrOfAnotherTopic() throws IOException {
        String to = "&to=" + URLEncoder.encode(ReplayRequest.TO_SOURCE, StandardCharsets.UTF_8) + "&policy=as-is";
        String form = "topic=" + DLQ + to + "&token=" + TOKEN;
        LogLines log = LogLines.of(ConsoleHandler.class, Level.INFO);
        try (log) {
            assertThat(post("/console/replay", form, "Origin: http://evil.example\r\n")
                            .status())
                    .isEqualTo(403);
            assertThat(post("/console/replay", form, "Sec-Fetch-Site: cross-site\r\n")
                            .status())
                    .isEqualTo(403);
            RawHttp.Answer wrong = post("/console/replay", "topic=" + DLQ + to + "&token=guess");
            assertThat(wrong.status()).isEqualTo(403);
            assertThat(wrong.body()).contains("Nothing was sent");
            assertThat(post("/console/replay", "topic=" + DLQ + to).status()).isEqualTo(403);
        }
        assertThat(log.lines()).hasSize(4).allSatisfy(line -> assertThat(line)
                .startsWith("WARN DLQ console: a replay was refused"));
        for (String topic : List.of("orders", "__consumer_offsets", "other.dlq")) {
            assertThat(post("/console/replay", "topic=" + topic + to + "&token=" + TOKEN)
                            .status())
                    .as(topic)
                    .isEqualTo(404);
            assertThat(get("/console/replay?topic=" + topic + to, "localhost").status())
                    .as(topic)
                    .isEqualTo(404);
        }
    }

    @Test
    void aRefusedCrossSiteReplayIsLoggedWithItsOriginAndCaller() throws IOException {
        String form = "topic=" + DLQ + "&to=replayed&policy=as-is&token=" + TOKEN;
        LogLines log = LogLines.of(ConsoleHandler.class, Level.INFO);
        try (log) {
            assertThat(post("/console/replay", form, "Origin: http://evil.example\r\n")
                            .status())
                    .isEqualTo(403);
        }
        assertThat(log.lines())
                .singleElement()
                .asString()
                .startsWith("WARN DLQ console: a replay was refused, not from the console's own page (Origin"
                        + " http://evil.example), from /127.0.0.1:");
    }

    @Test
    void anyOtherPathOfDlqServeLeadsToTheConsole() throws IOException {
        RawHttp.Answer answer = get("/", "localhost");

        assertThat(answer.status()).isEqualTo(302);
        assertThat(answer.headers()).containsEntry("location", "/console/");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "/console/records?topic=orders.dlq&size=1000000|size: '1000000' is not a number from 1 to 200",
                "/console/records?topic=orders.dlq&size=0|size: '0' is not a number from 1 to 200",
                "/console/records?topic=orders.dlq&size=99999999999999999999|is not a number from 1 to 200",
                "/console/records?topic=orders.dlq&size=%2D5|size: '-5' is not a number",
                "/console/records?topic=orders.dlq&cursor=0@|cursor: '0@' is not PARTITION@OFFSET",
                "/console/records?topic=orders.dlq&cursor=..%2F..%2Fetc|is not PARTITION@OFFSET",
                "/console/records?topic=orders.dlq&cursor=-1@5|is not PARTITION@OFFSET",
                "/console/records?topic=orders.dlq&key=(unclosed|key: not a regular expression",
                "/console/records?topic=orders.dlq&header=%5B|header: not a regular expression",
                "/console/records?topic=orders.dlq&since=yesterday|since: 'yesterday' is not an ISO-8601 time",
                "/console/records?topic=orders.dlq&until=2026-13-45T99:00:00Z|until: '2026-13-45T99:00:00Z' is not",
                "/console/records?topic=orders.dlq&since=1h&until=2h|must be before until",
                "/console/records?topic=orders.dlq&partition=-1|partition: '-1' is not a partition number",
                "/console/records?topic=orders.dlq&source=orders@5|source: 'orders@5' is not TOPIC, TOPIC-P",
                "/console/export?topic=orders.dlq&encoding=binary|encoding: hex or base64",
                "/console/export?topic=orders.dlq&scope=picked|tick the records to export",
                "/console/export?topic=orders.dlq&scope=picked&pick=x|pick",
                "/console/replay?topic=orders.dlq&key=*|key: not a regular expression",
                "/console/replay?topic=orders.dlq&scope=picked&pick=0@1;DROP|is not PARTITION@OFFSET",
            })
    void aHostileQueryIs400WithWhatIsWrongBeforeKafkaIsAsked(String path, String message) throws IOException {
        long started = System.nanoTime();
        RawHttp.Answer answer = get(path, "localhost");

        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(answer.body().replace("&#39;", "'")).contains(message.equals("pick") ? "PARTITION@OFFSET" : message);
        assertThat(answer.headers().get("content-security-policy")).contains("script-src 'self'");
        // Nothing listens at the bootstrap address: an answer that waited for Kafka would take 15 s.
        assertThat(System.nanoTime() - started)
                .isLessThan(java.time.Duration.ofSeconds(5).toNanos());
    }

    @Test
    void tooManyTickedRecordsAre400() throws IOException {
        StringBuilder path = new StringBuilder("/console/export?topic=orders.dlq&scope=picked");
        for (int i = 0; i <= Pager.MAX_SIZE; i++) {
            path.append("&pick=0@").append(i);
        }

        RawHttp.Answer answer = get(path.toString(), "localhost");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("export at most 200 ticked records");
    }

    @Test
    void aConsoleWithoutATokenSaysOnEveryPageThatItOnlyReads() throws IOException {
        SanitiserConfig settings = new SanitiserConfig(Map.of(
                "application.id", "console-server-test-read-only",
                "bootstrap.servers", "127.0.0.1:1",
                "sanitiser.input.topics", "orders"));
        Properties client = new Properties();
        client.put("bootstrap.servers", "127.0.0.1:1");
        try (Console readOnly = Console.open(settings, client, List.of(), Clock.systemUTC());
                ConsoleServer served = ConsoleServer.serve(readOnly, 0, HttpLimits.DEFAULT)) {
            RawHttp.Answer overview = RawHttp.request(served.address().getPort(), "GET", "/console/", "localhost");
            RawHttp.Answer bad = RawHttp.request(
                    served.address().getPort(), "GET", "/console/records?topic=orders.dlq&size=0", "localhost");
            RawHttp.Answer withToken = get("/console/", "localhost");

            assertThat(overview.body()).contains("id=\"read-only\"").contains("Read-only: this console has no token");
            assertThat(bad.body()).contains("id=\"read-only\"");
            assertThat(withToken.body()).doesNotContain("id=\"read-only\"");
        }
    }
}
