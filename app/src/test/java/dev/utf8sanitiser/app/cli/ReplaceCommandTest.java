package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Utf8Replacement;
import dev.utf8sanitiser.core.Utf8Validator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplaceCommandTest {
    @TempDir
    Path dir;

    @Test
    void wellFormedInputIsCopiedByteIdentical() {
        byte[] input = "Καλημέρα κόσμε 😀\n".getBytes(StandardCharsets.UTF_8);
        CliRun run = CliRun.of(input, "replace");
        assertThat(run.exit()).isZero();
        assertThat(run.stdout()).isEqualTo(input);
    }

    @Test
    void eachMaximalSubpartBecomesOneReplacementCharacter() {
        byte[] input = {0x61, (byte) 0xED, (byte) 0xA0, (byte) 0x80, 0x62, (byte) 0xE2, (byte) 0x82};
        CliRun run = CliRun.of(input, "replace", "--stats");
        assertThat(new String(run.stdout(), StandardCharsets.UTF_8)).isEqualTo("a\uFFFD\uFFFD\uFFFDb\uFFFD");
        assertThat(run.stderr()).isEqualTo("-: 4 replacements, 0 repairs in 7 bytes\n");
        assertThat(run.exit()).isZero();
    }

    @Test
    void latin1CorpusComesOutWellFormedAndEqualToTheCore() throws IOException {
        Path latin1 = Path.of(System.getProperty("testdata.dir"), "corpora", "wikipedia_mars", "french.latin1.txt");
        byte[] input = Files.readAllBytes(latin1);
        CliRun run = CliRun.of("replace", latin1.toString());
        assertThat(Utf8Validator.isWellFormed(run.stdout())).isTrue();
        assertThat(run.stdout()).isEqualTo(Utf8Replacement.replace(input));
        assertThat(run.stdout()).isNotEqualTo(input);
    }

    @Test
    void repairTurnsCesu8PairsAndModifiedNulIntoUtf8AndReplacesTheRest() {
        // U+1F600 as a CESU-8 pair, Modified UTF-8 NUL, and an overlong slash that must stay broken.
        byte[] input = {
            0x61,
            (byte) 0xED,
            (byte) 0xA0,
            (byte) 0xBD,
            (byte) 0xED,
            (byte) 0xB8,
            (byte) 0x80,
            (byte) 0xC0,
            (byte) 0x80,
            (byte) 0xC0,
            (byte) 0xAF
        };
        CliRun run = CliRun.of(input, "replace", "--policy", "repair", "--stats");
        assertThat(new String(run.stdout(), StandardCharsets.UTF_8)).isEqualTo("a\uD83D\uDE00\u0000\uFFFD\uFFFD");
        assertThat(run.stderr()).isEqualTo("-: 2 replacements, 2 repairs in 11 bytes\n");
    }

    @Test
    void unreadableInputExitsTwo() {
        CliRun run = CliRun.of("replace", dir.resolve("nope").toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.stderr()).isEqualTo("utf8-sanitiser: " + dir.resolve("nope") + ": no such file\n");
    }

    @Test
    void unknownPolicyIsAUsageError() {
        assertThat(CliRun.of("replace", "--policy", "guess").exit()).isEqualTo(2);
    }
}
