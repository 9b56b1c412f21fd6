package dev.utf8sanitiser.app.cli;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * The demo's Protobuf traffic: orders of a small proto3 schema (a nested message, a repeated
 * message, a map) in Confluent's wire format, some with ill-formed bytes inside a string, as a
 * producer that writes a {@code string} field from raw bytes sends them. Each order is written
 * field by field, as protobuf's own writer lays it out; protobuf-java's {@code DynamicMessage},
 * with a descriptor built here by hand, is the reader the demo shows refusing the damaged ones.
 */
final class DemoProtoOrders {
    /** The schema registered as {@code PROTOBUF}; {@link #ORDER} is the same, built by hand. */
    static final String SCHEMA =
            """
            syntax = "proto3";
            package demo;

            message Order {
              string id = 1;
              Customer customer = 2;
              repeated Line lines = 3;
              map<string, string> tags = 4;

              message Customer {
                string name = 1;
                string city = 2;
              }

              message Line {
                string sku = 1;
                int32 quantity = 2;
              }
            }
            """;

    static final Descriptor ORDER = orderDescriptor();

    /** One record, and the field the demo damaged (empty for none). */
    record Sample(String label, byte[] value, String damaged) {}

    private DemoProtoOrders() {}

    static List<Sample> samples(int schemaId) {
        byte[] plain = order(utf8("Zoë"), utf8("Lyon"), utf8("SKU-2"), utf8("gift"));
        return List.of(
                new Sample("well-formed order", framed(schemaId, plain), ""),
                new Sample(
                        "well-formed order, every script",
                        framed(schemaId, order(utf8("Ólafur"), utf8("東京都 Zürich"), utf8("SKU-2"), utf8("naïve"))),
                        ""),
                new Sample(
                        "CESU-8 city (a database export)",
                        framed(
                                schemaId,
                                order(
                                        utf8("Ann"),
                                        bytes("M", 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, "nchen"),
                                        utf8("SKU-2"),
                                        utf8("gift"))),
                        "customer.city"),
                new Sample(
                        "overlong '/' in a line's sku",
                        framed(
                                schemaId,
                                order(utf8("Ann"), utf8("Lyon"), bytes("..", 0xC0, 0xAF, "etc"), utf8("gift"))),
                        "lines[1].sku"),
                new Sample(
                        "Latin-1 'é' in a tag value",
                        framed(schemaId, order(utf8("Ann"), utf8("Lyon"), utf8("SKU-2"), bytes("caf", 0xE9))),
                        "tags{note}"),
                new Sample("JSON sent to a Protobuf topic", utf8("{\"id\":\"1042\"}"), ""),
                new Sample("an id the registry never gave", framed(schemaId + 100, plain), ""),
                new Sample("cut short in transit", cut(framed(schemaId, plain)), ""));
    }

    /**
     * What protobuf-java makes of a record: the message it parses, or its refusal. The sanitiser
     * names the field and the byte; protobuf-java says only that something was wrong.
     */
    static String protobufRead(byte[] value) {
        try {
            DynamicMessage.parseFrom(ORDER, Arrays.copyOfRange(value, 6, value.length));
            return "parses it";
        } catch (InvalidProtocolBufferException e) {
            return "refuses it: \"" + e.getMessage() + "\"";
        }
    }

    /** Order {@code o-1} for {@code name} of {@code city}, lines {@code SKU-1} and {@code sku}, tag note. */
    private static byte[] order(byte[] name, byte[] city, byte[] sku, byte[] note) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.writeBytes(1, ByteString.copyFromUtf8("o-1"));
            out.writeBytes(2, message(w -> {
                w.writeBytes(1, ByteString.copyFrom(name));
                w.writeBytes(2, ByteString.copyFrom(city));
            }));
            out.writeBytes(3, line(utf8("SKU-1"), 1));
            out.writeBytes(3, line(sku, 2));
            out.writeBytes(4, message(w -> {
                w.writeBytes(1, ByteString.copyFromUtf8("note"));
                w.writeBytes(2, ByteString.copyFrom(note));
            }));
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ByteString line(byte[] sku, int quantity) throws IOException {
        return message(w -> {
            w.writeBytes(1, ByteString.copyFrom(sku));
            w.writeInt32(2, quantity);
        });
    }

    private interface Fields {
        void write(CodedOutputStream out) throws IOException;
    }

    private static ByteString message(Fields fields) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        fields.write(out);
        out.flush();
        return ByteString.copyFrom(bytes.toByteArray());
    }

    /** Confluent's framing: magic byte, schema id, message indexes [0] (the single byte 0). */
    private static byte[] framed(int schemaId, byte[] message) {
        byte[] value = Arrays.copyOf(WireFormat.prefix(schemaId), 6 + message.length);
        System.arraycopy(message, 0, value, 6, message.length);
        return value;
    }

    private static byte[] cut(byte[] value) {
        return Arrays.copyOf(value, value.length - 3);
    }

    private static Descriptor orderDescriptor() {
        DescriptorProto customer = DescriptorProto.newBuilder()
                .setName("Customer")
                .addField(field("name", 1, FieldDescriptorProto.Type.TYPE_STRING))
                .addField(field("city", 2, FieldDescriptorProto.Type.TYPE_STRING))
                .build();
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
        DescriptorProto order = DescriptorProto.newBuilder()
                .setName("Order")
                .addField(field("id", 1, FieldDescriptorProto.Type.TYPE_STRING))
                .addField(field("customer", 2, FieldDescriptorProto.Type.TYPE_MESSAGE)
                        .setTypeName(".demo.Order.Customer"))
                .addField(field("lines", 3, FieldDescriptorProto.Type.TYPE_MESSAGE)
                        .setTypeName(".demo.Order.Line")
                        .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED))
                .addField(field("tags", 4, FieldDescriptorProto.Type.TYPE_MESSAGE)
                        .setTypeName(".demo.Order.TagsEntry")
                        .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED))
                .addNestedType(customer)
                .addNestedType(line)
                .addNestedType(tagsEntry)
                .build();
        try {
            return FileDescriptor.buildFrom(
                            FileDescriptorProto.newBuilder()
                                    .setName("demo/order.proto")
                                    .setPackage("demo")
                                    .setSyntax("proto3")
                                    .addMessageType(order)
                                    .build(),
                            new FileDescriptor[0])
                    .findMessageTypeByName("Order");
        } catch (DescriptorValidationException e) {
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

    private static byte[] utf8(String s) {
        return DemoOrders.utf8(s);
    }

    private static byte[] bytes(Object... parts) {
        return DemoOrders.bytes(parts);
    }
}
