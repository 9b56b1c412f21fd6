package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.bytes;
import static dev.utf8sanitiser.connect.Records.header;
import static dev.utf8sanitiser.connect.Records.sink;
import static dev.utf8sanitiser.connect.Records.utf8;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.serdes.framing.MessageIndexes;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Byte-array values of Protobuf in Confluent's wire format, through the SMT and the predicate, with
 * the schema from the test registry over real HTTP. The message is the file's second ({@code
 * Order}, message indexes [1]), so that the indexes are more than the one-byte default. The oracle
 * is protobuf-java's own {@code DynamicMessage.parseFrom} with descriptors built here by hand, not
 * from the sanitiser's parsing of the registered text.
 */
class ProtobufPayloadFormatIT {
    private static final String ORDERS_PROTO =
            """
            syntax = "proto3";
            package shop;
            message Ping { string id = 1; }
            message Order {
              string id = 1;
              repeated Line lines = 2;
              map<string, string> tags = 3;
              bytes raw = 4;
              message Line { string sku = 1; int32 quantity = 2; }
            }
            """;
    private static final Descriptor ORDER = orderDescriptor();
    private static final Descriptor LINE = ORDER.findNestedTypeByName("Line");
    /** Google's example of a CESU-8 pair: U+1F600 as two encoded surrogates. */
    private static final int[] CESU8_GRINNING = {0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80};

    private static TestSchemaRegistry registry;
    private static int id;

    @BeforeAll
    static void start() {
        registry = TestSchemaRegistry.start();
        id = registry.register("orders-value", "PROTOBUF", ORDERS_PROTO, List.of());
    }

    @AfterAll
    static void stop() {
        if (registry != null) {
            registry.close();
        }
    }

    @Test
    void strictFailsAndRoutesAnIllFormedNestedStringByteExactAndThePredicateIsFalse() throws Exception {
        byte[] value = framed(corrupt(order("o-1", "AAAAAA"), "AAAAAA", CESU8_GRINNING));
        byte[] clean = framed(order("o-2", "Łódź"));
        int at = indexOf(value, bytes(0xED, 0xA0));
        assertThat(parses(value)).as("protobuf-java refuses it").isFalse();
        assertThat(parses(clean)).isTrue();

        try (Utf8Sanitise<SinkRecord> fail = configured(new Utf8Sanitise.Value<>(), Map.of());
                Utf8Sanitise<SinkRecord> route =
                        configured(new Utf8Sanitise.Value<>(), Map.of("sanitiser.on.reject", "route"));
                IsWellFormedUtf8<SinkRecord> predicate = configured(new IsWellFormedUtf8<>(), Map.of())) {
            assertThatThrownBy(() -> fail.apply(sink(Schema.BYTES_SCHEMA, value)))
                    .isInstanceOf(DataException.class)
                    .hasMessage("SURROGATE at value field lines[1].sku byte " + at + " (ED A0 BD ED B8 80)");

            SinkRecord routed = route.apply(sink(Schema.BYTES_SCHEMA, value));
            assertThat(routed.topic()).isEqualTo("orders.dlq");
            assertThat((byte[]) routed.value()).isEqualTo(value);
            assertThat(header(routed.headers(), "__utf8.rule")).isEqualTo("SURROGATE");
            assertThat(header(routed.headers(), "__utf8.field")).isEqualTo("lines[1].sku");
            assertThat(header(routed.headers(), "__utf8.offset")).isEqualTo(Integer.toString(at));
            assertThat(header(routed.headers(), "__utf8.part")).isEqualTo("value");

            assertThat(predicate.test(sink(Schema.BYTES_SCHEMA, value))).isFalse();
            assertThat(predicate.test(sink(Schema.BYTES_SCHEMA, clean))).isTrue();
            SinkRecord passed = route.apply(sink(Schema.BYTES_SCHEMA, clean));
            assertThat(passed.topic()).isEqualTo("orders");
            assertThat((byte[]) passed.value()).isSameAs(clean);
        }
    }

