package dev.utf8sanitiser.core;

import java.util.HexFormat;

/** Test helper: {@code bytes("61 ED A0 80")}. */
final class Hex {
    private Hex() {}

    static byte[] bytes(String spacedHex) {
        String compact = spacedHex.replace(" ", "");
        return HexFormat.of().parseHex(compact);
    }

    static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").withUpperCase().formatHex(bytes);
    }
}
