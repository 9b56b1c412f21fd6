package dev.utf8sanitiser.serdes.json;

import static dev.utf8sanitiser.serdes.json.JsonFormatTest.bytes;
import static dev.utf8sanitiser.serdes.json.JsonFormatTest.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.Scaling;
import dev.utf8sanitiser.serdes.SmallStack;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.Decision;
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

    private static Decision decide(Policy policy, boolean surrogates, byte[] value) {
        return new RecordSanitiser(policy, ContentPolicy.none(), new JsonFormat(surrogates), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    private static Decision.DeadLetter rejected(boolean surrogates, byte[] value) {
        Decision decision = decide(Policy.STRICT, surrogates, value);
        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        return (Decision.DeadLetter) decision;
    }

    /** {@code {"a":{"a":...{"a":INNER}...}}}, {@code depth} objects. */
    private static byte[] nested(int depth, byte[] inner) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8("{\"a\":".repeat(depth)));
        out.writeBytes(inner);
        out.writeBytes(utf8("}".repeat(depth)));
        return out.toByteArray();
    }

    private static int headerBytes(Decision.DeadLetter dead) {
        Headers headers = new DeadLetterAnnotation(8)
                .annotate(new RecordHeaders(), dead, Policy.STRICT, new DeadLetterAnnotation.Source("t", 0, 0), 0L);
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

        assertThat(dead.first().rule()).isEqualTo("INVALID_BYTE");
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

            assertThat(dead.first().rule()).isEqualTo(JsonFormat.INVALID_JSON);
            // The object that goes one level too deep.
            assertThat(dead.first().offset()).isEqualTo(5 * JsonFormat.MAX_DEPTH);
            assertThat(headerBytes(dead)).isLessThan(3 * 1024);
        }
    }

    @Test
    void twoHundredKilobytesOfOpeningBracketsAreInvalidJsonWithSmallHeaders() {
        Decision.DeadLetter dead = rejected(false, utf8("[".repeat(200_000)));

        assertThat(dead.first().rule()).isEqualTo(JsonFormat.INVALID_JSON);
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
}
