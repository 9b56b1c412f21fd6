package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.http.HttpLimits;
import dev.utf8sanitiser.app.http.RawHttp;
import dev.utf8sanitiser.app.transactions.HangingTransactionMonitor;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.streams.DeadLetterBreakerOpenException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP port against hostile clients, over real sockets: half requests, idle connections, too
 * many connections, wrong methods, a huge header, a forged {@code Host}. Kafka Streams is created
 * and never started (CREATED: alive, not ready); nothing listens at its bootstrap address.
 */
class HealthServerTest {
    private static final String NOWHERE = "127.0.0.1:1";

    private KafkaStreams streams;
    private HangingTransactionMonitor transactions;
    private ClusterMonitor cluster;
    private final PartitionMonitor partitions =
            new PartitionMonitor(() -> new PartitionMonitor.Snapshot(Map.of(), Map.of()), System::nanoTime);
    private final List<HealthServer> servers = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    @BeforeEach
    void createTheApplicationsParts() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "health-server-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, NOWHERE);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in");
        streams = new KafkaStreams(builder.build(), props);
        SanitiserConfig config = new SanitiserConfig(Map.of(
                "application.id", "health-server-test",
                "bootstrap.servers", NOWHERE,
                "sanitiser.input.topics", "in"));
        transactions = HangingTransactionMonitor.start(config, props);
        cluster = new ClusterMonitor(() -> {}, NOWHERE, System::nanoTime);
    }

    @AfterEach
    void closeEverything() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        servers.forEach(HealthServer::close);
        transactions.close();
        streams.close(Duration.ZERO);
    }

    private int start(HttpLimits limits) throws IOException {
        HealthServer server =
                HealthServer.start(streams, transactions, cluster, partitions, 0, Optional.empty(), limits);
        servers.add(server);
        return server.port();
    }

    private static HttpLimits limits(Duration idle, int connections) {
        return limits(idle, connections, Duration.ofSeconds(2));
    }

    private static HttpLimits limits(Duration idle, int connections, Duration stalledAfter) {
        HttpLimits d = HttpLimits.DEFAULT;
        return new HttpLimits(
                idle,
                connections,
                stalledAfter,
                d.maxRequestHeaderBytes(),
                d.maxFormBytes(),
                d.threads(),
                d.heavyRequests(),
                d.heavyWait());
    }

    private static Duration timed(IoCall call) throws IOException {
        long start = System.nanoTime();
        call.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private interface IoCall {
        void run() throws IOException;
    }

    /** An open dead-letter circuit breaker: not ready, with the reason; the gauge per topic; still live. */
    @Test
    void anOpenCircuitBreakerMakesTheInstanceNotReadyAndSetsItsGauge() throws IOException {
        BreakerTrips trips = new BreakerTrips();
        HealthServer server = HealthServer.start(
                streams,
                transactions,
                cluster,
                partitions,
                trips,
                List.of("in"),
                0,
                Optional.empty(),
                HttpLimits.DEFAULT);
        servers.add(server);
        int port = server.port();
        assertThat(RawHttp.request(port, "GET", "/metrics", "x").body())
                .contains("utf8_sanitiser_circuit_breaker_open{topic=\"in\"} 0.0");
        assertThat(RawHttp.request(port, "GET", "/health/ready", "x").body()).doesNotContain("circuit breaker");

        trips.trip(new DeadLetterBreakerOpenException("in", 101, 201, 0.5));
        trips.trip(new DeadLetterBreakerOpenException("matched", 10, 10, 0.5)); // a topic of a pattern

        RawHttp.Answer ready = RawHttp.request(port, "GET", "/health/ready", "x");
        assertThat(ready.status()).isEqualTo(503);
        assertThat(ready.body())
                .contains("dead-letter circuit breaker open for in: 101 of the last 201 records would be dead"
                        + " letters (50.2%), over sanitiser.circuit.breaker.dead.letter.share=0.5; restart to resume")
                .contains("open for matched");
        String metrics = RawHttp.request(port, "GET", "/metrics", "x").body();
        assertThat(metrics)
                .contains("utf8_sanitiser_circuit_breaker_open{topic=\"in\"} 1.0")
                .contains("utf8_sanitiser_circuit_breaker_open{topic=\"matched\"} 1.0")
                .contains("utf8_sanitiser_ready 0.0");
    }

    @Test
    void sixtyFourHalfRequestsHoldNoneOfTheThreadsTheProbesNeed() throws IOException {
        int port = start(HttpLimits.DEFAULT);
        // Once, as a running application has: the first request loads the classes of the path.
        assertThat(RawHttp.request(port, "GET", "/metrics", "x").status()).isEqualTo(200);
        for (int i = 0; i < 64; i++) {
            sockets.add(RawHttp.half(port));
        }

        for (int round = 0; round < 3; round++) {
            List<Integer> statuses = new ArrayList<>();
            Duration took = timed(() -> {
                statuses.add(RawHttp.request(port, "GET", "/health/live", "10.1.2.3:8080")
                        .status());
                statuses.add(RawHttp.request(port, "GET", "/health/ready", "10.1.2.3:8080")
                        .status());
                statuses.add(RawHttp.request(port, "GET", "/metrics", "10.1.2.3:8080")
                        .status());
            });

            assertThat(statuses).containsExactly(200, 503, 200); // CREATED: alive, not ready
            assertThat(took).isLessThan(Duration.ofSeconds(2));
        }
    }

    @Test
    void aConnectionThatSendsHalfARequestIsClosedAfterTheIdleTimeout() throws IOException {
        int port = start(limits(Duration.ofMillis(500), 256));
        Socket half = RawHttp.half(port);
        sockets.add(half);
        Socket silent = new Socket("127.0.0.1", port);
        sockets.add(silent);

        assertThat(RawHttp.closedWithin(half, Duration.ofSeconds(5))).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(RawHttp.closedWithin(silent, Duration.ofSeconds(5))).isLessThan(Duration.ofSeconds(5));
    }

    /**
     * Connections that never finish a request, as many as the limit and kept alive past the idle
     * timeout (here a long one, as a client that sends a byte now and then has), cannot keep a probe
     * out: one connection past the limit closes the one stalled for longest.
     */
    @Test
    void pastTheConnectionLimitANewConnectionClosesTheOneStalledLongest() throws Exception {
        int port = start(limits(Duration.ofSeconds(60), 6, Duration.ofMillis(200)));
        List<Socket> held = holdHalfRequests(port, 6);
        Thread.sleep(700);

        for (int probe = 0; probe < 6; probe++) {
            assertThat(RawHttp.request(port, "GET", "/health/live", "x").status())
                    .isEqualTo(200);
        }

        // The first probe, the seventh connection, closed a stalled one to get in; a probe that came
        // before the server saw the last one close did too. Every closed one is a held one.
        int closed = 0;
        for (Socket socket : held) {
            closed += isClosedWithin(socket, Duration.ofMillis(300)) ? 1 : 0;
        }
        assertThat(closed).isBetween(1, 6);
    }

    private static boolean isClosedWithin(Socket socket, Duration atMost) throws IOException {
        socket.setSoTimeout((int) atMost.toMillis());
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset by the server
        }
    }

    /**
     * When none has stalled long enough, the connection past the limit is the one closed: one of the
     * seven, whichever the server saw open last (its selector may see them in another order than
     * the client opened them).
     */
    @Test
    void pastTheConnectionLimitANewConnectionIsClosedWhenNoneHasStalled() throws Exception {
        int port = start(limits(Duration.ofSeconds(60), 6, Duration.ofSeconds(60)));
        List<Socket> seven = holdHalfRequests(port, 7);
        Thread.sleep(1_000);

        int closed = 0;
        for (Socket socket : seven) {
            closed += isClosedWithin(socket, Duration.ofMillis(300)) ? 1 : 0;
        }
        assertThat(closed).isEqualTo(1);
    }

    private List<Socket> holdHalfRequests(int port, int count) throws IOException {
        List<Socket> held = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            held.add(RawHttp.half(port));
        }
        sockets.addAll(held);
        return held;
    }

    @ParameterizedTest
    @ValueSource(strings = {"/health/live", "/health/ready", "/health", "/metrics"})
    void onlyGetAndHeadAreAnswered(String path) throws IOException {
        int port = start(HttpLimits.DEFAULT);
        for (String method : List.of("DELETE", "POST", "PUT", "OPTIONS", "TRACE", "PATCH")) {
            RawHttp.Answer answer = RawHttp.exchange(
                    port,
                    method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n"
                            + "Connection: close\r\n\r\n");

            assertThat(answer.status()).as(method + " " + path).isEqualTo(405);
            assertThat(answer.headers()).containsEntry("allow", "GET, HEAD");
        }
        RawHttp.Answer head = RawHttp.request(port, "HEAD", path, "localhost");
        assertThat(head.status()).isNotEqualTo(405);
        assertThat(head.body()).isEmpty();
        assertThat(head.headers()).containsKey("content-length");
    }

    @Test
    void aHugeRequestHeaderGets431AndTheServerGoesOn() throws IOException {
        int port = start(HttpLimits.DEFAULT);

        RawHttp.Answer answer = RawHttp.exchange(
                port,
                "GET /health/live HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(64 * 1024)
                        + "\r\nConnection: close\r\n\r\n");

        assertThat(answer.status()).isEqualTo(431);
        assertThat(RawHttp.request(port, "GET", "/health/live", "localhost").status())
                .isEqualTo(200);
    }

    @Test
    void theProbesAnswerToAnyHostAndAnUnknownPathIs404() throws IOException {
        int port = start(HttpLimits.DEFAULT);

        assertThat(RawHttp.request(port, "GET", "/health/live", "evil.example:" + port)
                        .status())
                .isEqualTo(200);
        assertThat(RawHttp.request(port, "GET", "/metrics", "10.0.0.7:" + port).body())
                .contains("utf8_sanitiser_ready 0.0");
        assertThat(RawHttp.request(port, "GET", "/console/", "localhost").status())
                .as("no console configured")
                .isEqualTo(404);
        assertThat(RawHttp.request(port, "GET", "/health/live/../../etc/passwd", "localhost")
                        .status())
                .isIn(400, 404);
    }
}
