package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The streamed scan decides as the core does for the whole input: the BOM rule at offset 0 only,
 * and a line longer than {@link ContentScan#MAX_PIECE}, which is cut, never between a base letter
 * and its combining mark (a cut there would hide text that is not in NFC: e + U+0301 is é in NFC).
 */
class ContentScanTest {
    private static final ContentPolicy BOM = ContentPolicy.of(ContentRules.parse("BYTE_ORDER_MARK:reject"));
    private static final byte[] E_ACUTE_DECOMPOSED = "e\u0301".getBytes(StandardCharsets.UTF_8);
    private static final ContentPolicy NOT_NORMALISED = ContentPolicy.of(ContentRules.parse("NOT_NORMALISED:reject"));

    private static List<ContentFinding> scan(String... chunks) {
        List<byte[]> bytes = new ArrayList<>();
        for (String chunk : chunks) {
            bytes.add(chunk.getBytes(StandardCharsets.UTF_8));
        }
        return scan(BOM, bytes, new ArrayList<>());
    }

    /** The findings of the chunks scanned in turn; each piece the scan hands on goes to {@code pieces}. */
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

    @Test
    void aByteOrderMarkCountsAtTheStartOfTheInputOnly() {
        assertThat(scan("\uFEFFa\n", "\uFEFFb\n"))
                .containsExactly(new ContentFinding(0, 3, ContentRule.BYTE_ORDER_MARK, ContentAction.REJECT));
        // A line that starts with U+FEFF after the first is a ZERO WIDTH NO-BREAK SPACE.
        assertThat(scan("a\n", "\uFEFFb\n")).isEmpty();
    }

    @Test
    void thePolicyMatchesAByteOrderMarkOnlyWhenToldTheTextStartsTheInput() {
        byte[] text = "\uFEFFa".getBytes(StandardCharsets.UTF_8);

        assertThat(BOM.apply(text, true).findings()).hasSize(1);
        assertThat(BOM.apply(text, false).findings()).isEmpty();
        assertThat(BOM.apply(text).findings()).isEqualTo(BOM.apply(text, true).findings());
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

    private static byte[] letters(int n) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) 'a');
        return a;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
