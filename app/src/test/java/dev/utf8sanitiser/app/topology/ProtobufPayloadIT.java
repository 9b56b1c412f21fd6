package dev.utf8sanitiser.app.topology;

import static dev.utf8sanitiser.app.topology.RegistryRun.header;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.SanitiserConfigFile;
import dev.utf8sanitiser.app.cli.CliRun;
import dev.utf8sanitiser.app.console.Console;
import dev.utf8sanitiser.app.console.ConsoleServer;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SchemaReference;
import dev.utf8sanitiser.testkit.SharedKafka;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sanitiser.payload.format=protobuf} end to end: the Kafka Streams application on a real
 * KRaft broker, a Protobuf schema that imports another from the test registry over real HTTP (a
 * reference), output and dead-letter topics read with read_committed. The expectations come from
 * descriptors built here by hand (not from the sanitiser's own parsing of the text) and
 * protobuf-java's {@code DynamicMessage} as the oracle.
 */
@ExtendWith(SharedKafka.class)
class ProtobufPayloadIT {
    private static final String MONEY_PROTO =
            """
            syntax = "proto3";
            package common;
            message Money { string currency = 1; int64 units = 2; }
            """;
    private static final String ORDER_PROTO =
            """
            syntax = "proto3";
            package shop;
            import "common/money.proto";
            message Order { string id = 1; common.Money total = 2; repeated string tags = 3; }
            """;
    private static final Descriptor ORDER = orderDescriptor();
    private static final Descriptor MONEY = ORDER.findFieldByName("total").getMessageType();

    private static final ObjectMapper JSON = new ObjectMapper();

    private static EmbeddedKafka kafka;
    private static TestSchemaRegistry registry;

    @TempDir
    Path dir;

    @BeforeAll
    static void start(EmbeddedKafka shared) {
        kafka = shared;
        registry = TestSchemaRegistry.start();
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void strictDeadLettersByteExactAndReplaceFixesWhatProtobufReadsBack() throws Exception {
        String in = SharedKafka.unique("orders-protobuf");
        kafka.createTopics(1, in);
        registry.register("common/money.proto", "PROTOBUF", MONEY_PROTO, List.of());
        int id = registry.register(
                in + "-value",
                "PROTOBUF",
                ORDER_PROTO,
                List.of(new SchemaReference("common/money.proto", "common/money.proto", 1)));

        Map<String, byte[]> inputs = new LinkedHashMap<>();
        inputs.put("clean", framed(id, order(bytes("o-1"), bytes("EUR"), bytes("a"), bytes("Łódź"))));
        inputs.put("currency", framed(id, order(bytes("o-2"), bytes('E', 0xFF, 'R'), bytes("a"))));
        inputs.put("tag", framed(id, order(bytes("o-3"), bytes("EUR"), bytes("a"), bytes('b', 0xED, 0xA0, 0x80))));
        byte[] whole = order(bytes("o-4"), bytes("EUR"));
        inputs.put("truncated", framed(id, Arrays.copyOf(whole, whole.length - 2)));
        inputs.put("unknown", framed(9999, whole));
        inputs.put("not-framed", new byte[] {1, 2, 3});
        produce(in, inputs);

        assertThat(parses(inputs.get("currency"))).isFalse();
        assertThat(parses(inputs.get("tag"))).isFalse();
        assertThat(parses(inputs.get("clean"))).isTrue();

        Map<String, ConsumerRecord<byte[], byte[]>> clean = new HashMap<>();
        Map<String, ConsumerRecord<byte[], byte[]>> dead = new HashMap<>();
        try (SanitiserApplication app = SanitiserApplication.start(config(in, "strict", in + "-strict"), true)) {
            RegistryRun.consumeUntil(kafka, inputs.size(), in + ".clean", in + ".dlq", clean, dead);
        }
        assertThat(clean).containsOnlyKeys("clean");
        assertThat(clean.get("clean").value()).isEqualTo(inputs.get("clean"));
        assertThat(dead).containsOnlyKeys("currency", "tag", "truncated", "unknown", "not-framed");
        dead.forEach((key, record) -> assertThat(record.value()).as(key).isEqualTo(inputs.get(key)));
        assertThat(header(dead.get("currency"), "__utf8.rule")).isEqualTo("INVALID_BYTE");
        assertThat(header(dead.get("currency"), "__utf8.field")).isEqualTo("total.currency");
        assertThat(header(dead.get("tag"), "__utf8.rule")).isEqualTo("SURROGATE");
        assertThat(header(dead.get("tag"), "__utf8.field")).isEqualTo("tags[1]");
        assertThat(header(dead.get("truncated"), "__utf8.rule")).isEqualTo("MALFORMED_PROTOBUF");
        assertThat(header(dead.get("unknown"), "__utf8.rule")).isEqualTo("UNKNOWN_SCHEMA");
        assertThat(header(dead.get("not-framed"), "__utf8.rule")).isEqualTo("NOT_PROTOBUF");

        shownByDlqInspectAndTheConsole(in, in + ".dlq", inputs);

        // The same records under replace, read into other topics.
        String out = in + "-replace";
        clean.clear();
        dead.clear();
        Map<String, Object> overrides =
                Map.of("sanitiser.output.topic", out + ".clean", "sanitiser.dlq.topic", out + ".dlq");
        try (SanitiserApplication app =
                SanitiserApplication.start(config(in, "replace", in + "-replace", overrides), true)) {
            RegistryRun.consumeUntil(kafka, inputs.size(), out + ".clean", out + ".dlq", clean, dead);
        }
        assertThat(clean).containsOnlyKeys("clean", "currency", "tag");
        assertThat(dead).containsOnlyKeys("truncated", "unknown", "not-framed");
        DynamicMessage currency = parse(clean.get("currency").value());
        assertThat(((DynamicMessage) currency.getField(ORDER.findFieldByName("total")))
                        .getField(MONEY.findFieldByName("currency")))
                .isEqualTo(replaced(bytes('E', 0xFF, 'R')));
        DynamicMessage tag = parse(clean.get("tag").value());
        assertThat(tag.getField(ORDER.findFieldByName("tags")))
                .isEqualTo(List.of("a", replaced(bytes('b', 0xED, 0xA0, 0x80))));
        assertThat(Arrays.copyOf(clean.get("tag").value(), 6)).isEqualTo(Arrays.copyOf(inputs.get("tag"), 6));
        assertThat(header(clean.get("tag"), "__utf8.action")).isEqualTo("replaced");
    }

    /**
     * {@code dlq inspect} (text and JSON Lines), {@code dlq stats} and the console's records list
     * name each Protobuf dead letter's field and rule, and mark its bytes at the offset from the
     * magic byte.
     */
    private void shownByDlqInspectAndTheConsole(String in, String dlq, Map<String, byte[]> inputs) throws Exception {
        int currency = indexOf(inputs.get("currency"), 0xFF);
        int tag = indexOf(inputs.get("tag"), 0xED);
        Path config = SanitiserConfigFile.write(dir, kafka, in, "sanitiser.payload.format=protobuf");

        CliRun text =
                CliRun.of("dlq", "inspect", "--config", config.toString(), "--topic", dlq, "--field", "total.currency");
        assertThat(text.exit()).as(text.stderr()).isZero();
        assertThat(text.stdoutText())
                .contains("rule     INVALID_BYTE")
                .contains("where    value field total.currency byte " + currency + ", length 1;")
                .contains("[ff]52")
                .doesNotContain("SURROGATE");
        CliRun tags = CliRun.of("dlq", "inspect", "--config", config.toString(), "--topic", dlq, "--field", "tags[1]");
        assertThat(tags.stdoutText())
                .contains("rule     SURROGATE")
                .contains("where    value field tags[1] byte " + tag + ",")
                .contains("62[ed a0 80]");

        CliRun json = CliRun.of("dlq", "inspect", "--config", config.toString(), "--topic", dlq, "--json");
        assertThat(json.exit()).as(json.stderr()).isZero();
        Map<String, JsonNode> byKey = new HashMap<>();
        for (String line : json.stdoutText().split("\n")) {
            JsonNode node = JSON.readTree(line);
            byKey.put(node.get("source").get("offset").asText(), node);
        }
        assertThat(byKey).hasSize(inputs.size() - 1);
        // Source offsets in the order produced: clean 0, currency 1, tag 2.
        assertThat(describe(byKey.get("1"))).isEqualTo("total.currency INVALID_BYTE " + currency + " 1");
        assertThat(describe(byKey.get("2"))).isEqualTo("tags[1] SURROGATE " + tag + " 1");

        CliRun stats = CliRun.of("dlq", "stats", "--config", config.toString(), "--topic", dlq, "--json");
        JsonNode byField = JSON.readTree(stats.stdout()).get("byField");
        assertThat(byField.get("total.currency").asInt()).isEqualTo(1);
        assertThat(byField.get("tags[1]").asInt()).isEqualTo(1);

        SanitiserConfig settings = new SanitiserConfig(Map.of(
                "application.id",
                in + "-console",
                "bootstrap.servers",
                kafka.bootstrapServers(),
                "sanitiser.input.topics",
                in));
        Properties client = new Properties();
        client.put("bootstrap.servers", kafka.bootstrapServers());
        try (Console console = Console.open(settings, client, List.of(dlq), Clock.systemUTC());
                ConsoleServer server = ConsoleServer.serve(console, 0)) {
            String base = "http://127.0.0.1:" + server.address().getPort() + "/console/records?topic=" + dlq;
            String all = get(base);
            assertThat(all)
                    .contains("<td>INVALID_BYTE</td><td>" + in + "-0@1</td><td>total.currency</td>")
                    .contains("<td>SURROGATE</td><td>" + in + "-0@2</td><td>tags[1]</td>")
                    .contains("<td>MALFORMED_PROTOBUF</td>");
            String one = get(base + "&field=tags%5B1%5D");
            assertThat(one.split("data-place=", -1)).as(one).hasSize(2);
            assertThat(one).contains("<td>tags[1]</td>").doesNotContain("total.currency</td>");
        }
    }

    private static String describe(JsonNode n) {
        return n.get("field").asText() + " " + n.get("rule").asText() + " "
                + n.get("byteOffset").asInt() + " " + n.get("length").asInt();
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    private static int indexOf(byte[] bytes, int b) {
        for (int i = 0; i < bytes.length; i++) {
            if ((bytes[i] & 0xFF) == b) {
                return i;
            }
        }
        throw new AssertionError("no byte " + b);
    }

    private static Descriptor orderDescriptor() {
        try {
            FileDescriptor money = FileDescriptor.buildFrom(
                    FileDescriptorProto.newBuilder()
                            .setName("common/money.proto")
                            .setPackage("common")
                            .setSyntax("proto3")
                            .addMessageType(DescriptorProto.newBuilder()
                                    .setName("Money")
                                    .addField(field("currency", 1, FieldDescriptorProto.Type.TYPE_STRING))
                                    .addField(field("units", 2, FieldDescriptorProto.Type.TYPE_INT64)))
                            .build(),
                    new FileDescriptor[0]);
            FileDescriptor order = FileDescriptor.buildFrom(
                    FileDescriptorProto.newBuilder()
                            .setName("order.proto")
                            .setPackage("shop")
                            .setSyntax("proto3")
                            .addDependency("common/money.proto")
                            .addMessageType(DescriptorProto.newBuilder()
                                    .setName("Order")
                                    .addField(field("id", 1, FieldDescriptorProto.Type.TYPE_STRING))
                                    .addField(field("total", 2, FieldDescriptorProto.Type.TYPE_MESSAGE)
                                            .setTypeName(".common.Money"))
                                    .addField(field("tags", 3, FieldDescriptorProto.Type.TYPE_STRING)
                                            .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED)))
                            .build(),
                    new FileDescriptor[] {money});
            return order.findMessageTypeByName("Order");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static FieldDescriptorProto.Builder field(String name, int number, FieldDescriptorProto.Type type) {
        return FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
    }

    /** An order written field by field, strings as raw bytes (ill-formed ones too). */
    private static byte[] order(byte[] id, byte[] currency, byte[]... tags) throws IOException {
        ByteArrayOutputStream money = new ByteArrayOutputStream();
        CodedOutputStream m = CodedOutputStream.newInstance(money);
        m.writeBytes(1, ByteString.copyFrom(currency));
        m.writeInt64(2, 12);
        m.flush();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeBytes(1, ByteString.copyFrom(id));
        out.writeBytes(2, ByteString.copyFrom(money.toByteArray()));
        for (byte[] tag : tags) {
            out.writeBytes(3, ByteString.copyFrom(tag));
        }
        out.flush();
        return bytes.toByteArray();
    }

    /** Confluent's framing with the message indexes [0], the single byte 0. */
    private static byte[] framed(int id, byte[] message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id, 0});
        out.writeBytes(message);
        return out.toByteArray();
    }

    private static DynamicMessage parse(byte[] framed) throws InvalidProtocolBufferException {
        return DynamicMessage.parseFrom(ORDER, Arrays.copyOfRange(framed, 6, framed.length));
    }

    private static boolean parses(byte[] framed) {
        try {
            parse(framed);
            return true;
        } catch (InvalidProtocolBufferException e) {
            return false;
        }
    }

    private static String replaced(byte[] bytes) {
        return new String(Utf8Sanitiser.sanitise(bytes, Policy.REPLACE).output(), UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    private static SanitiserConfig config(String input, String policy, String applicationId) {
        return config(input, policy, applicationId, Map.of());
    }

    private static SanitiserConfig config(
            String input, String policy, String applicationId, Map<String, Object> overrides) {
        return RegistryRun.config(
                kafka, Optional.of(registry.url()), input, policy, "protobuf", applicationId, overrides);
    }

    private static void produce(String topic, Map<String, byte[]> inputs) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (Map.Entry<String, byte[]> e : inputs.entrySet()) {
                producer.send(new ProducerRecord<>(topic, e.getKey().getBytes(UTF_8), e.getValue()))
                        .get();
            }
        }
    }
}
