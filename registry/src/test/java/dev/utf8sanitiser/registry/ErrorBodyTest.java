package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorBodyTest {
    @Test
    void readsConfluentsErrorCodeAndMessage() {
        ErrorBody body = ErrorBody.of(bytes("{\"error_code\":40403,\"message\":\"Schema 7 not found\"}"));

        assertThat(body.isConfluentError(40403)).isTrue();
        assertThat(body.isConfluentError(40401, 40402)).isFalse();
        assertThat(body.describe(404)).isEqualTo("HTTP 404, error code 40403: Schema 7 not found");
    }

    @Test
    void aBodyThatIsNotConfluentsErrorHasNoCode() {
        for (String text : new String[] {"", "<html>Not Found</html>", "{\"status\":404}", "[40403]", "40403"}) {
            assertThat(ErrorBody.of(bytes(text)).isConfluentError(40403))
                    .as(text)
                    .isFalse();
        }
        assertThat(ErrorBody.of(bytes("")).describe(404)).isEqualTo("HTTP 404, empty body");
        assertThat(ErrorBody.of(bytes("{\"status\":404}")).describe(404)).isEqualTo("HTTP 404: {\"status\":404}");
    }

    @Test
    void quotesOneLineOfAtMostTheLimitCutBetweenCharacters() {
        String page = "<html>\n\t<body>\r\n" + "ü".repeat(1000) + "</body></html>";
        byte[] bytes = bytes(page);

        String quoted = ErrorBody.quote(bytes);

        String marker = "... (" + bytes.length + " bytes)";
        assertThat(quoted)
                .startsWith("<html> <body> üüü")
                .endsWith("ü" + marker)
                .doesNotContain("\n", "\t", "\r");
        String kept = quoted.substring(0, quoted.length() - marker.length());
        assertThat(bytes(kept).length).isBetween(ErrorBody.QUOTE_LIMIT - 3, ErrorBody.QUOTE_LIMIT);
        assertThat(kept).doesNotContain("\uFFFD");
    }

    @Test
    void quotesAShortBodyWhole() {
        assertThat(ErrorBody.quote(bytes("  Unauthorized \n"))).isEqualTo("Unauthorized");
        byte[] exactly = bytes("a".repeat(ErrorBody.QUOTE_LIMIT));
        assertThat(ErrorBody.quote(exactly)).isEqualTo("a".repeat(ErrorBody.QUOTE_LIMIT));
    }

    @Test
    void capsAConfluentMessageToo() {
        String message = "m".repeat(10_000);

        String described = ErrorBody.of(bytes("{\"error_code\":50001,\"message\":\"" + message + "\"}"))
                .describe(500);

        assertThat(described)
                .isEqualTo("HTTP 500, error code 50001: " + "m".repeat(ErrorBody.QUOTE_LIMIT) + "... (10000 bytes)");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }
}
