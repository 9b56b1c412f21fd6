package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * An answer is read whole within the read timeout and the retry budget, and no more than 8 MiB of
 * it; past either, the client stops reading and hangs up, which the server sees.
 */
class RestSchemaRegistryLimitsIT {
    /** Where a test server gives up writing, so that a client without a limit fails the test, not the JVM. */
    private static final long GUARD = 64L * 1024 * 1024;

    @Test
    void anEndlessAnswerIsCutAtTheLimitAndTheConnectionClosed() throws InterruptedException {
        AtomicLong written = new AtomicLong();
        CountDownLatch hungUp = new CountDownLatch(1);
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) ' ');
        try (ScriptedServer endless = ScriptedServer.start(exchange -> {
                    exchange.getResponseHeaders().set("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, 0);
                    OutputStream out = exchange.getResponseBody();
                    try {
                        while (written.get() < GUARD) {
                            out.write(chunk);
                            written.addAndGet(chunk.length);
                        }
                    } catch (IOException e) {
                        hungUp.countDown();
                    }
                });
                RestSchemaRegistry client = FastClients.client(
                        endless.url(),
                        "http.read.timeout.ms",
                        "30000",
                        "sanitiser.registry.retry.timeout.ms",
                        "30000")) {
            Throwable e = catchThrowable(() -> client.schema(1));

            assertThat(e)
                    .isExactlyInstanceOf(RegistryUnavailableException.class)
                    .hasMessage(
                            "The Schema Registry at " + endless.url() + " answered schema id 1 (GET " + endless.url()
                                    + "/schemas/ids/1) with more than 8388608 bytes, the most the client reads"
                                    + " (docs/schema-registry.md); not retried: is schema.registry.url right?");
            assertThat(hungUp.await(10, TimeUnit.SECONDS))
                    .as("the server saw the client hang up")
                    .isTrue();
            assertThat(written.get()).isLessThan(GUARD);
            assertThat(endless.requests()).hasSize(1);
        }
    }

    @Test
    void aTricklingAnswerIsGivenUpWithinTheReadTimeoutAndTheRetryBudget() throws InterruptedException {
        int length = 60;
        AtomicInteger hangUps = new AtomicInteger();
        try (ScriptedServer trickle = ScriptedServer.start(exchange -> {
                    exchange.sendResponseHeaders(200, length);
                    OutputStream out = exchange.getResponseBody();
                    try {
                        for (int i = 0; i < length; i++) {
                            out.write(' ');
                            out.flush();
                            Thread.sleep(200);
                        }
                    } catch (IOException e) {
                        hangUps.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                RestSchemaRegistry client = FastClients.client(
                        trickle.url(),
                        "http.read.timeout.ms",
                        "1000",
                        "sanitiser.registry.retry.timeout.ms",
                        "2500",
                        "max.retries",
                        "100")) {
            long start = System.nanoTime();

            Throwable e = catchThrowable(() -> client.schema(1));

            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(e)
                    .isExactlyInstanceOf(RegistryUnavailableException.class)
                    .hasMessageStartingWith("Schema Registry unavailable: schema id 1 failed ")
                    .hasMessageContaining("(sanitiser.registry.retry.timeout.ms=2500)")
                    .hasMessageContaining(trickle.url() + ": the body of the answer did not arrive whole in 1000 ms (");
            // The whole body would take 12 s; the budget is 2.5 s.
            assertThat(took).isLessThan(Duration.ofMillis(2500 + 1500));
            int attempts = trickle.requests().size();
            assertThat(attempts).isBetween(2, 4);
            Thread.sleep(500);
            assertThat(hangUps.get()).as("every attempt hung up on").isEqualTo(attempts);
        }
    }

    @Test
    void aLargeSchemaUnderTheLimitIsRead() {
        String doc = "d".repeat(7 * 1024 * 1024);
        String schema = "{\"type\":\"record\",\"name\":\"Big\",\"doc\":\"" + doc + "\",\"fields\":[]}";
        String answer = "{\"schema\":\"" + schema.replace("\"", "\\\"") + "\"}";
        try (ScriptedServer big =
                        ScriptedServer.start(exchange -> ScriptedServer.send(exchange, 200, answer.getBytes(UTF_8)));
                RestSchemaRegistry client = FastClients.client(
                        big.url(), "http.read.timeout.ms", "20000", "sanitiser.registry.retry.timeout.ms", "20000")) {
            Schema read = client.schema(1);

            assertThat(read.getDoc()).hasSize(doc.length());
        }
    }
}
