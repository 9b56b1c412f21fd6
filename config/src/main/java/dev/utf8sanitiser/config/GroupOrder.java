package dev.utf8sanitiser.config;

import java.util.HashMap;
import java.util.Map;

/**
 * Numbers the keys of each group in the order they are defined, from 1: {@code orderInGroup}
 * without numbers typed by hand, so that adding a key in the middle renumbers nothing.
 */
final class GroupOrder {
    private final Map<String, Integer> last = new HashMap<>();

    int next(String group) {
        return last.merge(group, 1, Integer::sum);
    }
}
