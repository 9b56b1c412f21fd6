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
                .containsExactly("00000000  61[ed a0 80]62" + " ".repeat(3 * 11 + 1) + " |a...b|");
    }

    @Test
    void theTextColumnIsWhereItIsOnEveryLineMarkedOrNot() {
        byte[] bytes = new byte[80];
        Arrays.fill(bytes, (byte) 'x');
        for (int i = 14; i < 18; i++) {
            bytes[i] = (byte) 0xFF; // a run across a line's end
        }
        bytes[47] = (byte) 0xC0; // at a line's end
        bytes[79] = (byte) 0xC0; // at the data's end
        for (int[] run : new int[][] {{14, 4}, {47, 1}, {79, 1}, {0, 0}}) {
            List<String> lines = new HexView(false).lines(bytes, HexView.Marked.of(bytes, run[0], run[1]), -1);
            assertThat(lines).hasSize(5);
            for (String line : lines) {
                assertThat(line).as(line).hasSize(58 + 2 + 16 + 1);
                assertThat(line.indexOf('|')).as(line).isEqualTo(59);
            }
        }
        assertThat(new HexView(false)
                        .lines(bytes, HexView.Marked.of(bytes, 14, 4), -1)
                        .subList(0, 2))
                .containsExactly(
                        "00000000  78 78 78 78 78 78 78 78 78 78 78 78 78 78[ff ff] |xxxxxxxxxxxxxx..|",
                        "00000010 [ff ff]78 78 78 78 78 78 78 78 78 78 78 78 78 78  |..xxxxxxxxxxxxxx|");
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
