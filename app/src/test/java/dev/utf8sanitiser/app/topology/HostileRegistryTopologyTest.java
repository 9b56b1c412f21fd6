package dev.utf8sanitiser.app.topology;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.utf8sanitiser.app.LogLines;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.registry.RestSchemaRegistry;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;

/**
 * A registry that answers a schema id with references chained 10,000 deep: the sanitiser's own
 * client (over HTTP, no stub) gives its records to the dead-letter topic as {@code
 * UNUSABLE_SCHEMA}, byte-exact, asks the registry once for that id, warns once, and goes on
 * delivering the records whose schema is fine.
 */
class HostileRegistryTopologyTest {
    private static final String GOOD =
            "{\"type\":\"record\",\"name\":\"Good\",\"fields\":[{\"name\":\"s\",\"type\":" + "\"string\"}]}";

    @Test
    void aSchemaWithAChainOfTenThousandReferencesIsDeadLetteredAndTheNextRecordDelivered() throws IOException {
        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer registry = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        registry.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath();
            requests.add(path);
            if (path.equals("/schemas/ids/42")) {
                send(exchange, answer(GOOD, null));
            } else if (path.equals("/schemas/ids/66")) {
                send(exchange, answer(record("Top", "R0"), "s0"));
            } else if (path.startsWith("/subjects/s")) {
                int i = Integer.parseInt(path.substring("/subjects/s".length(), path.indexOf("/versions/")));
                send(exchange, answer(record("R" + i, "R" + (i + 1)), i < 10_000 ? "s" + (i + 1) : null));
            } else {
                exchange.sendResponseHeaders(500, -1);
                exchange.close();
            }
        });
        registry.start();

        // Warnings and worse only.
        LogLines warnings = LogLines.of(RestSchemaRegistry.class, Level.WARN);

        Map<String, Object> settings = new HashMap<>();
        settings.put("sanitiser.input.topics", "orders");
        settings.put("sanitiser.payload.format", "avro");
        settings.put(
                "schema.registry.url",
                "http://127.0.0.1:" + registry.getAddress().getPort());
        SanitiserConfig config = new SanitiserConfig(settings);
        Properties streams = new Properties();
        streams.put("application.id", "hostile-registry-test");
        streams.put("bootstrap.servers", "unused:9092");
        byte[] hostile = concat(WireFormat.prefix(66), new byte[] {0x00, 0x02, 'x'});
        byte[] good = concat(WireFormat.prefix(42), new byte[] {0x04, 'o', 'k'});
        try (RestSchemaRegistry client = RestSchemaRegistry.create(config);
                TopologyTestDriver driver = new TopologyTestDriver(
                        SanitiserTopology.build(config, ValueFormats.of(config, () -> client)), streams)) {
            TestInputTopic<byte[], byte[]> in =
                    driver.createInputTopic("orders", new ByteArraySerializer(), new ByteArraySerializer());
            in.pipeInput(hostile);
            in.pipeInput(good);
            in.pipeInput(hostile);
            in.pipeInput(good);

            List<TestRecord<byte[], byte[]>> clean = driver.createOutputTopic(
                            "orders.clean", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                    .readRecordsToList();
            List<TestRecord<byte[], byte[]>> dead = driver.createOutputTopic(
                            "orders.dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                    .readRecordsToList();

            assertThat(clean).extracting(TestRecord::value).containsExactly(good, good);
            assertThat(dead).extracting(TestRecord::value).containsExactly(hostile, hostile);
            for (TestRecord<byte[], byte[]> letter : dead) {
                assertThat(header(letter, HeaderNames.RULE)).isEqualTo("UNUSABLE_SCHEMA");
                assertThat(header(letter, HeaderNames.OFFSET)).isEqualTo("1");
                assertThat(header(letter, HeaderNames.LENGTH)).isEqualTo("4");
            }
            assertThat(requests.stream().filter(path -> path.equals("/schemas/ids/66")))
                    .as("the verdict is kept: one lookup for the id")
                    .hasSize(1);
            assertThat(requests).as("the id, the good id and 64 levels").hasSize(2 + 64);
            assertThat(warnings.lines())
                    .as("one warning for the id, not one per record")
                    .singleElement()
                    .asString()
                    .contains("schema id 66")
                    .contains("UNUSABLE_SCHEMA");
        } finally {
            warnings.close();
            registry.stop(0);
        }
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), UTF_8);
    }

    private static String record(String name, String next) {
        return "{\"type\":\"record\",\"name\":\"" + name + "\",\"fields\":[{\"name\":\"next\",\"type\":[\"null\",\""
                + next + "\"]},{\"name\":\"s\",\"type\":\"string\"}]}";
    }

    private static String answer(String schema, String reference) {
        String escaped = schema.replace("\"", "\\\"");
        return "{\"schema\":\"" + escaped + "\""
                + (reference == null
                        ? ""
                        : ",\"references\":[{\"name\":\"" + reference + "\",\"subject\":\"" + reference
                                + "\",\"version\":1}]")
                + "}";
    }

    private static void send(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
