package dev.utf8sanitiser.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The action for each {@link ContentRule}, as configured by {@code sanitiser.content.rules}: a list
 * of {@code RULE:action} pairs such as {@code NUL:reject,C1_CONTROL:strip}. A rule not in the list
 * is {@link ContentAction#ALLOW allowed}, that is, not checked. Immutable.
 */
public final class ContentRules {
    private static final ContentRules NONE = new ContentRules(new EnumMap<>(ContentRule.class));

    private final Map<ContentRule, ContentAction> actions;

    private ContentRules(EnumMap<ContentRule, ContentAction> actions) {
        this.actions = Collections.unmodifiableMap(actions);
    }

    /** No rule checked. */
    public static ContentRules none() {
        return NONE;
    }

    /**
     * These actions.
     *
     * @throws IllegalArgumentException if a rule is given an action it does not accept
     */
    public static ContentRules of(Map<ContentRule, ContentAction> actions) {
        EnumMap<ContentRule, ContentAction> copy = new EnumMap<>(ContentRule.class);
        actions.forEach((rule, action) -> {
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(action, "action");
            if (!rule.accepts(action)) {
                throw new IllegalArgumentException(notAccepted(rule, action));
            }
            copy.put(rule, action);
        });
        return new ContentRules(copy);
    }

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
            var rule = ContentRule.fromConfigName(ruleName);
            var action = ContentAction.fromConfigName(actionName);
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
        return new ContentRules(actions);
    }

    /** The action for {@code rule}: as configured, else {@link ContentAction#ALLOW}. */
    public ContentAction actionFor(ContentRule rule) {
        return actions.getOrDefault(rule, ContentAction.ALLOW);
    }

    /** The rules with an action other than {@code allow}, the ones to check. */
    public Set<ContentRule> checked() {
        EnumSet<ContentRule> checked = EnumSet.noneOf(ContentRule.class);
        actions.forEach((rule, action) -> {
            if (action != ContentAction.ALLOW) {
                checked.add(rule);
            }
        });
        return checked;
    }

    /** Whether no rule is checked. */
    public boolean isEmpty() {
        return checked().isEmpty();
    }

    /** The configured pairs, in rule order, including explicit {@code allow}s. */
    public Map<ContentRule, ContentAction> asMap() {
        return actions;
    }

    /** The configuration form, in rule order: {@code NUL:reject,C1_CONTROL:strip}. */
    @Override
    public String toString() {
        return actions.entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue().configName())
                .collect(Collectors.joining(","));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ContentRules other && actions.equals(other.actions);
    }

    @Override
    public int hashCode() {
        return actions.hashCode();
    }

    static String ruleNames() {
        return EnumSet.allOf(ContentRule.class).stream().map(Enum::name).collect(Collectors.joining(", "));
    }

    static String actionNames(Set<ContentAction> actions) {
        return actions.stream().map(ContentAction::configName).collect(Collectors.joining(", "));
    }

    private static String notAccepted(ContentRule rule, ContentAction action) {
        return rule + " does not take " + action.configName() + " (it takes " + actionNames(rule.actions()) + ")";
    }
}
