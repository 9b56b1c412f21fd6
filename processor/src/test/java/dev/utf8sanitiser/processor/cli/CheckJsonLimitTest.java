package dev.utf8sanitiser.processor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check --all --json} lists at most {@code --max-errors} errors and says how many there were. */
class CheckJsonLimitTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private byte[] noise(int size) {
        byte[] bytes = new byte[size];
        new Random(42).nextBytes(bytes);
        return bytes;
    }

    @Test
    void theListIsCutAtTheLimitAndTheCountIsExact() throws IOException {
        byte[] input = noise(200_000);
        Path file = Files.write(dir.resolve("noise.bin"), input);
        List<Utf8Error> expected = Utf8Validator.errors(input);

        CliRun run = CliRun.of("check", "--all", "--json", "--max-errors", "10", file.toString());

        JsonNode report = JSON.readTree(run.stdoutText());
        assertThat(report.fieldNames())
                .toIterable()
                .containsExactly("input", "wellFormed", "bytes", "errors", "errorCount", "truncated");
        assertThat(report.get("errors")).hasSize(10);
        for (int i = 0; i < 10; i++) {
            assertThat(report.get("errors").get(i).get("offset").asLong())
                    .isEqualTo(expected.get(i).offset());
        }
        assertThat(report.get("errorCount").asLong()).isEqualTo(expected.size());
        assertThat(report.get("truncated").asBoolean()).isTrue();
        assertThat(report.get("wellFormed").asBoolean()).isFalse();
        assertThat(run.exit()).isEqualTo(ExitCode.ILL_FORMED);
    }

    @Test
    void aListUnderTheLimitIsWhole() throws IOException {
        Path file = Files.write(dir.resolve("bad.txt"), new byte[] {(byte) 0xFF, 0x41, (byte) 0x80});

        JsonNode report = JSON.readTree(
                CliRun.of("check", "--all", "--json", file.toString()).stdoutText());

        assertThat(report.get("errors")).hasSize(2);
        assertThat(report.get("errorCount").asLong()).isEqualTo(2);
        assertThat(report.get("truncated").asBoolean()).isFalse();
    }

    @Test
    void withoutAllTheLineIsAsBefore() throws IOException {
        Path file = Files.write(dir.resolve("bad.txt"), new byte[] {(byte) 0xFF, 0x41, (byte) 0x80});

        JsonNode report =
                JSON.readTree(CliRun.of("check", "--json", file.toString()).stdoutText());

        assertThat(report.fieldNames()).toIterable().containsExactly("input", "wellFormed", "bytes", "errors");
        assertThat(report.get("errors")).hasSize(1);
    }

    @Test
    void aNegativeLimitIsAUsageError() {
        CliRun run = CliRun.of("check", "--all", "--json", "--max-errors", "-1", "x");

        assertThat(run.exit()).isEqualTo(ExitCode.USAGE_OR_UNREADABLE);
        assertThat(run.stderr()).isEqualTo("utf8-sanitiser: check: --max-errors: must not be negative: -1\n");
    }
}
