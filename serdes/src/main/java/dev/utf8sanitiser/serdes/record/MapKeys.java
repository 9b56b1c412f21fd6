package dev.utf8sanitiser.serdes.record;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The keys of one map as read and as fixed, to find a fix that makes two of them equal: Avro
 * readers keep one entry of a map for each key, and Protobuf parsers the last entry of each key, so
 * such a fix would drop an entry. Keys equal as they came (both wire formats allow them) are the
 * writer's doing and are not counted. Nothing is kept until a key is fixed: most maps never are.
 */
public final class MapKeys {
    /** The keys read before the first fixed one: where their text lies in the walked array. */
    private int[] starts = new int[8];

    private int[] lengths = new int[8];
    private int count;
    /** From the first fixed key on: every key as read. */
    private Set<Slice> read;
    /** Every key as it will be written, with where the first key that becomes it lies. */
    private Map<Slice, Slice> written;

    /** A range of an array, equal to another of the same bytes. */
    private record Slice(byte[] bytes, int start, int length) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Slice s
                    && Arrays.equals(bytes, start, start + length, s.bytes, s.start, s.start + s.length);
        }

        @Override
        public int hashCode() {
            int h = 1;
            for (int i = start; i < start + length; i++) {
                h = 31 * h + bytes[i];
            }
            return h;
        }
    }

    public void clear() {
        count = 0;
        read = null;
        written = null;
    }

    /**
     * The next key, {@code bytes[start, start + length)} as read, {@code fixed} as written or null
     * when it stays.
     *
     * @return where, in {@code bytes}, a key lies that the fix made equal to another key of the map
     *     and that the fix changed: this one, or the earlier one it now equals; null when the keys
     *     stay apart
     */
    public int[] add(byte[] bytes, int start, int length, byte[] fixed) {
        if (written == null && fixed == null) {
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, 2 * count);
                lengths = Arrays.copyOf(lengths, 2 * count);
            }
            starts[count] = start;
            lengths[count++] = length;
            return null;
        }
        if (written == null) {
            read = new HashSet<>();
            written = new HashMap<>();
            for (int i = 0; i < count; i++) {
                Slice key = new Slice(bytes, starts[i], lengths[i]);
                read.add(key);
                written.putIfAbsent(key, key);
            }
        }
        Slice key = new Slice(bytes, start, length);
        Slice out = fixed == null ? key : new Slice(fixed, 0, fixed.length);
        boolean newKey = read.add(key);
        Slice earlier = written.putIfAbsent(out, key);
        if (!newKey || earlier == null) {
            return null;
        }
        Slice changed = fixed != null ? key : earlier;
        return new int[] {changed.start(), changed.length()};
    }
}
