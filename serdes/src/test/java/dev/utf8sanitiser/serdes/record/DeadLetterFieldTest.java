package dev.utf8sanitiser.serdes.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** {@code __utf8.field} and the field in the message: at most 512 bytes, cut at a character. */
class DeadLetterFieldTest {
    private static final DeadLetterAnnotation.Source SOURCE = new DeadLetterAnnotation.Source("in", 0, 7);

    private static Headers annotate(String field) {
        byte[] value = {'"', (byte) 0x80, '"'};
        Finding finding =
                new Finding(Part.VALUE, Optional.of(field), DeadLetterRule.UNEXPECTED_CONTINUATION, 1, 1, 1, value);
        return new RecordHeaders(new DeadLetterAnnotation(8)
                .annotate(new RecordHeaders(), new Decision.DeadLetter<>(finding, 1), Policy.STRICT, SOURCE, 0));
    }

    private static String header(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    @Test
    void aPathOf512BytesIsKept() {
        String field = "a".repeat(512);
        assertThat(header(annotate(field), HeaderNames.FIELD)).isEqualTo(field);
    }

    @Test
    void aLongerPathIsCutTo512BytesEndingInDots() {
        String field = "a".repeat(100_000);
        Headers headers = annotate(field);
        assertThat(header(headers, HeaderNames.FIELD)).isEqualTo("a".repeat(509) + "...");
        assertThat(header(headers, HeaderNames.STREAMS_MESSAGE))
                .isEqualTo("UNEXPECTED_CONTINUATION at value field " + "a".repeat(509) + "... byte 1 (80)");
    }

    @Test
    void theCutFallsBetweenCharacters() {
        String field = "😀".repeat(200); // 4 bytes each: 127 fit in 509
        String capped = header(annotate(field), HeaderNames.FIELD);
        assertThat(capped).isEqualTo("😀".repeat(127) + "...");
        assertThat(capped.getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(512);
    }
}
