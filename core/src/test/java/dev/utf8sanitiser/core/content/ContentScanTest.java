package dev.utf8sanitiser.core.content;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The streamed scan decides as the core does for the whole input: the BOM rule at offset 0 only. */
class ContentScanTest {
    private static final ContentPolicy BOM = ContentPolicy.of(ContentRules.parse("BYTE_ORDER_MARK:reject"));

    private static List<ContentFinding> scan(String... chunks) {
        ContentScan scan = new ContentScan(BOM);
        List<ContentFinding> findings = new ArrayList<>();
        ContentScan.PieceSink sink = (start, piece) -> scan.findings(start, piece)
                .forEach(f -> findings.add(new ContentFinding(f.offset() + start, f.length(), f.rule(), f.action())));
        for (String chunk : chunks) {
            byte[] bytes = chunk.getBytes(StandardCharsets.UTF_8);
            scan.update(bytes, 0, bytes.length, sink);
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
}
