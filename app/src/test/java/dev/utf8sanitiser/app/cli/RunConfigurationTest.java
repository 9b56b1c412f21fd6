package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} refuses a configuration that cannot work before it starts anything (no embedded
 * broker is started: each of these fails first): one line per problem, naming key and value, exit 2.
 */
class RunConfigurationTest {
    @TempDir
    Path dir;

    private CliRun run(String... lines) throws IOException {
        Path config = Files.write(dir.resolve("sanitiser.properties"), List.of(lines));
        return CliRun.of("run", "--config", config.toString());
    }

    private static void assertRefused(CliRun run, String line) {
        assertThat(run.stderr()).isEqualTo("utf8-sanitiser: run: " + line + "\n");
        assertThat(run.stdout()).isEmpty();
        assertThat(run.exit()).isEqualTo(ExitCode.USAGE_OR_UNREADABLE);
    }

    @Test
    void aPatternThatReadsItsOwnOutput() throws IOException {
        assertRefused(
                run("sanitiser.input.pattern=pat.*", "sanitiser.dlq.topic=dlq.${topic}"),
                "Invalid value pat.* for configuration sanitiser.input.pattern: it matches pat and also pat.clean,"
                        + " where sanitiser.output.topic ${topic}.clean sends the records of pat, so the sanitiser"
                        + " would read its own output again and again; make the pattern exclude the output and"
                        + " dead-letter topics");
    }

    @Test
    void noStreamThread() throws IOException {
        assertRefused(
                run("sanitiser.input.topics=orders", "num.stream.threads=0"),
                "Invalid value 0 for configuration num.stream.threads: the sanitiser needs at least one stream"
                        + " thread, or it reads nothing");
    }

    @Test
    void outputAndDeadLettersInOneTopic() throws IOException {
        assertRefused(
                run("sanitiser.input.topics=orders", "sanitiser.output.topic=orders.dlq"),
                "sanitiser.output.topic orders.dlq and sanitiser.dlq.topic ${topic}.dlq would mix clean and"
                        + " dead-letter records: orders.dlq would take the clean records of orders and the dead"
                        + " letters of orders");
    }

    @Test
    void aKeySpeltTheAmericanWay() throws IOException {
        assertRefused(
                run("sanitiser.input.topics=orders", "sanitizer.policy=repair"),
                "Unknown configuration sanitizer.policy; did you mean sanitiser.policy?");
    }
}
