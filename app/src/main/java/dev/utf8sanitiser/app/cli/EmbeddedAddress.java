package dev.utf8sanitiser.app.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where {@code run} says which address its embedded broker listens on, per {@code application.id},
 * so that the {@code dlq} commands given the same configuration file (which has no {@code
 * bootstrap.servers}) find it without the operator copying the address by hand. A file under the
 * temporary directory, written when the broker is up and deleted when {@code run} stops; a file
 * left by a killed {@code run} names a broker that no longer answers, which the commands then say.
 */
final class EmbeddedAddress {
    private EmbeddedAddress() {}

    static Path file(String applicationId) {
        String safe = applicationId.replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "utf8-sanitiser-embedded", safe + ".bootstrap");
    }

    static void write(String applicationId, String bootstrapServers) {
        Path file = file(applicationId);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, bootstrapServers + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static Optional<String> read(String applicationId) {
        try {
            return Optional.of(Files.readString(file(applicationId), StandardCharsets.UTF_8)
                            .strip())
                    .filter(address -> !address.isEmpty());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static void delete(String applicationId) {
        try {
            Files.deleteIfExists(file(applicationId));
        } catch (IOException e) {
            // Left behind: the next dlq command finds an address that does not answer, and says so.
        }
    }
}
