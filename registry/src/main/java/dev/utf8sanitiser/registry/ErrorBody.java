package dev.utf8sanitiser.registry;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the body of a registry's answer says, for messages: Confluent's {@code error_code} and
 * {@code message} when it is Confluent's error object, else the start of the body. Whatever is
 * quoted is cut to {@value #QUOTE_LIMIT} bytes and put on one line, so that a web page or an
 * endless answer cannot flood an exception, a log line or a dead-letter header.
 */
final class ErrorBody {
    /** The most bytes of a registry's text that any message quotes. */
    static final int QUOTE_LIMIT = 256;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final OptionalInt errorCode;
    private final Optional<String> text;

    private ErrorBody(OptionalInt errorCode, Optional<String> text) {
        this.errorCode = errorCode;
        this.text = text;
    }

    static ErrorBody of(byte[] body) {
        try {
            JsonNode error = JSON.readTree(body);
            if (error != null && error.isObject()) {
                JsonNode code = error.path("error_code");
                JsonNode message = error.path("message");
                if (code.canConvertToInt() || message.isTextual()) {
                    return new ErrorBody(
                            code.canConvertToInt() ? OptionalInt.of(code.intValue()) : OptionalInt.empty(),
                            message.isTextual() ? Optional.of(quote(message.asText())) : Optional.empty());
                }
            }
        } catch (IOException e) {
            // Not JSON: quote the start of it.
        }
        String quoted = quote(body);
        return new ErrorBody(OptionalInt.empty(), quoted.isEmpty() ? Optional.empty() : Optional.of(quoted));
    }

    /** Confluent's {@code error_code}, when the body is Confluent's error object. */
    OptionalInt errorCode() {
        return errorCode;
    }

    /** Whether the body is Confluent's error object with one of these codes. */
    boolean isConfluentError(int... codes) {
        for (int code : codes) {
            if (errorCode.isPresent() && errorCode.getAsInt() == code) {
                return true;
            }
        }
        return false;
    }

    /** {@code HTTP 404, error code 40403: Schema 7 not found}, or {@code HTTP 404: <html>...}. */
    String describe(int status) {
        StringBuilder described = new StringBuilder("HTTP ").append(status);
        errorCode.ifPresent(code -> described.append(", error code ").append(code));
        if (text.isPresent()) {
            described.append(": ").append(text.get());
        } else if (errorCode.isEmpty()) {
            described.append(", empty body");
        }
        return described.toString();
    }

    /** The start of {@code body} as one line of at most {@value #QUOTE_LIMIT} bytes of UTF-8 and a marker. */
    static String quote(byte[] body) {
        int end = Math.min(body.length, QUOTE_LIMIT);
        // Cut before a continuation byte, not inside a character.
        while (end > 0 && end < body.length && (body[end] & 0xC0) == 0x80) {
            end--;
        }
        String start = oneLine(new String(body, 0, end, UTF_8));
        return end < body.length ? start + "... (" + body.length + " bytes)" : start;
    }

    /** {@code text} as one line of at most {@value #QUOTE_LIMIT} bytes of UTF-8 and a marker. */
    static String quote(String text) {
        return quote(text.getBytes(UTF_8));
    }

    private static String oneLine(String text) {
        StringBuilder line = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7F || Character.isWhitespace(c)) {
                space = line.length() > 0;
            } else {
                if (space) {
                    line.append(' ');
                    space = false;
                }
                line.append(c);
            }
        }
        return line.toString();
    }
}
