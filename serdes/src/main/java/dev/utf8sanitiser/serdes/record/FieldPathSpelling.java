package dev.utf8sanitiser.serdes.record;

/**
 * Writes a path in docs/dlq.md's {@code __utf8.field} spelling, step by step from the top of the
 * value: fields joined by dots ({@code customer.name}), {@code [i]} for an array element ({@code
 * lines[3].sku}), {@code {key}} for a map value ({@code tags{color}}) and {@code {}} for a map key
 * itself ({@code tags{}}). Avro, JSON and Connect values all render their paths here, so the three
 * can never spell one differently.
 */
public final class FieldPathSpelling {
    private final StringBuilder path = new StringBuilder();

    /** A field of a record or object. */
    public FieldPathSpelling field(CharSequence name) {
        if (path.length() > 0) {
            path.append('.');
        }
        path.append(name);
        return this;
    }

    /** An element of an array or list. */
    public FieldPathSpelling index(long index) {
        path.append('[').append(index).append(']');
        return this;
    }

    /** The value of a map entry, by its key as text. */
    public FieldPathSpelling mapValue(CharSequence key) {
        path.append('{').append(key).append('}');
        return this;
    }

    /** The key of a map entry. */
    public FieldPathSpelling mapKey() {
        path.append("{}");
        return this;
    }

    /** Whether no step was written: the top of the value. */
    public boolean isEmpty() {
        return path.length() == 0;
    }

    /** The path; empty at the top of the value. */
    @Override
    public String toString() {
        return path.toString();
    }
}
