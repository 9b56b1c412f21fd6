package dev.utf8sanitiser.serdes.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A schema id's file, with the plan of every message type the walk may meet. Immutable. */
public final class CompiledSchema {
    private final FileDescriptor file;
    private final Map<Descriptor, MessagePlan> plans;

    private CompiledSchema(FileDescriptor file, Map<Descriptor, MessagePlan> plans) {
        this.file = file;
        this.plans = plans;
    }

    /**
     * The plans of {@code file}'s messages; {@code checkAll} checks every string field, not only
     * those protobuf-java checks.
     */
    public static CompiledSchema of(FileDescriptor file, boolean checkAll) {
        Objects.requireNonNull(file, "file");
        return new CompiledSchema(file, Map.copyOf(MessagePlan.compile(file, checkAll)));
    }

    public FileDescriptor file() {
        return file;
    }

    /** The message type a message-index path names: a top-level type, then types nested in it. */
    public Optional<Descriptor> type(int[] path) {
        List<Descriptor> level = file.getMessageTypes();
        Descriptor type = null;
        for (int index : path) {
            if (index < 0 || index >= level.size()) {
                return Optional.empty();
            }
            type = level.get(index);
            level = type.getNestedTypes();
        }
        return Optional.ofNullable(type);
    }

    /** The plan of a type of this schema. */
    MessagePlan plan(Descriptor type) {
        MessagePlan plan = plans.get(type);
        if (plan == null) {
            throw new IllegalArgumentException(type.getFullName() + " is not a type of " + file.getName());
        }
        return plan;
    }

    /**
     * Walks {@code value[from, to)} as a message of {@code type}, showing the strings checked to
     * {@code visitor}: the value with the strings it replaced rewritten, or {@code value} itself.
     *
     * @throws MalformedProtobufException the bytes are not such a message
     * @throws dev.utf8sanitiser.serdes.record.KeysCollideException the visitor's fixes made two keys
     *     of a map equal
     */
    public byte[] walk(
            Descriptor type, byte[] value, int from, int to, dev.utf8sanitiser.serdes.avro.StringVisitor visitor) {
        return ProtobufWalker.walk(plan(type), value, from, to, visitor);
    }
}
