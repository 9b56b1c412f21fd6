package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.testkit.AllocatedBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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

    /**
     * Content findings and UTF-8 errors of an input of several pieces (more than {@link
     * ContentScanTest}'s piece size, without a line feed) come in offset order, every one of them:
     * the oracle is the input itself, where every 00 byte is a NUL and the validator gives the errors.
     */
    @Test
    void contentFindingsAndErrorsOfManyPiecesComeInOrderEveryOne() throws IOException {
        byte[] noise = noise((1 << 20) + 12_345);
        byte[] input = new byte[noise.length];
        for (int i = 0; i < input.length; i++) {
            // Letters with a random byte in fifty (errors, or the start of one) and a NUL in 31.
            input[i] = i % 31 == 0 ? 0 : i % 50 == 7 ? noise[i] : (byte) ('a' + (noise[i] & 15));
        }
        Path file = Files.write(dir.resolve("nul-noise.bin"), input);
        List<String> expected = new ArrayList<>();
        Utf8Validator.errors(input).forEach(e -> expected.add(e.offset() + ":" + e.length() + ":" + e.rule()));
        for (int i = 0; i < input.length; i++) {
            if (input[i] == 0) {
                expected.add(i + ":1:NUL");
            }
        }
        expected.sort(Comparator.comparingLong(e -> Long.parseLong(e.substring(0, e.indexOf(':')))));

        CliRun run = CliRun.of(
                "check", "--all", "--json", "--max-errors", "100000000", "--rules", "NUL:reject", file.toString());

        List<String> reported = new ArrayList<>();
        JSON.readTree(run.stdoutText())
                .get("errors")
                .forEach(e -> reported.add(e.get("offset").asLong() + ":"
                        + e.get("length").asInt() + ":" + e.get("rule").asText()));
        assertThat(reported).isEqualTo(expected);
        assertThat(run.exit()).isEqualTo(ExitCode.ILL_FORMED);
    }

    /**
     * Content findings cost no object each: checking 8 MiB of NUL bytes (8 million findings, none
     * listed) allocates about 11 bytes per input byte (copies of each piece, and the batch of findings
     * as numbers growing to a piece's million), where an object a finding costs a hundred bytes or more
     * per finding (a finding, a copy shifted to the input's offset, a line of the report, and their
     * lists' slots).
     */
    @Test
    void contentFindingsAllocateNothingEach() throws IOException {
        assumeTrue(AllocatedBytes.supported());
        Path file = Files.write(dir.resolve("nul.bin"), new byte[8 << 20]);
        long[] count = new long[1];

        long allocated = AllocatedBytes.of(() -> {
            CliRun run = CliRun.of(
                    "check", "--all", "--json", "--max-errors", "0", "--rules", "NUL:reject", file.toString());
            count[0] = readTree(run.stdoutText()).get("errorCount").asLong();
        });

        assertThat(count[0]).isEqualTo(8 << 20);
        assertThat(allocated).as("bytes allocated for 8 MiB of NUL").isLessThan(16L * (8 << 20));
    }

    private static JsonNode readTree(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
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
