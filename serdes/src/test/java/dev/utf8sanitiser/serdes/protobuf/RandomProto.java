package dev.utf8sanitiser.serdes.protobuf;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Random proto3 schemas (nested, recursive, repeated and packed scalars, maps with string and int
 * keys, oneofs, bytes beside strings) and random messages of them built with protobuf-java's
 * {@code DynamicMessage}, with '~' bytes to corrupt; and the agreement of the walk with
 * protobuf-java's parser, the oracle. Each schema has a twin whose strings are {@code bytes} (and
 * whose map entries are plain messages), to read what a string held before it was fixed.
 */
final class RandomProto {
    private static final FieldDescriptorProto.Type[] SCALARS = {
        FieldDescriptorProto.Type.TYPE_STRING,
        FieldDescriptorProto.Type.TYPE_STRING,
        FieldDescriptorProto.Type.TYPE_BYTES,
        FieldDescriptorProto.Type.TYPE_INT32,
        FieldDescriptorProto.Type.TYPE_SINT64,
        FieldDescriptorProto.Type.TYPE_FIXED32,
        FieldDescriptorProto.Type.TYPE_DOUBLE,
        FieldDescriptorProto.Type.TYPE_BOOL,
    };
    private static final int[] BAD = {0xFF, 0xC0, 0xED, 0x80, 0xF4, 0xE2, 0xA0, 0xF8};

    /** A schema, its bytes twin and the top type of each. */
    record Schema(Descriptor type, Descriptor twin) {}

    private RandomProto() {}

