package dev.utf8sanitiser.serdes.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of the JSON path on arbitrary bytes: under every
 * policy each value is passed, fixed or dead-lettered under a documented rule (docs/rules.md,
 * docs/payload-formats.md), never an exception; and against Jackson's {@code ObjectMapper}, with
 * its default settings but for trailing tokens, reading the bytes as a strictly decoded UTF-8 text:
 * under strict, without the surrogate check, a value passes exactly when it is well-formed UTF-8
 * that the mapper reads. A fixed value is JSON and well-formed UTF-8, and passes when checked again.
 * There is no registry here, so a value that starts as Confluent's framing does (magic byte 0) is
 * no JSON text, as docs/payload-formats.md says, and the mapper reads none either.
 */
class JsonFormatFuzzTest {
    private static final ObjectMapper MAPPER =
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Set<DeadLetterRule> RULES = Stream.concat(
                    Arrays.stream(Rule.values()).map(DeadLetterRule::of),
                    Stream.of(DeadLetterRule.INVALID_JSON, DeadLetterRule.LONE_SURROGATE_ESCAPE))
            .collect(Collectors.toUnmodifiableSet());
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    @FuzzTest
    void everyValueGetsADocumentedVerdict(byte[] input) {
        Decision<RecordParts> plain = decide(Policy.STRICT, false, input);
        assertThat(plain instanceof Decision.Pass).as("passes").isEqualTo(jacksonReadsUtf8(input));

        for (Policy policy : Policy.values()) {
            Decision<RecordParts> decision = decide(policy, true, input);
            if (decision instanceof Decision.DeadLetter dead) {
                assertThat(dead.rule()).isIn(RULES);
            } else if (decision instanceof Decision.Changed<RecordParts> changed) {
                assertThat(policy).isNotEqualTo(Policy.STRICT);
                byte[] fixed = changed.fixed().value();
                assertThat(Utf8Validator.isWellFormed(fixed)).isTrue();
                assertThat(jacksonReadsUtf8(fixed)).isTrue();
                assertThat(decide(Policy.STRICT, true, fixed)).isInstanceOf(Decision.Pass.class);
            } else {
                assertThat(decision).isInstanceOf(Decision.Pass.class);
            }
        }
    }

    private static Decision<RecordParts> decide(Policy policy, boolean surrogates, byte[] value) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new JsonFormat(surrogates), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    /** Whether every {@code \\u} escape of {@code text} is followed by four ASCII hex digits. */
    private static boolean escapesAreHex(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) != '\\') {
                continue;
            }
            if (i + 1 < text.length() && text.charAt(i + 1) == 'u') {
                if (i + 6 > text.length()) {
                    return false;
                }
                for (int d = i + 2; d < i + 6; d++) {
                    if (Character.digit(text.charAt(d), 16) < 0 || text.charAt(d) > 0x7F) {
                        return false;
                    }
                }
            }
            i++; // the escaped character is not the start of another escape
        }
        return true;
    }

    /**
     * Whether the bytes are well-formed UTF-8 that the mapper reads as one JSON value; a leading
     * byte order mark is skipped, as RFC 8259 section 8.1 allows a parser to.
     */
    static boolean jacksonReadsUtf8(byte[] bytes) {
        if (!Utf8Validator.isWellFormed(bytes)) {
            return false;
        }
        int from = Arrays.equals(bytes, 0, Math.min(3, bytes.length), BOM, 0, 3) ? 3 : 0;
        String text = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
        // Decoded here, so the mapper cannot guess another encoding. Its parser of Strings reads
        // only the low byte of a character after \\u (U+FD37 as the digit 7), which its parser of
        // UTF-8 bytes, and ours, refuse as RFC 8259 does: such an escape is no JSON.
        if (!escapesAreHex(text)) {
            return false;
        }
        try {
            // No value at all (empty, or only whitespace) is no JSON text; the mapper says so as a
            // missing node rather than an exception.
            return !MAPPER.readTree(text).isMissingNode();
        } catch (IOException e) {
            return false;
        }
    }
}
