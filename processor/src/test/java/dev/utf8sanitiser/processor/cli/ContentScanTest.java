package dev.utf8sanitiser.processor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.content.ContentAction;
import dev.utf8sanitiser.core.content.ContentFinding;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.core.content.ContentScan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A line longer than {@link ContentScan#MAX_PIECE} is cut; a cut between a base letter and its
 * combining mark hid text that is not in NFC (e + U+0301 is é in NFC).
 */
class ContentScanTest {
    private static final byte[] E_ACUTE_DECOMPOSED = "e\u0301".getBytes(StandardCharsets.UTF_8);
    private static final ContentPolicy NOT_NORMALISED = ContentPolicy.of(ContentRules.parse("NOT_NORMALISED:reject"));

    @TempDir
    Path dir;

    /** Each piece the scan hands on, as (start, bytes), and their findings. */
    private static List<ContentFinding> scan(ContentPolicy policy, List<byte[]> chunks, List<byte[]> pieces) {
        ContentScan scan = new ContentScan(policy);
        List<ContentFinding> findings = new ArrayList<>();
        ContentScan.PieceSink sink = (start, piece) -> {
            pieces.add(piece);
            for (ContentFinding f : scan.findings(start, piece)) {
                findings.add(new ContentFinding(f.offset() + start, f.length(), f.rule(), f.action()));
            }
        };
        for (byte[] chunk : chunks) {
            scan.update(chunk, 0, chunk.length, sink);
        }
        scan.finish(sink);
        return findings;
    }

    private static byte[] letters(int n) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) 'a');
        return a;
    }

    @Test
    void aCombiningSequenceAtTheCutIsKeptWhole() {
        // The first chunk outgrows a piece and ends with the base letter; the mark comes next.
        byte[] first = concat(letters(ContentScan.MAX_PIECE), new byte[] {'e'});
        byte[] second = concat(Arrays.copyOfRange(E_ACUTE_DECOMPOSED, 1, 3), new byte[] {'\n'});
        List<byte[]> pieces = new ArrayList<>();

        List<ContentFinding> findings = scan(NOT_NORMALISED, List.of(first, second), pieces);

        assertThat(findings)
                .containsExactly(
                        new ContentFinding(ContentScan.MAX_PIECE, 3, ContentRule.NOT_NORMALISED, ContentAction.REJECT));
        assertThat(pieces).hasSizeGreaterThan(1); // it was cut, elsewhere
        assertThat(pieces.stream().mapToInt(p -> p.length).sum()).isEqualTo(first.length + second.length);
    }

    @Test
    void theFindingsAroundTheCutAreThoseOfTheWholeText() {
        ContentPolicy policy =
                ContentPolicy.of(ContentRules.parse("NOT_NORMALISED:reject,NUL:reject,C1_CONTROL:reject"));
        byte[] first = concat(letters(ContentScan.MAX_PIECE), "\u0085e".getBytes(StandardCharsets.UTF_8));
        byte[] second = "\u0301\u0000x\n".getBytes(StandardCharsets.UTF_8);

        List<ContentFinding> findings = scan(policy, List.of(first, second), new ArrayList<>());

        assertThat(findings)
                .containsExactlyElementsOf(policy.apply(concat(first, second)).findings());
        assertThat(findings)
                .extracting(ContentFinding::rule)
                .containsExactly(ContentRule.C1_CONTROL, ContentRule.NOT_NORMALISED, ContentRule.NUL);
    }

    @Test
    void checkFindsTheSequenceWhereTheReadBufferCutsALongLine() throws IOException {
        // The 17th 64 KiB read takes the pending line past 1 MiB: the cut falls at its end.
        int cut = (ContentScan.MAX_PIECE / CheckCommand.BUFFER + 1) * CheckCommand.BUFFER;
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        text.write(letters(cut - 1));
        text.write(E_ACUTE_DECOMPOSED); // 'e' the last byte before the cut, U+0301 after it
        text.write(letters(1000));
        text.write('\n');
        Path file = Files.write(dir.resolve("long-line.txt"), text.toByteArray());

        CliRun run = CliRun.of("check", "--all", "--rules=NOT_NORMALISED:reject", file.toString());

        assertThat(run.stdoutText()).startsWith(file + ":" + (cut - 1) + ":3: NOT_NORMALISED ");
        assertThat(run.exit()).isEqualTo(ExitCode.ILL_FORMED);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
