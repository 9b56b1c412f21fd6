package dev.utf8sanitiser.serdes.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the walk needs of one message type, compiled once from its descriptor: for each field
 * number, how its bytes are read and whether its strings are checked. Recursive types make a graph
 * of plans, built without recursion.
 */
final class MessagePlan {
    /** How a field's bytes are read, as protobuf-java reads them. */
    enum Kind {
        /** A string whose UTF-8 is checked. */
        CHECKED_STRING(2),
        /** Bytes, or a string protobuf leaves unchecked: skipped as it is. */
        OPAQUE(2),
        /** A message, length-delimited (a map entry too). */
        MESSAGE(2),
        /** A message between a start-group and an end-group tag. */
        GROUP(3),
        VARINT(0),
        FIXED64(1),
        FIXED32(5);

        final int wireType;

        Kind(int wireType) {
            this.wireType = wireType;
        }
    }

    /** A field of the message. */
    static final class Field {
        final int number;
        /** Its name in a field path: the field's name, {@code [full.name]} for an extension. */
        final String name;

        final Kind kind;
        final boolean repeated;
        /** A repeated scalar, which may come packed in one length-delimited field. */
        final boolean packable;

        final boolean map;
        /**
         * A varint protobuf-java reads as 64 bits ({@code int64}, {@code uint64}, {@code sint64},
         * {@code bool}): its fast path takes a tenth byte with the high bit set when its low bit is
         * set too, where every other varint's tenth byte must end it.
         */
        final boolean wide;

        final FieldDescriptor descriptor;
        MessagePlan message;

        Field(FieldDescriptor descriptor, Kind kind) {
            this.number = descriptor.getNumber();
            this.name = descriptor.isExtension() ? "[" + descriptor.getFullName() + "]" : descriptor.getName();
            this.kind = kind;
            this.repeated = descriptor.isRepeated();
            this.packable = descriptor.isPackable();
            this.map = descriptor.isMapField();
            this.wide = switch (descriptor.getType()) {
                case INT64, UINT64, SINT64, BOOL -> true;
                default -> false;
            };
            this.descriptor = descriptor;
        }
    }

    private static final Field[] NO_FIELDS = {};

    final Descriptor descriptor;
    final boolean mapEntry;
    // Field numbers up to DIRECT are looked up by index, the rest by binary search.
    private static final int DIRECT = 256;
    private Field[] direct = NO_FIELDS;
    private int[] sparseNumbers = new int[0];
    private Field[] sparse = NO_FIELDS;

    private MessagePlan(Descriptor descriptor) {
        this.descriptor = descriptor;
        this.mapEntry = descriptor.getOptions().getMapEntry();
    }

    /** The field of {@code number}, or null for a field the schema does not know. */
    Field field(int number) {
        if (number < direct.length) {
            return direct[number];
        }
        int i = Arrays.binarySearch(sparseNumbers, number);
        return i >= 0 ? sparse[i] : null;
    }

    /**
     * The plans of every message type {@code file} and the files it imports define, their fields
     * and the extensions any of them declare; {@code checkAll} checks every string field, not only
     * those protobuf checks.
     */
    static Map<Descriptor, MessagePlan> compile(FileDescriptor file, boolean checkAll) {
        List<FieldDescriptor> extensions = new ArrayList<>();
        List<Descriptor> types = new ArrayList<>();
        Set<FileDescriptor> files = new HashSet<>();
        Deque<FileDescriptor> pendingFiles = new ArrayDeque<>(List.of(file));
        while (!pendingFiles.isEmpty()) {
            FileDescriptor next = pendingFiles.pop();
            if (files.add(next)) {
                extensions.addAll(next.getExtensions());
                types.addAll(next.getMessageTypes());
                pendingFiles.addAll(next.getDependencies());
            }
        }
        Map<Descriptor, MessagePlan> plans = new HashMap<>();
        Deque<Descriptor> pending = new ArrayDeque<>(types);
        while (!pending.isEmpty()) {
            Descriptor next = pending.pop();
            if (!plans.containsKey(next)) {
                plans.put(next, new MessagePlan(next));
                extensions.addAll(next.getExtensions());
                pending.addAll(next.getNestedTypes());
                for (FieldDescriptor field : next.getFields()) {
                    if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                        pending.add(field.getMessageType());
                    }
                }
            }
        }
        for (FieldDescriptor extension : extensions) {
            if (extension.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                pending.add(extension.getMessageType());
            }
        }
        // Types only extensions use, and what they use in turn.
        while (!pending.isEmpty()) {
            Descriptor next = pending.pop();
            if (!plans.containsKey(next)) {
                plans.put(next, new MessagePlan(next));
                pending.addAll(next.getNestedTypes());
                for (FieldDescriptor field : next.getFields()) {
                    if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                        pending.add(field.getMessageType());
                    }
                }
            }
        }
        Map<Descriptor, List<Field>> fields = new HashMap<>();
        for (MessagePlan plan : plans.values()) {
            List<Field> own = new ArrayList<>();
            for (FieldDescriptor field : plan.descriptor.getFields()) {
                own.add(field(field, checkAll, plans));
            }
            fields.put(plan.descriptor, own);
        }
        for (FieldDescriptor extension : extensions) {
            List<Field> own = fields.get(extension.getContainingType());
            if (own != null) {
                own.add(field(extension, checkAll, plans));
            }
        }
        for (MessagePlan plan : plans.values()) {
            plan.index(fields.get(plan.descriptor));
        }
        return plans;
    }

    private static Field field(FieldDescriptor descriptor, boolean checkAll, Map<Descriptor, MessagePlan> plans) {
        Kind kind =
                switch (descriptor.getType()) {
                    case STRING -> checkAll || descriptor.needsUtf8Check() ? Kind.CHECKED_STRING : Kind.OPAQUE;
                    case BYTES -> Kind.OPAQUE;
                    case MESSAGE -> Kind.MESSAGE;
                    case GROUP -> Kind.GROUP;
                    case DOUBLE, FIXED64, SFIXED64 -> Kind.FIXED64;
                    case FLOAT, FIXED32, SFIXED32 -> Kind.FIXED32;
                    default -> Kind.VARINT;
                };
        Field field = new Field(descriptor, kind);
        if (kind == Kind.MESSAGE || kind == Kind.GROUP) {
            field.message = plans.get(descriptor.getMessageType());
        }
        return field;
    }

    private void index(List<Field> fields) {
        int max = 0;
        for (Field field : fields) {
            if (field.number < DIRECT) {
                max = Math.max(max, field.number + 1);
            }
        }
        direct = new Field[max];
        List<Field> far = new ArrayList<>();
        for (Field field : fields) {
            if (field.number < DIRECT) {
                direct[field.number] = field;
            } else {
                far.add(field);
            }
        }
        far.sort((a, b) -> Integer.compare(a.number, b.number));
        sparseNumbers = far.stream().mapToInt(f -> f.number).toArray();
        sparse = far.toArray(NO_FIELDS);
    }
}
