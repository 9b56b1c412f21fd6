package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.SanitiserConfigException;
import dev.utf8sanitiser.config.SanitiserConfigLoader;
import java.nio.file.Path;
import java.util.Optional;

/** The one way a command reads {@code --config FILE} with the environment's overrides. */
final class CommandConfig {
    private CommandConfig() {}

    /**
     * The configuration, embedded until {@code bootstrap.servers} says otherwise (then every
     * requirement holds); empty after printing one line per problem, prefixed with the command's
     * name, to stderr.
     */
    static Optional<SanitiserConfig> load(Io io, String command, Path file) {
        try {
            return Optional.of(SanitiserConfigLoader.fromSystemEnvironment()
                    .requiring(Requirement.embedded())
                    .load(file));
        } catch (SanitiserConfigException e) {
            e.messages().forEach(m -> io.err().println("utf8-sanitiser: " + command + ": " + m));
            return Optional.empty();
        }
    }

    /**
     * As {@link #load}, for a command that talks to a cluster: empty too, after one line, when the
     * configuration names no {@code bootstrap.servers} (there is no embedded broker to ask).
     */
    static Optional<SanitiserConfig> loadWithCluster(Io io, String command, Path file) {
        Optional<SanitiserConfig> loaded = load(io, command, file);
        if (loaded.isPresent() && !loaded.get().streamsProperties().containsKey("bootstrap.servers")) {
            io.err().println("utf8-sanitiser: " + command + ": " + file + " sets no bootstrap.servers");
            return Optional.empty();
        }
        return loaded;
    }
}
