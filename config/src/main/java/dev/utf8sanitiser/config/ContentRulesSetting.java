package dev.utf8sanitiser.config;

import dev.utf8sanitiser.core.content.ContentAction;
import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.core.content.ContentRules;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads {@code sanitiser.content.rules}, a list of {@code RULE:action} pairs such as {@code
 * NUL:reject,C1_CONTROL:strip}, into core's {@link ContentRules}, naming every bad entry at once
 * (core's own parser stops at the first). A rule not in the list is allowed, that is, not checked.
 */
public final class ContentRulesSetting {
    private ContentRulesSetting() {}

    /**
     * Parses {@code RULE:action} pairs, ignoring case and spaces around names.
     *
     * @throws IllegalArgumentException naming every bad entry, separated by {@code "; "}
     */
    public static ContentRules parse(List<String> entries) {
        EnumMap<ContentRule, ContentAction> actions = new EnumMap<>(ContentRule.class);
        List<String> problems = new ArrayList<>();
        for (String entry : entries) {
            int colon = entry.indexOf(':');
            if (colon < 0) {
                problems.add(entry.isBlank() ? "empty entry" : "'" + entry + "' is not RULE:action");
                continue;
            }
            String ruleName = entry.substring(0, colon).trim();
            String actionName = entry.substring(colon + 1).trim();
            var rule = ConfigNames.parse(ContentRule.class, ruleName);
            var action = ConfigNames.parse(ContentAction.class, actionName);
            if (rule.isEmpty()) {
                problems.add("unknown rule '" + ruleName + "' (rules: " + ruleNames() + ")");
            }
            if (action.isEmpty()) {
                problems.add("unknown action '" + actionName + "' (actions: "
                        + actionNames(EnumSet.allOf(ContentAction.class)) + ")");
            }
            if (rule.isEmpty() || action.isEmpty()) {
                continue;
            }
            if (!rule.get().accepts(action.get())) {
                problems.add(notAccepted(rule.get(), action.get()));
            } else if (actions.containsKey(rule.get())) {
                problems.add(rule.get() + " is given more than once");
            } else {
                actions.put(rule.get(), action.get());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return ContentRules.of(actions);
    }

    static String ruleNames() {
        return EnumSet.allOf(ContentRule.class).stream().map(Enum::name).collect(Collectors.joining(", "));
    }

    static String actionNames(Set<ContentAction> actions) {
        return actions.stream().map(ConfigNames::of).collect(Collectors.joining(", "));
    }

    private static String notAccepted(ContentRule rule, ContentAction action) {
        Set<ContentAction> accepted = EnumSet.noneOf(ContentAction.class);
        for (ContentAction a : ContentAction.values()) {
            if (rule.accepts(a)) {
                accepted.add(a);
            }
        }
        return rule + " does not take " + ConfigNames.of(action) + " (it takes " + actionNames(accepted) + ")";
    }
}
