package dev.utf8sanitiser.connect;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields {@code sanitiser.fields} selects, as a tree of field names walked alongside the value.
 * Each node says whether the strings at and below it are checked, and whether a path ends exactly
 * there (only then is a bytes field checked). Arrays and maps are looked through: their elements
 * stand at the node of the field that holds them. Immutable.
 */
final class FieldSelection {
    /** Every string at and below, as when no path is given; bytes are not named. */
    static final FieldSelection EVERY_STRING = new FieldSelection(true, false, Map.of());

    private final boolean strings;
    private final boolean named;
    private final Map<String, FieldSelection> children;

    private FieldSelection(boolean strings, boolean named, Map<String, FieldSelection> children) {
        this.strings = strings;
        this.named = named;
        this.children = children;
    }

    /**
     * The selection of these dotted paths ({@code customer.name}, {@code lines.sku}), validated by
     * the config module; every string when there are none.
     */
    static FieldSelection of(List<String> paths) {
        if (paths.isEmpty()) {
            return EVERY_STRING;
        }
        Builder root = new Builder();
        for (String path : paths) {
            Builder node = root;
            for (String name : path.split("\\.", -1)) {
                node = node.children.computeIfAbsent(name, n -> new Builder());
            }
            node.named = true;
        }
        return root.build(false);
    }

    /** Whether the strings here (and, unless narrowed further down, below) are checked. */
    boolean strings() {
        return strings;
    }

    /** Whether a configured path ends here, so that a bytes field here is checked as text. */
    boolean named() {
        return named;
    }

    /** The selection inside field {@code name}, or {@code null} when nothing below it is checked. */
    FieldSelection field(String name) {
        FieldSelection child = children.get(name);
        if (child != null) {
            return child;
        }
        return strings ? EVERY_STRING : null;
    }

    private static final class Builder {
        final Map<String, Builder> children = new HashMap<>();
        boolean named;

        /** @param inherited whether a path ended above, so that every string here is checked */
        FieldSelection build(boolean inherited) {
            boolean strings = inherited || named;
            Map<String, FieldSelection> built = new HashMap<>();
            children.forEach((name, child) -> built.put(name, child.build(strings)));
            return new FieldSelection(strings, named, Map.copyOf(built));
        }
    }
}
