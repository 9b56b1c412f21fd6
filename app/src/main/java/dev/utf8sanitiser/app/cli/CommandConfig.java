package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.SanitiserConfigException;
import dev.utf8sanitiser.config.SanitiserConfigLoader;
import java.nio.file.Path;
import java.util.Map;
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
     * As {@link #load}, for a command that talks to a cluster. A configuration without {@code
     * bootstrap.servers} takes the address of the embedded broker a {@code run} with the same {@code
     * application.id} has up ({@link EmbeddedAddress}), saying so in one line; without one, empty
     * after one line.
     */
    static Optional<SanitiserConfig> loadWithCluster(Io io, String command, Path file) {
        Optional<SanitiserConfig> loaded = load(io, command, file);
        if (loaded.isEmpty() || loaded.get().streamsProperties().containsKey("bootstrap.servers")) {
            return loaded;
        }
        String applicationId = String.valueOf(loaded.get().streamsProperties().getOrDefault("application.id", ""));
        Optional<String> embedded = EmbeddedAddress.read(applicationId);
        if (embedded.isPresent()) {
            io.err()
                    .println("utf8-sanitiser: " + command + ": " + file + " sets no bootstrap.servers: using the"
                            + " embedded broker `run` started with it, at " + embedded.get());
            return Optional.of(loaded.get().withOverrides(Map.of("bootstrap.servers", embedded.get())));
        }
        io.err()
                .println("utf8-sanitiser: " + command + ": " + file + " sets no bootstrap.servers, and no `run` with"
                        + " it has an embedded broker up; set KAFKA_BOOTSTRAP_SERVERS=HOST:PORT, or add the key");
        return Optional.empty();
    }
}
