package dev.utf8sanitiser.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * The SMT and the predicate ask the registry once in {@code configure}: a wrong URL fails the task
 * at start, before {@code errors.tolerance=all} could skip a single record for it; a registry that
 * is down does not hold the worker up.
 */
class RegistryCheckAtConfigureIT {
    private static Map<String, Object> avro(String url) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.payload.format", "avro");
        props.put("schema.registry.url", url);
        props.put("sanitiser.registry.retry.timeout.ms", "10000");
        return props;
    }

    @Test
    void aUrlWithoutTheRegistrysPathFailsConfigure() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
            String url = registry.url() + "/apis/ccompat/v7";

            try (Utf8Sanitise<SinkRecord> smt = new Utf8Sanitise.Value<>();
                    IsWellFormedUtf8<SinkRecord> predicate = new IsWellFormedUtf8<>()) {
                for (Throwable e : new Throwable[] {
                    catchThrowable(() -> smt.configure(avro(url))), catchThrowable(() -> predicate.configure(avro(url)))
                }) {
                    assertThat(e)
                            .isInstanceOf(ConfigException.class)
                            .hasMessageStartingWith("The Schema Registry at " + url + " answered schema id 0 (the"
                                    + " start-up check) (GET " + url + "/schemas/ids/0) with HTTP 404");
                }
            }
        }
    }

    @Test
    void aRegistryThatAnswersPassesWithOneRequest() {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start();
                Utf8Sanitise<SinkRecord> smt = new Utf8Sanitise.Value<>()) {
            assertThatCode(() -> smt.configure(avro(registry.url()))).doesNotThrowAnyException();
            assertThat(registry.requests()).containsExactly("GET /schemas/ids/0");
        }
    }

    @Test
    void aRegistryThatIsDownIsNotWaitedFor() throws IOException {
        String down;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            down = "http://127.0.0.1:" + socket.getLocalPort();
        }
        try (Utf8Sanitise<SinkRecord> smt = new Utf8Sanitise.Value<>()) {
            long start = System.nanoTime();

            assertThatCode(() -> smt.configure(avro(down))).doesNotThrowAnyException();

            assertThat((System.nanoTime() - start) / 1_000_000)
                    .as("ms, with a retry budget of 10 s")
                    .isLessThan(5_000);
        }
    }
}
