package dev.utf8sanitiser.serdes.json;

import static dev.utf8sanitiser.serdes.json.JsonFormatTest.bytes;
import static dev.utf8sanitiser.serdes.json.JsonFormatTest.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.Scaling;
import dev.utf8sanitiser.serdes.SmallStack;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * Documents built to hurt the JSON path: nested deep, or holding escapes Jackson will not take in a
 * key. Each must end as a verdict in time linear in its size, with small dead-letter headers.
 */
class HostileJsonTest {
    private static final double LINEAR = 2.5;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Decision<RecordParts> decide(Policy policy, boolean surrogates, byte[] value) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new JsonFormat(surrogates), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    private static Decision.DeadLetter rejected(boolean surrogates, byte[] value) {
        Decision<RecordParts> decision = decide(Policy.STRICT, surrogates, value);
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        return (Decision.DeadLetter<?>) decision;
    }

    /** {@code {"a":{"a":...{"a":INNER}...}}}, {@code depth} objects. */
    private static byte[] nested(int depth, byte[] inner) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8("{\"a\":".repeat(depth)));
        out.writeBytes(inner);
        out.writeBytes(utf8("}".repeat(depth)));
        return out.toByteArray();
    }

    private static int headerBytes(Decision.DeadLetter<?> dead) {
        Headers headers = new RecordHeaders(new DeadLetterAnnotation(8)
                .annotate(new RecordHeaders(), dead, Policy.STRICT, new DeadLetterAnnotation.Source("t", 0, 0), 0L));
        int size = 0;
        for (Header header : headers) {
            size += header.key().length() + header.value().length;
        }
        return size;
    }

    @Test
    void aDocumentAtTheNestingLimitIsCheckedAndNamesItsField() throws Exception {
        byte[] value = nested(JsonFormat.MAX_DEPTH, bytes("\"x", 0xFF, "\""));

        Decision.DeadLetter dead = SmallStack.call(() -> rejected(false, value));

        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.INVALID_BYTE);
        assertThat(dead.first().offset()).isEqualTo(5 * JsonFormat.MAX_DEPTH + 2);
        assertThat(dead.first().field().orElseThrow())
                .startsWith("a.a.a.")
                .endsWith(".a.a")
                .hasSize(2 * JsonFormat.MAX_DEPTH - 1);
        assertThat(headerBytes(dead)).isLessThan(3 * 1024);
        assertThat(decide(Policy.STRICT, false, nested(JsonFormat.MAX_DEPTH, utf8("\"ok\""))))
                .isInstanceOf(Decision.Pass.class);
    }

    @Test
    void aDocumentBeyondTheNestingLimitIsInvalidJsonWithSmallHeaders() {
        for (int depth : new int[] {JsonFormat.MAX_DEPTH + 1, 16_000}) {
            Decision.DeadLetter dead = rejected(false, nested(depth, bytes("\"x", 0xFF, "\"")));

            assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
            // The object that goes one level too deep.
            assertThat(dead.first().offset()).isEqualTo(5 * JsonFormat.MAX_DEPTH);
            assertThat(headerBytes(dead)).isLessThan(3 * 1024);
        }
    }

    @Test
    void twoHundredKilobytesOfOpeningBracketsAreInvalidJsonWithSmallHeaders() {
        Decision.DeadLetter dead = rejected(false, utf8("[".repeat(200_000)));

        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
        assertThat(dead.first().offset()).isEqualTo(JsonFormat.MAX_DEPTH);
        // Jackson counts the level it refuses: one step more than the limit, and no more.
        assertThat(dead.first().field().orElseThrow()).isEqualTo("[0]".repeat(JsonFormat.MAX_DEPTH + 1));
        assertThat(headerBytes(dead)).isLessThan(3 * 1024);
    }

    @Test
    void findingTheFieldIsLinearInTheNesting() {
        double ratio = Scaling.doublingRatio(
                depth -> {
                    byte[] value = nested(depth, bytes("\"x", 0xFF, "\""));
                    return () -> decide(Policy.STRICT, false, value);
                },
                JsonFormat.MAX_DEPTH / 2,
                LINEAR);

        assertThat(ratio).isLessThanOrEqualTo(LINEAR);
    }

    @Test
    void findingTheFieldIsLinearInTheStringsBeforeItAndTheirNesting() {
        // n strings, each as deep as n / 8: a path per string would be quadratic.
        double ratio = Scaling.doublingRatio(
                n -> {
                    byte[] strings = utf8("[" + "\"s\",".repeat(n) + "\"\\ud800\"]");
                    byte[] value = nested(n / 8, strings);
                    return () -> decide(Policy.STRICT, true, value);
                },
                4_000,
                LINEAR);

        assertThat(ratio).isLessThanOrEqualTo(LINEAR);
    }

    @Test
    void manyLoneSurrogateEscapesCostTheSameEach() {
        for (Policy policy : new Policy[] {Policy.STRICT, Policy.REPLACE}) {
            double ratio = Scaling.doublingRatio(
                    n -> {
                        byte[] value = utf8("{\"a\":[" + "\"\\ud800\",".repeat(n) + "1]}");
                        return () -> decide(policy, true, value);
                    },
                    2_000,
                    LINEAR);

            assertThat(ratio).as("%s", policy).isLessThanOrEqualTo(LINEAR);
        }
    }

    @Test
    void aLoneSurrogateEscapeInAKeyIsWhatItIsInAValue() throws Exception {
        byte[] key = utf8("{\"\\ud800\":1}");
        byte[] value = utf8("{\"k\":\"\\ud800\"}");

        // Off: neither is checked, both are JSON.
        assertThat(decide(Policy.STRICT, false, key)).isInstanceOf(Decision.Pass.class);
        assertThat(decide(Policy.STRICT, false, value)).isInstanceOf(Decision.Pass.class);

        // On: both are LONE_SURROGATE_ESCAPE, the key named as its object's key.
        Decision.DeadLetter inKey = rejected(true, key);
        assertThat(inKey.first().rule()).isEqualTo(DeadLetterRule.LONE_SURROGATE_ESCAPE);
        assertThat(inKey.first().offset()).isEqualTo(2);
        assertThat(inKey.first().length()).isEqualTo(6);
        assertThat(inKey.first().field()).contains("{}");
        assertThat(rejected(true, value).first().rule()).isEqualTo(DeadLetterRule.LONE_SURROGATE_ESCAPE);

        // Fixed, the key is U+FFFD and the document reads.
        Decision.Changed<RecordParts> fixed = (Decision.Changed<RecordParts>) decide(Policy.REPLACE, true, key);
        assertThat(MAPPER.readTree(fixed.fixed().value()).fieldNames().next()).isEqualTo("\uFFFD");
    }

    @Test
    void everyKindOfLoneSurrogateEscapeInAKey() throws Exception {
        for (String key : List.of("\\udc00", "a\\ud800b", "\\ud800\\ud800", "\\ud800\\u0041", "\\udfff\\ud800")) {
            byte[] document = utf8("{\"customer\":{\"" + key + "\":{\"x\":1}}}");

            Decision.DeadLetter dead = rejected(true, document);
            assertThat(dead.first().rule()).as(key).isEqualTo(DeadLetterRule.LONE_SURROGATE_ESCAPE);
            assertThat(dead.first().field()).as(key).contains("customer{}");
            assertThat(decide(Policy.STRICT, false, document)).as(key).isInstanceOf(Decision.Pass.class);

            JsonNode fixed = MAPPER.readTree(((Decision.Changed<RecordParts>) decide(Policy.REPAIR, true, document))
                    .fixed()
                    .value());
            assertThat(fixed.get("customer").fieldNames().next()).as(key).contains("\uFFFD");
        }
        // A pair is one character, in a key as in a value.
        assertThat(decide(Policy.STRICT, true, utf8("{\"\\ud83d\\ude00\":\"\\ud83d\\ude00\"}")))
                .isInstanceOf(Decision.Pass.class);
    }

    @Test
    void aLoneSurrogateKeyBesideIllFormedBytesIsFixedAndStillReads() throws Exception {
        byte[] value = bytes("{\"\\ud800\":\"caf", 0xE9, "\",\"n\":[\"", 0xC0, 0x80, "\"]}");
        byte[] plainKey = bytes("{\"k\":\"caf", 0xE9, "\",\"n\":[\"", 0xC0, 0x80, "\"]}");

        Decision.Changed<RecordParts> fixed = (Decision.Changed<RecordParts>) decide(Policy.REPAIR, true, value);

        JsonNode tree = MAPPER.readTree(fixed.fixed().value());
        assertThat(tree.get("\uFFFD").asText()).isEqualTo("caf\uFFFD");
        assertThat(tree.get("n").get(0).asText()).isEqualTo("\u0000");
        int plainErrors = ((Decision.Changed<RecordParts>) decide(Policy.REPAIR, true, plainKey)).errors();
        assertThat(fixed.errors()).isEqualTo(plainErrors + 1);
        // Under strict the UTF-8 check comes first, as for an escape in a value.
        Decision.DeadLetter dead = rejected(true, value);
        assertThat(dead.first().rule())
                .isEqualTo(DeadLetterRule.of(
                        Utf8Validator.firstError(value).orElseThrow().rule()));
        assertThat(dead.errors()).isEqualTo(rejected(true, plainKey).errors() + 1);
    }
}
