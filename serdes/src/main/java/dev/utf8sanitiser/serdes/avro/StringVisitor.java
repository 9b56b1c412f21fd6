package dev.utf8sanitiser.serdes.avro;

import dev.utf8sanitiser.serdes.record.FieldPath;

/** Told of every {@code string} a {@link SchemaWalker} meets, in the order of the binary. */
@FunctionalInterface
public interface StringVisitor {
    /**
     * The string {@code bytes[offset, offset + length)} at {@code path}. The path is valid during
     * this call only.
     *
     * @return the bytes to write instead, or {@code null} to keep the string as it is
     */
    byte[] string(FieldPath path, byte[] bytes, int offset, int length);
}
