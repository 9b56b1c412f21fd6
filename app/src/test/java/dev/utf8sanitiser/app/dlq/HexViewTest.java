package dev.utf8sanitiser.app.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class HexViewTest {

    @Test
    void bracketsTheIllFormedRunAsTheContextHeaderDoes() {
        byte[] bytes = {0x61, (byte) 0xED, (byte) 0xA0, (byte) 0x80, 0x62};
        HexView.Marked marked = HexView.Marked.of(bytes, 1, 1);

        assertThat(marked).isEqualTo(new HexView.Marked(1, 4)); // ED A0 80: three subparts, one run
        assertThat(new HexView(false).lines(bytes, marked, 64))
                .containsExactly("00000000  61 [ed a0 80] 62 " + " ".repeat(3 * 11) + " |a...b|");
    }

    @Test
    void showsWholeLinesAroundTheRunOnly() {
        byte[] bytes = new byte[256];
        Arrays.fill(bytes, (byte) 'x');
        bytes[200] = (byte) 0xFF;

        List<String> lines = new HexView(false).lines(bytes, HexView.Marked.of(bytes, 200, 1), 16);

        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("000000b0");
        assertThat(lines.get(1)).startsWith("000000c0").contains("[ff]");
    }

    @Test
    void colourMarksWithoutBrackets() {
        byte[] bytes = {0x61, (byte) 0xFF};
        String line = new HexView(true)
                .lines(bytes, HexView.Marked.of(bytes, 1, 1), 8)
                .get(0);

        assertThat(line).contains("\033[7;31mff\033[0m").doesNotContain("[ff]");
    }

    @Test
    void theTextSpellsOutWhatCouldMoveATerminal() {
        byte[] bytes = "a\u202Eb\u001B[2Jc".getBytes(StandardCharsets.UTF_8);
        bytes = Arrays.copyOf(bytes, bytes.length + 1);
        bytes[bytes.length - 1] = (byte) 0xC3;

        String text = HexView.text(bytes, HexView.Marked.of(bytes, bytes.length - 1, 1), -1);

        assertThat(text).isEqualTo("a\\u202Eb\\u001B[2Jc\uFFFD");
    }
}
