package dev.utf8sanitiser.core.content;

import java.util.EnumMap;
import java.util.Map;

/** Test helper: rule sets that check every code point rule (all but NOT_NORMALISED) with one action. */
final class EveryRule {
    private EveryRule() {}

    static ContentRules with(ContentAction action) {
        Map<ContentRule, ContentAction> map = new EnumMap<>(ContentRule.class);
        for (ContentRule rule : ContentRule.values()) {
            if (rule != ContentRule.NOT_NORMALISED) {
                map.put(rule, action);
            }
        }
        return ContentRules.of(map);
    }

    static ContentRules rejecting() {
        return with(ContentAction.REJECT);
    }

    static ContentRules stripping() {
        return with(ContentAction.STRIP);
    }

    static ContentRules replacing() {
        return with(ContentAction.REPLACE);
    }
}