    @Test
    void replaceAndRepairGiveAMessageProtobufReadsWithTheSameSchemaIdAndIndexes() throws Exception {
        byte[] order = corrupt(order("o-3", "AAAAAA"), "AAAAAA", CESU8_GRINNING);
        byte[] value = framed(corrupt(order, "caf!", 'c', 'a', 'f', 0xE9));
        byte[] prefix = Arrays.copyOf(value, 6);

        for (Policy policy : List.of(Policy.REPLACE, Policy.REPAIR)) {
            String name = policy.name().toLowerCase(java.util.Locale.ROOT);
            try (Utf8Sanitise<SinkRecord> smt =
                            configured(new Utf8Sanitise.Value<>(), Map.of("sanitiser.policy", name));
                    IsWellFormedUtf8<SinkRecord> predicate = configured(new IsWellFormedUtf8<>(), Map.of())) {
                SinkRecord fixed = smt.apply(sink(Schema.BYTES_SCHEMA, value));

                byte[] out = (byte[]) fixed.value();
                assertThat(Arrays.copyOf(out, 6)).as(name).isEqualTo(prefix);
                assertThat(WireFormat.schemaId(out)).isEqualTo(id);
                assertThat(MessageIndexes.read(out, 5).path()).containsExactly(1);
                DynamicMessage read = parse(out);
                DynamicMessage line = (DynamicMessage) read.getRepeatedField(ORDER.findFieldByName("lines"), 1);
                assertThat(line.getField(LINE.findFieldByName("sku")))
                        .as(name)
                        .isEqualTo(policy == Policy.REPAIR ? "\uD83D\uDE00" : fixedText(policy, CESU8_GRINNING));
                assertThat(line.getField(LINE.findFieldByName("quantity"))).isEqualTo(2);
                assertThat(tags(read)).as(name).containsEntry("color", fixedText(policy, 'c', 'a', 'f', 0xE9));
                assertThat(read.getField(ORDER.findFieldByName("id"))).isEqualTo("o-3");
                // Latin-1 is never repaired: replaced is the most significant change under both.
                assertThat(header(fixed.headers(), "__utf8.action")).isEqualTo("replaced");
                assertThat(header(fixed.headers(), "__utf8.errors")).isNotNull();
                assertThat(predicate.test(fixed)).as(name).isTrue();
            }
        }
    }

    @Test
    void repairAloneSaysRepaired() throws Exception {
        byte[] value = framed(corrupt(order("o-6", "AAAAAA"), "AAAAAA", CESU8_GRINNING));
        try (Utf8Sanitise<SinkRecord> smt =
                configured(new Utf8Sanitise.Value<>(), Map.of("sanitiser.policy", "repair"))) {
            SinkRecord fixed = smt.apply(sink(Schema.BYTES_SCHEMA, value));

            DynamicMessage line =
                    (DynamicMessage) parse((byte[]) fixed.value()).getRepeatedField(ORDER.findFieldByName("lines"), 1);
            assertThat(line.getField(LINE.findFieldByName("sku"))).isEqualTo("\uD83D\uDE00");
            assertThat(header(fixed.headers(), "__utf8.action")).isEqualTo("repaired");
        }
    }

    @Test
    void bytesFieldsAreNotTextAndAMessageCutShortIsMalformed() {
        byte[] binary = framed(corrupt(order("o-4", "sku"), "RAW!", 0xFF, 0xFE, 0xC0, 0x80));
        byte[] whole = order("o-5", "sku");
        byte[] cut = framed(Arrays.copyOf(whole, whole.length - 3));
        try (Utf8Sanitise<SinkRecord> fail = configured(new Utf8Sanitise.Value<>(), Map.of());
                IsWellFormedUtf8<SinkRecord> predicate = configured(new IsWellFormedUtf8<>(), Map.of())) {
            assertThat(parses(binary)).isTrue();
            assertThat(predicate.test(sink(Schema.BYTES_SCHEMA, binary))).isTrue();
            assertThat((byte[]) fail.apply(sink(Schema.BYTES_SCHEMA, binary)).value())
                    .isSameAs(binary);

            assertThat(predicate.test(sink(Schema.BYTES_SCHEMA, cut))).isFalse();
            assertThatThrownBy(() -> fail.apply(sink(Schema.BYTES_SCHEMA, cut)))
                    .isInstanceOf(DataException.class)
                    .hasMessageStartingWith("MALFORMED_PROTOBUF at value");
            assertThatThrownBy(() -> fail.apply(sink(Schema.BYTES_SCHEMA, utf8("{\"id\":1}"))))
                    .hasMessageStartingWith("NOT_PROTOBUF at value byte 0");
        }
    }

    private static <T> T configured(T plugin, Map<String, Object> more) {
        Map<String, Object> props = new HashMap<>(more);
        props.put("sanitiser.payload.format", "protobuf");
        props.put("schema.registry.url", registry.url());
        if (plugin instanceof Utf8Sanitise<?> smt) {
            smt.configure(props);
        } else {
            ((IsWellFormedUtf8<?>) plugin).configure(props);
        }
        return plugin;
    }

    /**
     * An order with two lines (the second's sku {@code sku}), a tag {@code color=caf!} and the raw
     * bytes {@code RAW!}, written by protobuf-java; ill-formed strings are made in place afterwards.
     */
    private static byte[] order(String id, String sku) {
        Descriptor tags = ORDER.findFieldByName("tags").getMessageType();
        return DynamicMessage.newBuilder(ORDER)
                .setField(ORDER.findFieldByName("id"), id)
                .addRepeatedField(ORDER.findFieldByName("lines"), line("first", 1))
                .addRepeatedField(ORDER.findFieldByName("lines"), line(sku, 2))
                .addRepeatedField(
                        ORDER.findFieldByName("tags"),
                        DynamicMessage.newBuilder(tags)
                                .setField(tags.findFieldByName("key"), "color")
                                .setField(tags.findFieldByName("value"), "caf!")
                                .build())
                .setField(ORDER.findFieldByName("raw"), com.google.protobuf.ByteString.copyFrom(utf8("RAW!")))
                .build()
                .toByteArray();
    }

