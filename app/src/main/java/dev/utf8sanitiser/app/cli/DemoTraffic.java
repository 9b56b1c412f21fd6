package dev.utf8sanitiser.app.cli;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The demo's sample records: what the Unicode documents on ill-formed UTF-8 warn about (docs/rules.md,
 * Sources), each with a label an operator reads.
 */
final class DemoTraffic {
    /** One record; {@code showcase} ones are shown in full at the end. */
    record Sample(String label, byte[] value, boolean showcase) {
        Sample(String label, byte[] value) {
            this(label, value, false);
        }
    }

    private DemoTraffic() {}

    static List<Sample> samples() {
        return List.of(
                new Sample("plain ASCII", utf8("order 1042 shipped")),
                new Sample("multilingual text", utf8("Grüße, こんにちは, Привет, 😀")),
                new Sample(
                        "overlong '/' (C0 AF, a filter bypass)", bytes(0x2E, 0x2E, 0xC0, 0xAF, 0x65, 0x74, 0x63), true),
                new Sample("overlong '/' in 3 bytes", bytes(0x2E, 0x2E, 0xE0, 0x80, 0xAF)),
                new Sample("lone surrogate U+D800", bytes(0x61, 0x62, 0xED, 0xA0, 0x80, 0x63)),
                new Sample(
                        "CESU-8 pair for U+1F600 (a database export)",
                        bytes(0x6F, 0x6B, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80),
                        true),
                new Sample("Modified UTF-8 NUL (C0 80)", bytes(0x4A, 0x61, 0x76, 0x61, 0xC0, 0x80)),
                new Sample("above U+10FFFF", bytes(0x78, 0xF4, 0x90, 0x80, 0x80)),
                new Sample(
                        "Latin-1 'café' mislabelled as UTF-8",
                        bytes(0x63, 0x61, 0x66, 0xE9, 0x20, 0x61, 0x75, 0x20, 0x6C, 0x61, 0x69, 0x74),
                        true),
                new Sample(
                        "euro sign cut by a buffer boundary",
                        bytes(0x70, 0x72, 0x69, 0x63, 0x65, 0x20, 0x35, 0xE2, 0x82)),
                new Sample("obsolete 5-byte form", bytes(0xF8, 0x88, 0x80, 0x80, 0x80)),
                new Sample(
                        "Unicode Table 3-8 example",
                        bytes(0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64)),
                new Sample("empty value", new byte[0]));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
