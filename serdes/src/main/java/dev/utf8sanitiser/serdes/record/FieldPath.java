package dev.utf8sanitiser.serdes.record;

/**
 * Where a string sits inside a value, rendered only when a finding needs it, so that walking a
 * well-formed document builds no strings. The rendering is docs/dlq.md's {@code __utf8.field}:
 * {@code customer.name}, {@code lines[3].sku}, {@code tags{color}}, {@code tags{}}, written with
 * {@link FieldPathSpelling}.
 */
@FunctionalInterface
public interface FieldPath {
    /** The path; empty for the top of the value. */
    String render();
}
