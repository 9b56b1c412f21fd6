package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentScan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path file(String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    @Test
    void wellFormedInputPrintsNothingAndExitsZero() throws IOException {
        Path good = file("good.txt", "Grüße, 世界 😀\n".getBytes(StandardCharsets.UTF_8));
        CliRun run = CliRun.of("check", good.toString());
        assertThat(run.exit()).isZero();
        assertThat(run.stdout()).isEmpty();
        assertThat(run.stderr()).isEmpty();
    }

    @Test
    void illFormedInputPrintsTheFirstErrorAndExitsOne() throws IOException {
        Path bad = file("bad.txt", new byte[] {0x61, (byte) 0xED, (byte) 0xA0, (byte) 0x80, 0x62});
        CliRun run = CliRun.of("check", bad.toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.stdoutText()).isEqualTo(bad + ":1:1: SURROGATE encoded surrogate code point (U+D800..U+DFFF)\n");
    }

    @Test
    void allPrintsEveryMaximalSubpartInOrder() throws IOException {
        byte[] input = {0x61, (byte) 0xF1, (byte) 0x80, (byte) 0x80, (byte) 0xE1, (byte) 0x80, (byte) 0xC2, 0x62};
        Path bad = file("t38.txt", input);
        CliRun run = CliRun.of("check", "--all", bad.toString());
        assertThat(run.stdoutText().lines())
                .containsExactly(
                        bad + ":1:3: TRUNCATED sequence cut short by a byte that cannot continue it",
                        bad + ":4:2: TRUNCATED sequence cut short by a byte that cannot continue it",
                        bad + ":6:1: TRUNCATED sequence cut short by a byte that cannot continue it");
    }

    @Test
    void jsonHasOneObjectPerInputAndLine() throws IOException {
        Path bad = file("bad.txt", new byte[] {0x41, (byte) 0xC0, (byte) 0xAF});
        Path good = file("good.txt", new byte[] {0x41});
        CliRun run = CliRun.of("check", "--json", bad.toString(), good.toString());
        List<String> lines = run.stdoutText().lines().toList();
        assertThat(lines).hasSize(2);
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.get("input").asText()).isEqualTo(bad.toString());
        assertThat(first.get("wellFormed").asBoolean()).isFalse();
        assertThat(first.get("bytes").asLong()).isEqualTo(3);
        assertThat(first.get("errors")).hasSize(1); // only the first without --all
        assertThat(first.get("errors").get(0).get("offset").asLong()).isEqualTo(1);
        assertThat(first.get("errors").get(0).get("length").asInt()).isEqualTo(1);
        assertThat(first.get("errors").get(0).get("rule").asText()).isEqualTo("NON_SHORTEST_FORM");
        assertThat(lines.get(1))
                .isEqualTo("{\"input\":\"" + good + "\",\"wellFormed\":true,\"bytes\":1,\"errors\":[]}");
        assertThat(run.exit()).isEqualTo(1);
    }

    @Test
    void stdinIsNamedDash() {
        CliRun run = CliRun.of(new byte[] {(byte) 0xFF}, "check");
        assertThat(run.stdoutText()).isEqualTo("-:0:1: INVALID_BYTE byte never used in UTF-8\n");
        assertThat(CliRun.of(new byte[] {(byte) 0xFF}, "check", "-").stdoutText())
                .isEqualTo(run.stdoutText());
    }

    @Test
    void unreadableInputIsOneLineOnStderrAndExitTwoAfterCheckingTheRest() throws IOException {
        Path bad = file("bad.txt", new byte[] {(byte) 0x80});
        CliRun run = CliRun.of("check", dir.resolve("missing.txt").toString(), dir.toString(), bad.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr().lines())
                .containsExactly(
                        "utf8-sanitiser: " + dir.resolve("missing.txt") + ": no such file",
                        "utf8-sanitiser: " + dir + ": is a directory");
        assertThat(run.stdoutText()).startsWith(bad + ":0:1: UNEXPECTED_CONTINUATION");
    }

    @Test
    void usageErrorExitsTwo() {
        assertThat(CliRun.of("check", "--no-such-option").exit()).isEqualTo(2);
    }

    @Test
    void errorsSpanningTheReadBufferAreFound() throws IOException {
        // A 4-byte character across the 64 KiB read boundary, then a surrogate across the next.
        byte[] input = new byte[3 * 65536];
        Arrays.fill(input, (byte) 'a');
        byte[] emoji = {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80};
        System.arraycopy(emoji, 0, input, 65534, 4);
        byte[] surrogate = {(byte) 0xED, (byte) 0xB0, (byte) 0x80};
        System.arraycopy(surrogate, 0, input, 2 * 65536 - 1, 3);
        input[input.length - 2] = (byte) 0xE2;
        input[input.length - 1] = (byte) 0x82;
        Path file = file("boundaries.txt", input);
        CliRun run = CliRun.of("check", "--all", file.toString());
        assertThat(run.stdoutText().lines())
                .containsExactly(
                        file + ":131071:1: SURROGATE encoded surrogate code point (U+D800..U+DFFF)",
                        file + ":131072:1: UNEXPECTED_CONTINUATION continuation byte where a sequence must start",
                        file + ":131073:1: UNEXPECTED_CONTINUATION continuation byte where a sequence must start",
                        file + ":196606:2: TRUNCATED_AT_END sequence cut short by the end of the input");
    }

    @Test
    void allJsonMatchesTheCoreOnRandomDamagedFilesPastTheInMemorySpool() throws IOException {
        // More errors than ErrorSpool keeps in memory, so the spill file is used and replayed.
        Random random = new Random(42);
        byte[] input = new byte[200_000];
        random.nextBytes(input);
        Path file = file("noise.bin", input);
        List<Utf8Error> expected = Utf8Validator.errors(input);
        assertThat(expected.size()).isGreaterThan(ErrorSpool.IN_MEMORY);

        JsonNode report = JSON.readTree(
                CliRun.of("check", "--all", "--json", file.toString()).stdoutText());
        List<Utf8Error> actual = new ArrayList<>();
        for (JsonNode e : report.get("errors")) {
            actual.add(new Utf8Error(
                    e.get("offset").asLong(),
                    e.get("length").asInt(),
                    dev.utf8sanitiser.core.Rule.valueOf(e.get("rule").asText())));
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(report.get("bytes").asLong()).isEqualTo(input.length);
    }

    @Test
    void kuhnStressTestFileAgreesWithTheCore() throws IOException {
        Path kuhn = Path.of(System.getProperty("testdata.dir"), "kuhn", "UTF-8-test.txt");
        List<Utf8Error> expected = Utf8Validator.errors(Files.readAllBytes(kuhn));
        List<String> lines = CliRun.of("check", "--all", kuhn.toString())
                .stdoutText()
                .lines()
                .toList();
        assertThat(lines).hasSize(expected.size());
        for (int i = 0; i < lines.size(); i++) {
            Utf8Error e = expected.get(i);
            assertThat(lines.get(i)).startsWith(kuhn + ":" + e.offset() + ":" + e.length() + ": " + e.rule() + " ");
        }
    }

    @Test
    void contentRulesReportUnwelcomeTextInOffsetOrderWithUtf8Errors() throws IOException {
        // NUL at 1, a stray continuation at 3, C1 control U+0085 at 5.
        byte[] input = {0x61, 0x00, 0x62, (byte) 0x80, 0x63, (byte) 0xC2, (byte) 0x85, 0x0A};
        Path file = file("content.txt", input);
        assertThat(CliRun.of("check", "--all", file.toString()).stdoutText().lines())
                .hasSize(1);
        CliRun run = CliRun.of("check", "--all", "--content-rules", file.toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.stdoutText().lines())
                .extracting(line -> line.split(" ")[0] + " " + line.split(" ")[1])
                .containsExactly(file + ":1:1: NUL", file + ":3:1: UNEXPECTED_CONTINUATION", file + ":5:2: C1_CONTROL");
    }

    @Test
    void wellFormedButUnwelcomeTextExitsOneAndCleanTextZero() throws IOException {
        Path nul = file("nul.txt", "a\u0000b".getBytes(StandardCharsets.UTF_8));
        Path clean = file("clean.txt", "Grüße\r\n".getBytes(StandardCharsets.UTF_8));
        assertThat(CliRun.of("check", nul.toString()).exit()).isZero();
        CliRun run = CliRun.of("check", "--content-rules", nul.toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.stdoutText()).startsWith(nul + ":1:1: NUL ");
        assertThat(CliRun.of("check", "--content-rules", clean.toString()).exit())
                .isZero();
        assertThat(CliRun.of("check", "--rules=CR:reject", clean.toString()).stdoutText())
                .startsWith(clean + ":7:1: CR ");
    }

    @Test
    void aByteOrderMarkCountsOnlyAtTheStartOfTheInput() throws IOException {
        Path file = file("bom.txt", "\uFEFFone\n\uFEFFtwo\n".getBytes(StandardCharsets.UTF_8));
        CliRun run = CliRun.of("check", "--all", "--rules=BYTE_ORDER_MARK:reject", file.toString());
        assertThat(run.stdoutText().lines())
                .containsExactly(file + ":0:3: BYTE_ORDER_MARK "
                        + dev.utf8sanitiser.core.content.ContentRule.BYTE_ORDER_MARK.description());
    }

    @Test
    void contentFindingsAcrossManyChunksAndLinesMatchTheCoreOnTheWholeFile() throws IOException {
        Random random = new Random(3);
        StringBuilder text = new StringBuilder();
        while (text.length() < 300_000) {
            int pick = random.nextInt(50);
            text.append(
                    pick == 0 ? "\u0000" : pick == 1 ? "\u0085" : pick == 2 ? "\n" : pick == 3 ? "\uE000" : "wörd ");
        }
        byte[] input = text.toString().getBytes(StandardCharsets.UTF_8);
        Path file = file("many.txt", input);
        var policy = dev.utf8sanitiser.core.content.ContentPolicy.of(
                dev.utf8sanitiser.core.content.ContentRules.parse(CheckCommand.DEFAULT_CONTENT_RULES));
        List<String> expected = policy.apply(input).findings().stream()
                .map(f -> file + ":" + f.offset() + ":" + f.length() + ": " + f.rule() + " "
                        + f.rule().description())
                .toList();
        assertThat(expected).hasSizeGreaterThan(1000);
        assertThat(CliRun.of("check", "--all", "--content-rules", file.toString())
                        .stdoutText()
                        .lines())
                .containsExactlyElementsOf(expected);
    }

    @Test
    void aBadContentRuleListIsAUsageError() throws IOException {
        Path file = file("x.txt", new byte[] {0x41});
        CliRun run = CliRun.of("check", "--rules=NULL:reject", file.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr()).startsWith("utf8-sanitiser: check: --rules: ");
    }

    @Test
    void checkFindsTheSequenceWhereTheReadBufferCutsALongLine() throws IOException {
        // A line longer than ContentScan.MAX_PIECE is cut: the 17th 64 KiB read takes the pending
        // line past 1 MiB, so the cut falls at its end, between e and U+0301 (é in NFC).
        int cut = (ContentScan.MAX_PIECE / CheckCommand.BUFFER + 1) * CheckCommand.BUFFER;
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        text.write(letters(cut - 1));
        text.write("e\u0301".getBytes(StandardCharsets.UTF_8)); // e the last byte before the cut, U+0301 after it
        text.write(letters(1000));
        text.write('\n');
        Path file = file("long-line.txt", text.toByteArray());

        CliRun run = CliRun.of("check", "--all", "--rules=NOT_NORMALISED:reject", file.toString());

        assertThat(run.stdoutText()).startsWith(file + ":" + (cut - 1) + ":3: NOT_NORMALISED ");
        assertThat(run.exit()).isEqualTo(ExitCode.ILL_FORMED);
    }

    private static byte[] letters(int n) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) 'a');
        return a;
    }

    @Test
    void versionComesFromTheBuild() {
        CliRun run = CliRun.of("--version");
        assertThat(run.exit()).isZero();
        assertThat(run.stdoutText()).matches("utf8-sanitiser \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\n");
    }
}
