package dev.utf8sanitiser.serdes.protobuf;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.utf8sanitiser.registry.ProtobufSchemaText;
import dev.utf8sanitiser.serdes.framing.MessageIndexes;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;

/** Test schemas and values: .proto texts, framed messages, strings made ill-formed in place. */
final class ProtobufData {
    static final String ORDERS =
            """
            syntax = "proto3";
            package shop;

            message Order {
              string id = 1;
              Customer customer = 2;
              repeated Line lines = 3;
              map<string, string> tags = 4;
              repeated int32 quantities = 5;
              string note = 6;
              map<int32, Customer> by_number = 7;
              oneof payment {
                string card = 8;
                int64 voucher = 9;
              }
              repeated string labels = 10;

              message Line {
                string sku = 1;
                double price = 2;
              }
            }

            message Customer {
              string name = 1;
              Address address = 2;

              message Address {
                string city = 1;
              }
            }
            """;

    static final String LEGACY =
            """
            syntax = "proto2";
            package legacy;

            message Note {
              optional string text = 1;
              optional bytes raw = 2;
              repeated group Item = 3 {
                optional string label = 4;
              }
              extensions 100 to 199;
            }

            extend Note {
              optional string remark = 100;
            }
            """;

    private ProtobufData() {}

    static FileDescriptor file(String proto) {
        return ProtoFiles.descriptor(1, new ProtobufSchemaText(proto, Map.of()));
    }

    /** The message, framed under {@code id} for the message indexes {@code path}. */
    static byte[] framed(int id, byte[] message, int... path) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(WireFormat.prefix(id));
        out.writeBytes(MessageIndexes.encode(path.length == 0 ? new int[] {0} : path));
        out.writeBytes(message);
        return out.toByteArray();
    }

    /** {@code bytes} with the only occurrence of {@code marker}'s UTF-8 overwritten by {@code replacement}, of one length. */
    static byte[] corrupt(byte[] bytes, String marker, int... replacement) {
        byte[] needle = marker.getBytes(UTF_8);
        if (needle.length != replacement.length) {
            throw new IllegalArgumentException("the marker and its replacement differ in length");
        }
        int at = indexOf(bytes, needle, 0);
        if (at < 0 || indexOf(bytes, needle, at + 1) >= 0) {
            throw new IllegalArgumentException("the marker is not there exactly once: " + marker);
        }
        byte[] out = bytes.clone();
        for (int i = 0; i < replacement.length; i++) {
            out[at + i] = (byte) replacement[i];
        }
        return out;
    }

    /** {@code bytes} with every byte of {@code marker} (one ASCII character) made {@code replacement}. */
    static byte[] corruptAll(byte[] bytes, char marker, int replacement) {
        byte[] out = bytes.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] == marker) {
                out[i] = (byte) replacement;
            }
        }
        return out;
    }

    static int indexOf(byte[] bytes, byte[] needle, int from) {
        for (int i = from; i <= bytes.length - needle.length; i++) {
            if (Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    /** protobuf-java's own parse of the message after a framed value's message indexes: the oracle. */
    static DynamicMessage parse(Descriptor type, byte[] framed) throws InvalidProtocolBufferException {
        int end = MessageIndexes.read(framed, WireFormat.PREFIX_LENGTH).end();
        return DynamicMessage.parseFrom(type, Arrays.copyOfRange(framed, end, framed.length));
    }
}
