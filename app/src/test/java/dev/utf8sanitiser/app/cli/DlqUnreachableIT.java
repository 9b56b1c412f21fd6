package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dlq replay} against brokers that do not answer: the one line every {@code dlq} command
 * gives (docs/cli.md), exit 2, after the 15 s the commands wait, not after Kafka's admin client has
 * waited out its own minute.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DlqUnreachableIT {
    @TempDir
    Path dir;

    @Test
    void replayWithTheBrokersAwaySaysSoInOneLineWithinTheWait() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        String servers = "127.0.0.1:" + port;
        Path config = dir.resolve("away.properties");
        Files.writeString(config, "bootstrap.servers=" + servers + "\nsanitiser.input.topics=orders\n");

        long start = System.nanoTime();
        CliRun replay = CliRun.of("dlq", "replay", "--config", config.toString(), "--to", "orders");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

        assertThat(replay.exit()).isEqualTo(2);
        assertThat(replay.stderr().strip())
                .isEqualTo("utf8-sanitiser: dlq replay: cannot reach the brokers at " + servers + " within 15 s");
        assertThat(seconds)
                .as("seconds to give up (Admin.close() waited 60 more)")
                .isLessThan(45);
    }
}
