package dev.utf8sanitiser.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A topic name that may depend on the input topic: {@code ${topic}.clean} sends records read from
 * {@code orders} to {@code orders.clean}. {@code ${topic}} is the only placeholder and may appear
 * more than once; a template without it is a fixed topic name. The characters around the
 * placeholders must be legal in a topic name, so any rendering of a legal input topic is legal too
 * unless it grows beyond 249 characters. Immutable.
 */
public final class TopicTemplate {
    /** The placeholder for the input topic's name. */
    public static final String PLACEHOLDER = "${topic}";

    private final String template;
    /** The text between placeholders; one more element than there are placeholders. */
    private final List<String> literals;

    private TopicTemplate(String template, List<String> literals) {
        this.template = template;
        this.literals = literals;
    }

    /**
     * Parses a template.
     *
     * @throws IllegalArgumentException if it is empty, holds a placeholder other than {@code
     *     ${topic}}, a character not legal in a topic name, or is a fixed name longer than 249
     */
    public static TopicTemplate parse(String template) {
        Objects.requireNonNull(template, "template");
        if (template.isEmpty()) {
            throw new IllegalArgumentException("a topic template cannot be empty");
        }
        List<String> literals = new ArrayList<>();
        int start = 0;
        while (true) {
            int dollar = template.indexOf("${", start);
            if (dollar < 0) {
                literals.add(template.substring(start));
                break;
            }
            if (!template.startsWith(PLACEHOLDER, dollar)) {
                int close = template.indexOf('}', dollar);
                String found = close < 0 ? template.substring(dollar) : template.substring(dollar, close + 1);
                throw new IllegalArgumentException(
                        "unknown placeholder '" + found + "': " + PLACEHOLDER + " is the only placeholder");
            }
            literals.add(template.substring(start, dollar));
            start = dollar + PLACEHOLDER.length();
        }
        for (String literal : literals) {
            TopicNames.illegalCharacter(literal).ifPresent(problem -> {
                throw new IllegalArgumentException(problem);
            });
        }
        if (literals.size() == 1) {
            TopicNames.problem(template).ifPresent(problem -> {
                throw new IllegalArgumentException(problem);
            });
        } else {
            int fixedLength = literals.stream().mapToInt(String::length).sum();
            int placeholders = literals.size() - 1;
            if (fixedLength + placeholders > TopicNames.MAX_LENGTH) {
                throw new IllegalArgumentException(
                        "every topic rendered from it would be longer than " + TopicNames.MAX_LENGTH + " characters");
            }
        }
        return new TopicTemplate(template, List.copyOf(literals));
    }

    /**
     * The topic for records read from {@code inputTopic}.
     *
     * @throws IllegalArgumentException if the result would be longer than 249 characters
     */
    public String render(String inputTopic) {
        Objects.requireNonNull(inputTopic, "inputTopic");
        if (isFixed()) {
            return template;
        }
        StringBuilder topic = new StringBuilder(template.length() + inputTopic.length());
        topic.append(literals.get(0));
        for (int i = 1; i < literals.size(); i++) {
            topic.append(inputTopic).append(literals.get(i));
        }
        if (topic.length() > TopicNames.MAX_LENGTH) {
            throw new IllegalArgumentException("'" + template + "' renders input topic '" + inputTopic
                    + "' as a name of " + topic.length() + " characters, more than " + TopicNames.MAX_LENGTH);
        }
        return topic.toString();
    }

    /**
     * The input topic whose records this template sends to {@code topic}, if there is one: the
     * inverse of {@link #render}. Empty for a fixed template, which sends the records of every input
     * to its one name, and when no legal topic name renders as {@code topic}.
     */
    public Optional<String> inputFor(String topic) {
        Objects.requireNonNull(topic, "topic");
        if (isFixed() || topic.length() > TopicNames.MAX_LENGTH) {
            return Optional.empty();
        }
        int placeholders = literals.size() - 1;
        int rest = topic.length() - literals.stream().mapToInt(String::length).sum();
        if (rest <= 0 || rest % placeholders != 0) {
            return Optional.empty();
        }
        int start = literals.get(0).length();
        String input = topic.substring(start, start + rest / placeholders);
        if (TopicNames.problem(input).isPresent() || !render(input).equals(topic)) {
            return Optional.empty();
        }
        return Optional.of(input);
    }

    /** Whether the template holds no placeholder, so that every input topic gets the same name. */
    public boolean isFixed() {
        return literals.size() == 1;
    }

    /** Whether every input topic renders as itself: the template is exactly {@code ${topic}}. */
    public boolean isIdentity() {
        return template.equals(PLACEHOLDER);
    }

    /** The template as configured. */
    public String template() {
        return template;
    }

    @Override
    public String toString() {
        return template;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopicTemplate other && template.equals(other.template);
    }

    @Override
    public int hashCode() {
        return template.hashCode();
    }
}
