package dev.utf8sanitiser.core.content;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The action for each {@link ContentRule}; a rule not given one is {@link ContentAction#ALLOW
 * allowed}, that is, not checked. Immutable.
 *
 * <p>The text form, read by {@link #parse(String)} and written by {@link #toString()}, is a
 * comma-separated list of {@code RULE:action} pairs, {@code NUL:reject,C1_CONTROL:strip}. Rule and
 * action names ignore case and the spaces around them; an explicit {@code allow} is the same as
 * leaving the rule out, so {@code "NUL:allow"} parses to {@link #none()}.
 */
public final class ContentRules {
    private static final ContentRules NONE = new ContentRules(new EnumMap<>(ContentRule.class));

    /** Never holds ALLOW, so equal rules have equal maps. */
    private final Map<ContentRule, ContentAction> actions;

    private ContentRules(EnumMap<ContentRule, ContentAction> actions) {
        this.actions = Collections.unmodifiableMap(actions);
    }

    /** No rule checked. */
    public static ContentRules none() {
        return NONE;
    }

    /**
     * These actions; rules left out are allowed.
     *
     * @throws IllegalArgumentException if a rule is given an action it does not accept ({@code
     *     NOT_NORMALISED:strip})
     */
    public static ContentRules of(Map<ContentRule, ContentAction> actions) {
        EnumMap<ContentRule, ContentAction> copy = new EnumMap<>(ContentRule.class);
        actions.forEach((rule, action) -> {
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(action, "action");
            if (!rule.accepts(action)) {
                throw new IllegalArgumentException(notAccepted(rule, action));
            }
            if (action != ContentAction.ALLOW) {
                copy.put(rule, action);
            }
        });
        return copy.isEmpty() ? NONE : new ContentRules(copy);
    }

    /**
     * Parses the text form: {@code RULE:action} pairs separated by commas; blank means {@link
     * #none()}.
     *
     * @throws IllegalArgumentException naming every bad entry and token, separated by {@code "; "}:
     *     an entry without a colon, an unknown rule or action, a rule given twice, or an action the
     *     rule does not accept
     */
    public static ContentRules parse(String text) {
        if (text.isBlank()) {
            return NONE;
        }
        EnumMap<ContentRule, ContentAction> actions = new EnumMap<>(ContentRule.class);
        Set<ContentRule> seen = EnumSet.noneOf(ContentRule.class);
        List<String> problems = new ArrayList<>();
        for (String entry : text.split(",", -1)) {
            String trimmed = entry.trim();
            int colon = trimmed.indexOf(':');
            if (colon < 0) {
                problems.add(trimmed.isEmpty() ? "empty entry" : "'" + trimmed + "' is not RULE:action");
                continue;
            }
            String ruleName = trimmed.substring(0, colon).trim();
            String actionName = trimmed.substring(colon + 1).trim();
            ContentRule rule = lookUp(ContentRule.values(), ruleName);
            ContentAction action = lookUp(ContentAction.values(), actionName);
            if (rule == null) {
                problems.add("unknown rule '" + ruleName + "' in '" + trimmed + "' (rules: "
                        + names(ContentRule.values()) + ")");
            }
            if (action == null) {
                problems.add("unknown action '" + actionName + "' in '" + trimmed + "' (actions: "
                        + names(ContentAction.values()).toLowerCase(Locale.ROOT) + ")");
            }
            if (rule == null || action == null) {
                continue;
            }
            if (!rule.accepts(action)) {
                problems.add(notAccepted(rule, action));
            } else if (!seen.add(rule)) {
                problems.add(rule + " is given more than once");
            } else if (action != ContentAction.ALLOW) {
                actions.put(rule, action);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("content rules '" + text + "': " + String.join("; ", problems));
        }
        return actions.isEmpty() ? NONE : new ContentRules(actions);
    }

    /** These rules with {@code rule} given {@code action} ({@code ALLOW} removes it). */
    public ContentRules with(ContentRule rule, ContentAction action) {
        EnumMap<ContentRule, ContentAction> copy = new EnumMap<>(ContentRule.class);
        copy.putAll(actions);
        copy.put(rule, action);
        return of(copy);
    }

    /** The action for {@code rule}: as configured, else {@link ContentAction#ALLOW}. */
    public ContentAction actionFor(ContentRule rule) {
        return actions.getOrDefault(Objects.requireNonNull(rule, "rule"), ContentAction.ALLOW);
    }

    /** The rules to check: those with an action other than ALLOW, in declaration order. */
    public Set<ContentRule> checked() {
        return actions.isEmpty() ? EnumSet.noneOf(ContentRule.class) : EnumSet.copyOf(actions.keySet());
    }

    /** Whether no rule is checked. */
    public boolean isEmpty() {
        return actions.isEmpty();
    }

    /** The rules to check and their actions, in declaration order; unmodifiable, never ALLOW. */
    public Map<ContentRule, ContentAction> asMap() {
        return actions;
    }

    /** The text form, in declaration order, that {@link #parse(String)} reads back: {@code NUL:reject,CR:replace}. */
    @Override
    public String toString() {
        return actions.entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue().name().toLowerCase(Locale.ROOT))
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

    /** The constant named {@code name}, ignoring case; {@code null} when there is none. */
    private static <E extends Enum<E>> E lookUp(E[] values, String name) {
        for (E value : values) {
            if (value.name().equalsIgnoreCase(name)) {
                return value;
            }
        }
        return null;
    }

    private static String names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).collect(Collectors.joining(", "));
    }

    private static String notAccepted(ContentRule rule, ContentAction action) {
        return rule + " does not take " + action.name().toLowerCase(Locale.ROOT)
                + " (no code point to remove: use reject, or replace to normalise)";
    }
}