    static Schema schema(Random random) {
        int messages = 1 + random.nextInt(3);
        FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder()
                .setName("random.proto")
                .setPackage("r")
                .setSyntax("proto3");
        for (int m = 0; m < messages; m++) {
            DescriptorProto.Builder message = DescriptorProto.newBuilder().setName("M" + m);
            int fields = 1 + random.nextInt(6);
            int oneof = -1;
            for (int f = 1; f <= fields; f++) {
                FieldDescriptorProto.Builder field = FieldDescriptorProto.newBuilder()
                        .setName("f" + f)
                        .setNumber(f == fields && random.nextBoolean() ? 1000 + f : f)
                        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
                int kind = random.nextInt(10);
                if (kind < 5) {
                    field.setType(SCALARS[random.nextInt(SCALARS.length)]);
                } else if (kind < 7) {
                    field.setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                            .setTypeName(".r.M" + random.nextInt(messages));
                } else if (kind < 9) {
                    String entry = "F" + f + "Entry";
                    boolean intKey = random.nextBoolean();
                    message.addNestedType(DescriptorProto.newBuilder()
                            .setName(entry)
                            .setOptions(MessageOptions.newBuilder().setMapEntry(true))
                            .addField(FieldDescriptorProto.newBuilder()
                                    .setName("key")
                                    .setNumber(1)
                                    .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
                                    .setType(
                                            intKey
                                                    ? FieldDescriptorProto.Type.TYPE_INT32
                                                    : FieldDescriptorProto.Type.TYPE_STRING))
                            .addField(FieldDescriptorProto.newBuilder()
                                    .setName("value")
                                    .setNumber(2)
                                    .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL)
                                    .setType(FieldDescriptorProto.Type.TYPE_STRING)));
                    field.setLabel(FieldDescriptorProto.Label.LABEL_REPEATED)
                            .setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                            .setTypeName(".r.M" + m + "." + entry);
                } else {
                    if (oneof < 0) {
                        oneof = message.getOneofDeclCount();
                        message.addOneofDecl(OneofDescriptorProto.newBuilder().setName("choice"));
                    }
                    field.setType(FieldDescriptorProto.Type.TYPE_STRING).setOneofIndex(oneof);
                }
                if (kind < 7 && oneof != 0 && random.nextInt(3) == 0) {
                    field.setLabel(FieldDescriptorProto.Label.LABEL_REPEATED);
                }
                message.addField(field);
            }
            file.addMessageType(message);
        }
        return new Schema(build(file.build()), build(twin(file.build())));
    }

    private static Descriptor build(FileDescriptorProto proto) {
        try {
            return FileDescriptor.buildFrom(proto, new FileDescriptor[0])
                    .getMessageTypes()
                    .get(0);
        } catch (DescriptorValidationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The bytes twin of a type of a self-contained file. */
    static Descriptor twinOf(Descriptor type) {
        try {
            FileDescriptor file = FileDescriptor.buildFrom(twin(type.getFile().toProto()), new FileDescriptor[0]);
            return file.findMessageTypeByName(type.getName());
        } catch (DescriptorValidationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The schema with every string a bytes field and map entries plain messages. */
    private static FileDescriptorProto twin(FileDescriptorProto proto) {
        FileDescriptorProto.Builder twin = proto.toBuilder();
        for (DescriptorProto.Builder message : twin.getMessageTypeBuilderList()) {
            bytesOnly(message);
        }
        return twin.build();
    }

    private static void bytesOnly(DescriptorProto.Builder message) {
        message.clearOptions();
        for (FieldDescriptorProto.Builder field : message.getFieldBuilderList()) {
            if (field.getType() == FieldDescriptorProto.Type.TYPE_STRING) {
                field.setType(FieldDescriptorProto.Type.TYPE_BYTES);
            }
        }
        for (DescriptorProto.Builder nested : message.getNestedTypeBuilderList()) {
            bytesOnly(nested);
        }
    }

    /** A random message of {@code type}, its strings of ASCII, 'Łódź' and '~'. */
    static DynamicMessage message(Random random, Descriptor type, int depth) {
        DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
        for (FieldDescriptor field : type.getFields()) {
            if (random.nextInt(4) == 0 || (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE && depth > 3)) {
                continue;
            }
            int count = field.isRepeated() ? random.nextInt(4) : 1;
            for (int i = 0; i < count; i++) {
                Object value = value(random, field, depth);
                if (field.isRepeated()) {
                    builder.addRepeatedField(field, value);
                } else {
                    builder.setField(field, value);
                }
            }
        }
        return builder.build();
    }

    private static Object value(Random random, FieldDescriptor field, int depth) {
        return switch (field.getJavaType()) {
            case STRING -> text(random);
            case BYTE_STRING -> com.google.protobuf.ByteString.copyFrom(text(random), UTF_8);
            case INT -> field.getType() == FieldDescriptor.Type.FIXED32 ? random.nextInt() : random.nextInt(1000) - 500;
            case LONG -> random.nextLong();
            case DOUBLE -> random.nextDouble();
            case BOOLEAN -> random.nextBoolean();
            case MESSAGE -> message(random, field.getMessageType(), depth + 1);
            default -> throw new IllegalStateException(field.getJavaType().name());
        };
    }

    private static String text(Random random) {
        String[] pieces = {"a", "key", "~", "Łódź", "~~", " ", "z"};
        StringBuilder text = new StringBuilder();
        int n = random.nextInt(5);
        for (int i = 0; i < n; i++) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }

    /** {@code message} with some of its '~' bytes made ill-formed (a '~' may also lie in a number). */
    static byte[] corrupt(Random random, byte[] message) {
        byte[] out = message.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] == '~' && random.nextInt(3) > 0) {
                out[i] = (byte) BAD[random.nextInt(BAD.length)];
            }
        }
        return out;
    }

    static byte[] framed(int id, byte[] message) {
        byte[] out = Arrays.copyOf(WireFormat.prefix(id), 6 + message.length);
        System.arraycopy(message, 0, out, 6, message.length);
        return out;
    }

    static Decision<RecordParts> decide(ProtobufFormat format, Policy policy, byte[] value) {
        return new RecordSanitiser(policy, ContentPolicy.none(), format, false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    /**
     * The walk agrees with protobuf-java on {@code message} of {@code schema}, framed under {@code
     * id} in {@code format}: under strict it passes exactly what protobuf-java parses; under replace
     * what protobuf-java refuses for its UTF-8 is fixed into a message it parses, each string the
     * core's replacement of the bytes it held, and anything else is {@code MALFORMED_PROTOBUF};
     * but a map whose keys, each replaced, would be fewer than they came is dead-lettered as keys
     * that would collide.
     */
    static void assertAgrees(ProtobufFormat format, int id, Schema schema, byte[] message) {
        byte[] value = framed(id, message);
        boolean parses = parses(schema.type(), message);
        Decision<RecordParts> strict = decide(format, Policy.STRICT, value);
        assertThat(strict instanceof Decision.Pass).as("passes under strict").isEqualTo(parses);

        Decision<RecordParts> replace = decide(format, Policy.REPLACE, value);
        boolean wellFormedWire = parses(schema.twin(), message);
        if (!wellFormedWire) {
            assertThat(replace).isInstanceOf(Decision.DeadLetter.class);
            assertThat(((Decision.DeadLetter<?>) replace).rule()).isEqualTo(DeadLetterRule.MALFORMED_PROTOBUF);
            return;
        }
        if (keysCollideOnceReplaced(schema.type(), twinParse(schema.twin(), message))) {
            assertThat(replace).isInstanceOf(Decision.DeadLetter.class);
            assertThat(((Decision.DeadLetter<?>) replace).first().detail())
                    .hasValueSatisfying(detail -> assertThat(detail).startsWith("keys would collide at "));
            return;
        }
        byte[] out = replace instanceof Decision.Changed<RecordParts> changed
                ? changed.fixed().value()
                : value;
        assertThat(replace).isNotInstanceOf(Decision.DeadLetter.class);
        assertThat(Arrays.copyOf(out, 6)).isEqualTo(Arrays.copyOf(value, 6));
        try {
            DynamicMessage fixed = DynamicMessage.parseFrom(schema.type(), Arrays.copyOfRange(out, 6, out.length));
            DynamicMessage original = DynamicMessage.parseFrom(schema.twin(), message);
            assertSameButReplaced(fixed, original);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError("the fixed value does not parse: " + e.getMessage(), e);
        }
    }

    private static DynamicMessage twinParse(Descriptor twin, byte[] message) {
        try {
            return DynamicMessage.parseFrom(twin, message);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Whether some map with string keys of {@code twin} (protobuf-java's parse of the message as the
     * bytes twin of {@code type}, singular messages sent twice merged) has keys distinct as bytes
     * that the core's replacement makes fewer.
     */
    static boolean keysCollideOnceReplaced(Descriptor type, Message twin) {
        for (FieldDescriptor field : type.getFields()) {
            FieldDescriptor twinField = twin.getDescriptorForType().findFieldByNumber(field.getNumber());
            if (field.isMapField()
                    && field.getMessageType().findFieldByNumber(1).getType() == FieldDescriptor.Type.STRING) {
                java.util.Set<com.google.protobuf.ByteString> raw = new java.util.HashSet<>();
                java.util.Set<String> replaced = new java.util.HashSet<>();
                for (int i = 0; i < twin.getRepeatedFieldCount(twinField); i++) {
                    Message entry = (Message) twin.getRepeatedField(twinField, i);
                    com.google.protobuf.ByteString key = (com.google.protobuf.ByteString)
                            entry.getField(entry.getDescriptorForType().findFieldByNumber(1));
                    raw.add(key);
                    replaced.add(new String(
                            Utf8Sanitiser.sanitise(key.toByteArray(), Policy.REPLACE)
                                    .output(),
                            UTF_8));
                }
                if (replaced.size() < raw.size()) {
                    return true;
                }
            }
            if (field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            if (field.isRepeated()) {
                for (int i = 0; i < twin.getRepeatedFieldCount(twinField); i++) {
                    if (keysCollideOnceReplaced(
                            field.getMessageType(), (Message) twin.getRepeatedField(twinField, i))) {
                        return true;
                    }
                }
            } else if (twin.hasField(twinField)
                    && keysCollideOnceReplaced(field.getMessageType(), (Message) twin.getField(twinField))) {
                return true;
            }
        }
        return false;
    }

    private static void assertSameButReplaced(Message fixed, Message original) {
        for (FieldDescriptor field : fixed.getDescriptorForType().getFields()) {
            FieldDescriptor twin = original.getDescriptorForType().findFieldByNumber(field.getNumber());
            if (field.isRepeated()) {
                assertThat(fixed.getRepeatedFieldCount(field)).isEqualTo(original.getRepeatedFieldCount(twin));
                for (int i = 0; i < fixed.getRepeatedFieldCount(field); i++) {
                    assertSameValue(field, fixed.getRepeatedField(field, i), original.getRepeatedField(twin, i));
                }
            } else {
                // A map entry's key and value have presence; the twin's plain fields do not.
                if (!fixed.getDescriptorForType().getOptions().getMapEntry()) {
                    assertThat(fixed.hasField(field))
                            .as("presence of %s in %s", field.getFullName(), original)
                            .isEqualTo(original.hasField(twin));
                }
                // An absent message is its default instance, which a recursive type nests without end.
                if (fixed.hasField(field) || field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                    assertSameValue(field, fixed.getField(field), original.getField(twin));
                }
            }
        }
        assertThat(fixed.getUnknownFields()).isEqualTo(original.getUnknownFields());
    }

    private static void assertSameValue(FieldDescriptor field, Object fixed, Object original) {
        switch (field.getJavaType()) {
            case STRING ->
                assertThat(fixed)
                        .isEqualTo(new String(
                                Utf8Sanitiser.sanitise(
                                                ((com.google.protobuf.ByteString) original).toByteArray(),
                                                Policy.REPLACE)
                                        .output(),
                                UTF_8));
            case MESSAGE -> assertSameButReplaced((Message) fixed, (Message) original);
            default -> assertThat(fixed).isEqualTo(original);
        }
    }

    static boolean parses(Descriptor type, byte[] message) {
        try {
            DynamicMessage.parseFrom(type, message);
            return true;
        } catch (InvalidProtocolBufferException e) {
            return false;
        }
    }
}
