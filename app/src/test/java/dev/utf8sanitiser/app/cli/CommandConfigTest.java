package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A configuration without bootstrap.servers, as config/examples/dev.properties, for the dlq commands. */
class CommandConfigTest {
    @TempDir
    Path dir;

    @Test
    void theEmbeddedBrokerOfARunWithTheSameApplicationIdIsFound() throws Exception {
        String applicationId = "command-config-" + UUID.randomUUID();
        Path config = dir.resolve("dev.properties");
        Files.writeString(config, "application.id=" + applicationId + "\nsanitiser.input.topics=orders\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Io io = new Io(
                new ByteArrayInputStream(new byte[0]),
                new ByteArrayOutputStream(),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                false);

        assertThat(CommandConfig.loadWithCluster(io, "dlq stats", config)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8).strip())
                .isEqualTo("utf8-sanitiser: dlq stats: " + config + " sets no bootstrap.servers, and no `run` with"
                        + " it has an embedded broker up; set KAFKA_BOOTSTRAP_SERVERS=HOST:PORT, or add the key");

        err.reset();
        EmbeddedAddress.write(applicationId, "127.0.0.1:39092");
        try {
            Optional<SanitiserConfig> loaded = CommandConfig.loadWithCluster(io, "dlq stats", config);
            assertThat(loaded).isPresent();
            assertThat(loaded.get().streamsProperties().get("bootstrap.servers"))
                    .isEqualTo("127.0.0.1:39092");
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .contains("using the embedded broker `run` started with it, at 127.0.0.1:39092");
        } finally {
            EmbeddedAddress.delete(applicationId);
        }
        assertThat(EmbeddedAddress.read(applicationId)).isEmpty();
    }
}
