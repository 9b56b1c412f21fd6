package dev.utf8sanitiser.config;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;

/**
 * A configuration that cannot be used, with every problem found in it, not only the first: one
 * line per bad value. Hosts print {@link #messages()} and stop; the stack trace is for nobody.
 */
public final class SanitiserConfigException extends ConfigException {
    private static final long serialVersionUID = 1L;

    private final List<ConfigProblem> problems;

    /**
     * @param problems at least one
     */
    public SanitiserConfigException(List<ConfigProblem> problems) {
        super(describe(problems));
        this.problems = List.copyOf(problems);
    }

    /** Every problem, in the order of the definitions, then problems between keys. */
    public List<ConfigProblem> problems() {
        return problems;
    }

    /** One line per problem, ready to print. */
    public List<String> messages() {
        return problems.stream().map(ConfigProblem::message).collect(Collectors.toUnmodifiableList());
    }

    private static String describe(List<ConfigProblem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a configuration exception needs at least one problem");
        }
        if (problems.size() == 1) {
            return problems.get(0).message();
        }
        return problems.size() + " configuration problems:"
                + problems.stream().map(p -> "\n  " + p.message()).collect(Collectors.joining());
    }
}