    private static DynamicMessage line(String sku, int quantity) {
        return DynamicMessage.newBuilder(LINE)
                .setField(LINE.findFieldByName("sku"), sku)
                .setField(LINE.findFieldByName("quantity"), quantity)
                .build();
    }

    private static Map<String, String> tags(DynamicMessage order) {
        Descriptor entry = ORDER.findFieldByName("tags").getMessageType();
        Map<String, String> tags = new HashMap<>();
        for (Object e : (List<?>) order.getField(ORDER.findFieldByName("tags"))) {
            DynamicMessage m = (DynamicMessage) e;
            tags.put((String) m.getField(entry.findFieldByName("key")), (String)
                    m.getField(entry.findFieldByName("value")));
        }
        return tags;
    }

    /** Confluent's framing for message indexes [1]: the second message of the file. */
    private static byte[] framed(byte[] message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(WireFormat.prefix(id));
        out.writeBytes(MessageIndexes.encode(1));
        out.writeBytes(message);
        return out.toByteArray();
    }

    private static DynamicMessage parse(byte[] framed) throws InvalidProtocolBufferException {
        int end = MessageIndexes.read(framed, WireFormat.PREFIX_LENGTH).end();
        return DynamicMessage.parseFrom(ORDER, Arrays.copyOfRange(framed, end, framed.length));
    }

    private static boolean parses(byte[] framed) {
        try {
            parse(framed);
            return true;
        } catch (InvalidProtocolBufferException e) {
            assertThat(e).hasMessageContaining("invalid UTF-8");
            return false;
        }
    }

    /** The core's own fix of those bytes: what the string must read as after the SMT. */
    private static String fixedText(Policy policy, int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return new String(Utf8Sanitiser.sanitise(b, policy).output(), UTF_8);
    }

    /** {@code bytes} with the only occurrence of {@code marker} overwritten by as many bytes. */
    private static byte[] corrupt(byte[] bytes, String marker, int... replacement) {
        byte[] needle = marker.getBytes(UTF_8);
        assertThat(needle).hasSameSizeAs(replacement);
        int at = indexOf(bytes, needle);
        assertThat(at).as("marker %s", marker).isNotNegative();
        byte[] out = bytes.clone();
        for (int i = 0; i < replacement.length; i++) {
            out[at + i] = (byte) replacement[i];
        }
        return out;
    }

    private static int indexOf(byte[] bytes, byte[] needle) {
        for (int i = 0; i <= bytes.length - needle.length; i++) {
            if (Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    private static Descriptor orderDescriptor() {
        try {
            DescriptorProto line = DescriptorProto.newBuilder()
                    .setName("Line")
                    .addField(field("sku", 1, FieldDescriptorProto.Type.TYPE_STRING))
                    .addField(field("quantity", 2, FieldDescriptorProto.Type.TYPE_INT32))
                    .build();
            DescriptorProto tagsEntry = DescriptorProto.newBuilder()
                    .setName("TagsEntry")
                    .setOptions(MessageOptions.newBuilder().setMapEntry(true))
                    .addField(field("key", 1, FieldDescriptorProto.Type.TYPE_STRING))
                    .addField(field("value", 2, FieldDescriptorProto.Type.TYPE_STRING))
                    .build();
            FileDescriptor file = FileDescriptor.buildFrom(
                    FileDescriptorProto.newBuilder()
                            .setName("orders.proto")
                            .setPackage("shop")
                            .setSyntax("proto3")
                            .addMessageType(DescriptorProto.newBuilder()
                                    .setName("Ping")
                                    .addField(field("id", 1, FieldDescriptorProto.Type.TYPE_STRING)))
                            .addMessageType(DescriptorProto.newBuilder()
                                    .setName("Order")
                                    .addField(field("id", 1, FieldDescriptorProto.Type.TYPE_STRING))
                                    .addField(field("lines", 2, FieldDescriptorProto.Type.TYPE_MESSAGE)
                                            .setTypeName(".shop.Order.Line")
                                            .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED))
                                    .addField(field("tags", 3, FieldDescriptorProto.Type.TYPE_MESSAGE)
                                            .setTypeName(".shop.Order.TagsEntry")
                                            .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED))
                                    .addField(field("raw", 4, FieldDescriptorProto.Type.TYPE_BYTES))
                                    .addNestedType(line)
                                    .addNestedType(tagsEntry))
                            .build(),
                    new FileDescriptor[0]);
            return file.findMessageTypeByName("Order");
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
}
