package dev.utf8sanitiser.serdes.protobuf;

import static dev.utf8sanitiser.serdes.protobuf.ProtobufData.corrupt;
import static dev.utf8sanitiser.serdes.protobuf.ProtobufData.framed;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.ExtensionRegistry;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.TextFormat;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.registry.ProtobufSchemaText;
import dev.utf8sanitiser.serdes.avro.MapSchemaRegistry;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class ProtobufFormatTest {
    private static final FileDescriptor ORDERS = ProtobufData.file(ProtobufData.ORDERS);
    private static final Descriptor ORDER = ORDERS.findMessageTypeByName("Order");
    private static final FileDescriptor LEGACY = ProtobufData.file(ProtobufData.LEGACY);
    private static final Descriptor NOTE = LEGACY.findMessageTypeByName("Note");

    private final MapSchemaRegistry registry = new MapSchemaRegistry()
            .withProtobuf(1, new ProtobufSchemaText(ProtobufData.ORDERS, Map.of()))
            .withProtobuf(2, new ProtobufSchemaText(ProtobufData.LEGACY, Map.of()))
            .withOther(3, "JSON");

    private Decision<RecordParts> decide(Policy policy, byte[] value) {
        return decide(policy, value, false);
    }

    private Decision<RecordParts> decide(Policy policy, byte[] value, boolean checkAll) {
        return new RecordSanitiser(
                        policy, ContentPolicy.none(), new ProtobufFormat(registry, checkAll), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    private static byte[] order(String text) throws IOException {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(ORDER);
        TextFormat.merge(text, builder);
        return builder.build().toByteArray();
    }

    private static Decision.DeadLetter<?> deadLetter(Decision<RecordParts> decision) {
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        return (Decision.DeadLetter<?>) decision;
    }

    @Test
    void passesAWellFormedOrderAsItCame() throws IOException {
        byte[] value = framed(
                1,
                order("id: 'o-1' customer { name: 'Zoë' address { city: 'Łódź' } }"
                        + " lines { sku: 'a' price: 1.5 } tags { key: 'k' value: 'v' } quantities: [1, 2, 300]"
                        + " by_number { key: 7 value { name: 'n' } } card: 'c' labels: 'x'"));
        assertThat(decide(Policy.STRICT, value)).isInstanceOf(Decision.Pass.class);
    }

    @Test
    void namesTheNestedFieldAndCountsTheOffsetFromTheMagicByte() throws Exception {
        byte[] value = framed(1, corrupt(order("customer { address { city: 'B~~~n' } }"), "~~~", 0xED, 0xA0, 0x80));
        assertThatThrownBy(() -> ProtobufData.parse(ORDER, value)).isInstanceOf(InvalidProtocolBufferException.class);

        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.STRICT, value));

        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.SURROGATE);
        assertThat(dead.first().field()).contains("customer.address.city");
        int expected = ProtobufData.indexOf(value, new byte[] {(byte) 0xED, (byte) 0xA0}, 0);
        assertThat(dead.first().offset()).isEqualTo(expected);
        // prefix 5, index 1, tag+len of customer 2, of address 2, of city 2, 'B'
        assertThat(expected).isEqualTo(5 + 1 + 2 + 2 + 2 + 1);
    }

    @Test
    void indexesRepeatedMessagesByTheirPlaceInTheList() throws Exception {
        byte[] message =
                corrupt(order("lines { sku: 'ok' } note: 'between' lines { sku: 'b~d' } labels: 'a'"), "~", 0xFF);
        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.STRICT, framed(1, message)));
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
        assertThat(dead.first().field()).contains("lines[1].sku");

        byte[] labels = corrupt(order("labels: 'a' lines { sku: 'x' } labels: 'b' labels: 'c~'"), "~", 0xC3);
        assertThat(deadLetter(decide(Policy.STRICT, framed(1, labels))).first().field())
                .contains("labels[2]");
    }

    @Test
    void namesAMapValueByItsKeyAndABadKeyAsTheKey() throws Exception {
        byte[] badValue = corrupt(order("tags { key: 'color' value: 're~' }"), "~", 0xFF);
        assertThat(deadLetter(decide(Policy.STRICT, framed(1, badValue)))
                        .first()
                        .field())
                .contains("tags{color}");

        byte[] badKey = corrupt(order("tags { key: 'co~or' value: 'red' }"), "~", 0xFF);
        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.STRICT, framed(1, badKey)));
        assertThat(dead.first().field()).contains("tags{}");
        assertThatThrownBy(() -> ProtobufData.parse(ORDER, framed(1, badKey)))
                .isInstanceOf(InvalidProtocolBufferException.class);

        byte[] underIntKey = corrupt(order("by_number { key: -5 value { name: 'n~' } }"), "~", 0xFF);
        assertThat(deadLetter(decide(Policy.STRICT, framed(1, underIntKey)))
                        .first()
                        .field())
                .contains("by_number{-5}.name");
    }

    @Test
    void readsPastPackedRepeatedFieldsNextToStrings() throws Exception {
        byte[] value =
                framed(1, corrupt(order("quantities: [1, 300, 70000, 2] note: 'n~' quantities: [5]"), "~", 0xFF));
        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.STRICT, value));
        assertThat(dead.first().field()).contains("note");
        assertThat(dead.first().offset()).isEqualTo(ProtobufData.indexOf(value, new byte[] {'n', (byte) 0xFF}, 6) + 1);
    }

    @Test
    void leavesUnknownFieldsAsTheyAre() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeByteArray(99, new byte[] {'x', (byte) 0xFF}); // unknown: never a string
        out.writeUInt64(1, 5); // the string field id, as a varint: an unknown field too
        out.writeTag(98, 3); // an unknown group holding ill-formed bytes
        out.writeByteArray(1, new byte[] {(byte) 0xFF});
        out.writeTag(98, 4);
        out.writeString(6, "fine");
        out.flush();
        byte[] value = framed(1, bytes.toByteArray());
        assertThat(ProtobufData.parse(ORDER, value).getUnknownFields().asMap()).containsOnlyKeys(1, 98, 99);

        assertThat(decide(Policy.STRICT, value)).isInstanceOf(Decision.Pass.class);
        assertThat(decide(Policy.REPLACE, value)).isInstanceOf(Decision.Pass.class);
    }

    @Test
    void followsTheMessageIndexesIntoANestedType() throws Exception {
        // [1, 0]: the file's second message (Customer), then its first nested one (Address).
        byte[] address = corrupt(
                DynamicMessage.newBuilder(ORDERS.findMessageTypeByName("Customer")
                                .getNestedTypes()
                                .get(0))
                        .setField(
                                ORDERS.findMessageTypeByName("Customer")
                                        .getNestedTypes()
                                        .get(0)
                                        .findFieldByName("city"),
                                "Pa~s")
                        .build()
                        .toByteArray(),
                "~",
                0xFF);
        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.STRICT, framed(1, address, 1, 0)));
        assertThat(dead.first().field()).contains("city");
        assertThat(dead.first().offset()).isEqualTo(5 + 3 + 2 + 2);

        // Read as the file's first message (an Order), the same bytes are a well-formed id.
        byte[] asOrder = framed(1, new byte[] {0x0A, 2, 'o', 'k'}, 0);
        assertThat(decide(Policy.STRICT, asOrder)).isInstanceOf(Decision.Pass.class);

        Decision.DeadLetter<?> noSuchType = deadLetter(decide(Policy.STRICT, framed(1, address, 1, 5)));
        assertThat(noSuchType.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
        assertThat(noSuchType.first().offset()).isEqualTo(5);
    }

    @Test
    void replacesInPlaceAndRewritesEveryEnclosingLength() throws Exception {
        // A city of 125 bytes: address is 127 bytes long, a one-byte length; each replacement of the
        // one bad byte by U+FFFD adds two, so address and customer need two-byte lengths.
        String city = "x".repeat(120) + "~~a~b";
        byte[] message = ProtobufData.corruptAll(
                order("id: 'i~' customer { name: 'n' address { city: '" + city + "' } } tags { key: 'k~' value: 'v' }"),
                '~',
                0xFF);
        byte[] original = framed(1, message);
        assertThat(original).hasSizeGreaterThan(130);

        Decision<RecordParts> decision = decide(Policy.REPLACE, original);
        assertThat(decision).isInstanceOf(Decision.Changed.class);
        byte[] fixed = ((Decision.Changed<RecordParts>) decision).fixed().value();

        assertThat(Arrays.copyOf(fixed, 6)).isEqualTo(Arrays.copyOf(original, 6));
        DynamicMessage read = ProtobufData.parse(ORDER, fixed);
        assertThat(read.getField(ORDER.findFieldByName("id"))).isEqualTo(replaced(new byte[] {'i', (byte) 0xFF}));
        DynamicMessage customer = (DynamicMessage) read.getField(ORDER.findFieldByName("customer"));
        DynamicMessage address = (DynamicMessage)
                customer.getField(customer.getDescriptorForType().findFieldByName("address"));
        byte[] cityBytes = ProtobufData.corruptAll(city.getBytes(UTF_8), '~', 0xFF);
        assertThat(address.getField(address.getDescriptorForType().findFieldByName("city")))
                .isEqualTo(replaced(cityBytes));
        assertThat(((DynamicMessage) ((List<?>) read.getField(ORDER.findFieldByName("tags"))).get(0))
                        .getField(ORDER.findFieldByName("tags").getMessageType().findFieldByName("key")))
                .isEqualTo(replaced(new byte[] {'k', (byte) 0xFF}));
        assertThat(decide(Policy.STRICT, fixed)).isInstanceOf(Decision.Pass.class);
    }

    @Test
    void repairsCesu8InsideAMessage() throws Exception {
        // U+1F600 as CESU-8: ED A0 BD ED B8 80.
        byte[] message = corrupt(order("customer { name: 'a~~~~~~b' }"), "~~~~~~", 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80);
        Decision<RecordParts> decision = decide(Policy.REPAIR, framed(1, message));
        byte[] fixed = ((Decision.Changed<RecordParts>) decision).fixed().value();
        DynamicMessage customer =
                (DynamicMessage) ProtobufData.parse(ORDER, fixed).getField(ORDER.findFieldByName("customer"));
        assertThat(customer.getField(customer.getDescriptorForType().findFieldByName("name")))
                .isEqualTo("a\uD83D\uDE00b");
    }

    @Test
    void checksProto2StringsOnlyWhereProtobufDoesOrWhenAskedToCheckAll() throws Exception {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(NOTE);
        TextFormat.merge("text: 'a~' raw: 'r~' item { label: 'l~' } [legacy.remark]: 'm~'", extensions(), builder);
        byte[] text = corrupt(builder.build().toByteArray(), "a~", 'a', 0xFF);
        byte[] label = corrupt(builder.build().toByteArray(), "l~", 'l', 0xFF);
        byte[] remark = corrupt(builder.build().toByteArray(), "m~", 'm', 0xFF);
        byte[] raw = corrupt(builder.build().toByteArray(), "r~", 'r', 0xFF);

        for (byte[] message : List.of(text, label, remark, raw)) {
            assertThat(decide(Policy.STRICT, framed(2, message))).isInstanceOf(Decision.Pass.class);
            DynamicMessage.parseFrom(NOTE, message, extensions()); // protobuf-java leaves proto2 strings unchecked
        }
        assertThat(deadLetter(decide(Policy.STRICT, framed(2, text), true))
                        .first()
                        .field())
                .contains("text");
        assertThat(deadLetter(decide(Policy.STRICT, framed(2, label), true))
                        .first()
                        .field())
                .contains("item[0].label");
        assertThat(deadLetter(decide(Policy.STRICT, framed(2, remark), true))
                        .first()
                        .field())
                .contains("[legacy.remark]");
        assertThat(decide(Policy.STRICT, framed(2, raw), true)).isInstanceOf(Decision.Pass.class);
    }

    @Test
    void checksProto2StringsUnderJavaStringCheckUtf8() throws Exception {
        String proto = ProtobufData.LEGACY.replace(
                "package legacy;", "package legacy;\noption java_string_check_utf8 = true;");
        registry.withProtobuf(4, new ProtobufSchemaText(proto, Map.of()));
        Descriptor note = ProtobufData.file(proto).findMessageTypeByName("Note");
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(note);
        TextFormat.merge("text: 'a~'", builder);
        byte[] message = corrupt(builder.build().toByteArray(), "~", 0xFF);
        assertThatThrownBy(() -> DynamicMessage.parseFrom(note, message))
                .isInstanceOf(InvalidProtocolBufferException.class);
        assertThat(deadLetter(decide(Policy.STRICT, framed(4, message))).first().field())
                .contains("text");
    }

    @Test
    void malformedMessagesAreTheirOwnVerdict() throws Exception {
        byte[] whole = order("id: 'abc' customer { name: 'n' }");
        for (int cut = 1; cut < whole.length; cut++) {
            byte[] value = framed(1, Arrays.copyOf(whole, cut));
            boolean parses = parses(ORDER, value);
            Decision<RecordParts> decision = decide(Policy.STRICT, value);
            if (parses) {
                assertThat(decision).as("cut at %d", cut).isInstanceOf(Decision.Pass.class);
            } else {
                assertThat(deadLetter(decision).first().rule())
                        .as("cut at %d", cut)
                        .isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
            }
        }
        Decision.DeadLetter<?> endGroup = deadLetter(decide(Policy.STRICT, framed(1, new byte[] {0x0C})));
        assertThat(endGroup.first().rule()).isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
        assertThat(endGroup.first().offset()).isEqualTo(6);
    }

    @Test
    void refusesMessagesNestedPastProtobufsLimitAsProtobufDoes() throws Exception {
        String proto = "syntax = \"proto3\"; message R { R next = 1; string s = 2; }";
        registry.withProtobuf(5, new ProtobufSchemaText(proto, Map.of()));
        Descriptor r = ProtobufData.file(proto).findMessageTypeByName("R");
        for (int depth : new int[] {99, 100, 101, 5000}) {
            byte[] message = {0x12, 1, 's'};
            for (int i = 0; i < depth; i++) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                CodedOutputStream coded = CodedOutputStream.newInstance(out);
                coded.writeByteArray(1, message);
                coded.flush();
                message = out.toByteArray();
            }
            byte[] value = framed(5, message);
            boolean parses = parses(r, value);
            assertThat(parses).as("depth %d", depth).isEqualTo(depth <= ProtobufWalker.MAX_DEPTH);
            Decision<RecordParts> decision = decide(Policy.STRICT, value);
            if (parses) {
                assertThat(decision).isInstanceOf(Decision.Pass.class);
            } else {
                assertThat(deadLetter(decision).first().rule()).isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
            }
        }
    }

    /**
     * protobuf-java reads 64-bit varints (int64, uint64, sint64, bool) with a fast path that takes a
     * tenth byte with its high bit set when its low bit is set; 32-bit ones and tags must end by
     * the tenth byte. The walk accepts exactly what protobuf-java parses, packed runs included.
     */
    @Test
    void acceptsTenByteVarintsExactlyAsProtobufJavaDoes() throws Exception {
        for (int tenth : new int[] {0x00, 0x7F, 0x80, 0x81, 0xC3, 0xFE, 0xFF}) {
            byte[] varint = new byte[10];
            Arrays.fill(varint, (byte) 0xFF);
            varint[9] = (byte) tenth;
            ByteArrayOutputStream voucher = new ByteArrayOutputStream();
            voucher.write(9 << 3); // int64 voucher, then a string after it
            voucher.writeBytes(varint);
            voucher.writeBytes(order("note: 'n'"));
            ByteArrayOutputStream quantity = new ByteArrayOutputStream();
            quantity.write(5 << 3); // int32 quantities, one unpacked element
            quantity.writeBytes(varint);
            quantity.writeBytes(order("note: 'n'"));
            for (byte[] message : List.of(voucher.toByteArray(), quantity.toByteArray())) {
                byte[] value = framed(1, message);
                boolean parses = parses(ORDER, value);
                assertThat(decide(Policy.STRICT, value) instanceof Decision.Pass)
                        .as("tenth byte %02X of %s", tenth, HexFormat.of().formatHex(message))
                        .isEqualTo(parses);
                if (!parses) {
                    assertThat(deadLetter(decide(Policy.STRICT, value)).rule())
                            .isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
                }
            }
        }
        // The case the agreement property met: a packed sint64 run whose second element's tenth
        // byte is C3, in a message of its own.
        FileDescriptor packed =
                ProtobufData.file("syntax = \"proto3\"; message P { repeated sint64 s = 3; string t = 4; }");
        Descriptor type = packed.findMessageTypeByName("P");
        byte[] message = HexFormat.of().parseHex("1a1c9ce5b8ce9fc7b795cd01ed8fa3eabba684c2e2c3adee8b96b0eef411220161");
        byte[] value = framed(1, message);
        assertThat(parses(type, value)).isTrue();
        Decision<RecordParts> decision = new RecordSanitiser(
                        Policy.STRICT, ContentPolicy.none(), new ProtobufFormat(id -> packed, false), false, List.of())
                .decide(null, value, new RecordHeaders());
        assertThat(decision).isInstanceOf(Decision.Pass.class);
    }

    @Test
    void refusesHostileLengthsAndVarints() {
        // A length of 2^31 - 1 for the id, a ten-byte varint that never ends, a negative length.
        byte[][] hostile = {
            {0x0A, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 'x'},
            {
                0x28,
                (byte) 0x80,
                (byte) 0x80,
                (byte) 0x80,
                (byte) 0x80,
                (byte) 0x80,
                (byte) 0x80,
                (byte) 0x80,
                (byte) 0x80,
                (byte) 0x80,
                (byte) 0x80,
                0x01
            },
            {0x0A, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 'x'},
            {0x07},
            {0x00},
        };
        for (byte[] message : hostile) {
            byte[] value = framed(1, message);
            assertThat(parses(ORDER, value)).isFalse();
            assertThat(deadLetter(decide(Policy.STRICT, value)).first().rule())
                    .isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
        }
    }

    @Test
    void recordLevelVerdicts() {
        assertThat(deadLetter(decide(Policy.STRICT, new byte[] {0, 0, 0}))
                        .first()
                        .rule())
                .isEqualTo(DeadLetterRule.NOT_PROTOBUF);
        assertThat(deadLetter(decide(Policy.STRICT, framed(3, new byte[0])))
                        .first()
                        .rule())
                .isEqualTo(DeadLetterRule.NOT_PROTOBUF);
        assertThat(deadLetter(decide(Policy.STRICT, framed(9, new byte[0])))
                        .first()
                        .rule())
                .isEqualTo(DeadLetterRule.UNKNOWN_SCHEMA);
        registry.withProtobuf(6, new ProtobufSchemaText("syntax = \"proto3\"; message A { Missing m = 1; }", Map.of()));
        assertThat(deadLetter(decide(Policy.STRICT, framed(6, new byte[0])))
                        .first()
                        .rule())
                .isEqualTo(DeadLetterRule.UNUSABLE_SCHEMA);
        byte[] badIndexes = Arrays.copyOf(WireFormat.prefix(1), 6);
        badIndexes[5] = (byte) 0x80;
        assertThat(deadLetter(decide(Policy.STRICT, badIndexes)).first().rule())
                .isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
    }

    @Test
    void resolvesImportsFromReferencesAndTheWellKnownTypes() throws Exception {
        String common = "syntax = \"proto3\"; package common; message Money { string currency = 1; }";
        String invoice = "syntax = \"proto3\"; package billing; import \"common/money.proto\";"
                + " import \"google/protobuf/timestamp.proto\";"
                + " message Invoice { common.Money total = 1; google.protobuf.Timestamp at = 2; }";
        registry.withProtobuf(7, new ProtobufSchemaText(invoice, Map.of("common/money.proto", common)));
        FileDescriptor file =
                ProtoFiles.descriptor(7, new ProtobufSchemaText(invoice, Map.of("common/money.proto", common)));
        Descriptor type = file.findMessageTypeByName("Invoice");
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
        TextFormat.merge("total { currency: 'E~R' } at { seconds: 5 }", builder);
        byte[] message = corrupt(builder.build().toByteArray(), "~", 0xFF);
        assertThat(deadLetter(decide(Policy.STRICT, framed(7, message))).first().field())
                .contains("total.currency");

        registry.withProtobuf(8, new ProtobufSchemaText(invoice, Map.of()));
        assertThat(deadLetter(decide(Policy.STRICT, framed(8, message))).first().rule())
                .isEqualTo(DeadLetterRule.UNUSABLE_SCHEMA);
    }

    /**
     * wire-schema cannot parse editions: such a schema, or one importing such a file, is unusable,
     * and the dead-letter message says why; a field merely named {@code edition} is no edition.
     */
    @Test
    void anEditionsSchemaIsUnusableAndTheMessageSaysWhy() throws Exception {
        String editions = "// orders in editions\n/* since 2024 */ edition = \"2023\";\npackage e;\n"
                + "message A { string s = 1; string t = 2 [features.utf8_validation = NONE]; }";
        registry.withProtobuf(10, new ProtobufSchemaText(editions, Map.of()));
        Decision.DeadLetter<?> dead = deadLetter(decide(Policy.STRICT, framed(10, new byte[0])));
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.UNUSABLE_SCHEMA);
        assertThat(DeadLetterAnnotation.message(dead.first()))
                .isEqualTo("UNUSABLE_SCHEMA at value byte 1 (00 00 00 0A); Schema id 10 declares edition \"2023\":"
                        + " Protobuf editions are not supported, only syntax proto2 and proto3");
        // The verdict is kept: a second record of the id gets it again.
        assertThat(deadLetter(decide(Policy.REPLACE, framed(10, new byte[] {10, 1, 'x'})))
                        .first()
                        .detail())
                .hasValueSatisfying(d -> assertThat(d).contains("declares edition \"2023\""));

        String importer = "syntax = \"proto3\"; import \"e.proto\"; message B { e.A a = 1; }";
        registry.withProtobuf(11, new ProtobufSchemaText(importer, Map.of("e.proto", editions)));
        assertThat(deadLetter(decide(Policy.STRICT, framed(11, new byte[0])))
                        .first()
                        .detail())
                .contains("Schema id 11 declares edition \"2023\" (imported as e.proto): Protobuf editions are not"
                        + " supported, only syntax proto2 and proto3");

        String named = "syntax = \"proto3\";\nmessage C { string edition = 1; }";
        registry.withProtobuf(12, new ProtobufSchemaText(named, Map.of()));
        assertThat(decide(Policy.STRICT, framed(12, new byte[] {10, 1, 'x'}))).isInstanceOf(Decision.Pass.class);
    }

    private static String replaced(byte[] bytes) {
        return new String(Utf8Sanitiser.sanitise(bytes, Policy.REPLACE).output(), UTF_8);
    }

    private static boolean parses(Descriptor type, byte[] framed) {
        try {
            ProtobufData.parse(type, framed);
            return true;
        } catch (InvalidProtocolBufferException e) {
            return false;
        }
    }

    private static ExtensionRegistry extensions() {
        ExtensionRegistry registry = ExtensionRegistry.newInstance();
        registry.add(LEGACY.findExtensionByName("remark"));
        return registry;
    }
}
