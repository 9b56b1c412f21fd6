package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run} refuses Kafka Streams handler settings that could lose a record, before starting anything. */
class RunHandlersTest {
    @TempDir
    Path dir;

    private CliRun run(String... lines) throws IOException {
        Path config = Files.writeString(
                dir.resolve("run.properties"), "sanitiser.input.topics=orders\n" + String.join("\n", lines) + "\n");
        return CliRun.of("run", "--config", config.toString());
    }

    @Test
    void aProcessingHandlerThatContinuesIsABadConfiguration() throws IOException {
        CliRun run = run(
                "bootstrap.servers=127.0.0.1:1",
                "processing.exception.handler=org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr())
                .isEqualTo("utf8-sanitiser: run: Invalid value"
                        + " org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler for configuration"
                        + " processing.exception.handler: the sanitiser handles failures itself, and a handler that"
                        + " may continue past one drops the record and commits its offset (docs/operations.md);"
                        + " leave it unset or set it to"
                        + " org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler\n");
        assertThat(run.stdout()).isEmpty();
    }

    @Test
    void isRefusedBeforeAnEmbeddedBrokerIsStartedToo() throws IOException {
        CliRun run =
                run("deserialization.exception.handler=org.apache.kafka.streams.errors.LogAndContinueExceptionHandler");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr())
                .startsWith("utf8-sanitiser: run: Invalid value"
                        + " org.apache.kafka.streams.errors.LogAndContinueExceptionHandler for configuration"
                        + " deserialization.exception.handler:")
                .hasLineCount(1);
        assertThat(run.stdoutText()).as("no embedded broker").doesNotContain("embedded kafka");
    }
}
