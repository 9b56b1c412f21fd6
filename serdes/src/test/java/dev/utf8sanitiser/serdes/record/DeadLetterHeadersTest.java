package dev.utf8sanitiser.serdes.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/** What DeadLetterAnnotation writes, DeadLetterHeaders reads back: the round trip of docs/dlq.md. */
class DeadLetterHeadersTest {
    private static final DeadLetterAnnotation.Source SOURCE = new DeadLetterAnnotation.Source("orders", 2, 4711);

    @Test
    void everyRuleIsWrittenAsItsSpellingAndReadBackAsItself() {
        byte[] value = {'a', (byte) 0xFF};
        for (DeadLetterRule rule : DeadLetterRule.values()) {
            Finding finding = new Finding(Part.VALUE, rule, 1, 1, 1, value);
            List<Header> annotated = new DeadLetterAnnotation(8)
                    .annotate(List.of(), new Decision.DeadLetter<>(finding, 1), Policy.STRICT, SOURCE, 1L);

            assertThat(annotated.get(0).key()).isEqualTo(HeaderNames.RULE);
            assertThat(annotated.get(0).value()).isEqualTo(rule.name().getBytes(StandardCharsets.UTF_8));
            DeadLetterHeaders read = DeadLetterHeaders.read(annotated).orElseThrow();
            assertThat(read.rule()).isEqualTo(rule.name());
            assertThat(read.knownRule()).contains(rule);
            assertThat(read.message()).startsWith(rule.name() + " at value byte 1");
        }
    }

    @Test
    void aRuleThisVersionDoesNotKnowIsReadAsItCame() {
        byte[] value = {'a', (byte) 0xFF};
        Finding finding = new Finding(Part.VALUE, DeadLetterRule.SURROGATE, 1, 1, 1, value);
        // as a newer version or another tool writes it
        List<Header> annotated = new DeadLetterAnnotation(8)
                .annotate(List.of(), new Decision.DeadLetter<>(finding, 1), Policy.STRICT, SOURCE, 1L).stream()
                        .map(h -> h.key().equals(HeaderNames.RULE)
                                ? PlainHeader.of(HeaderNames.RULE, "MALFORMED_THRIFT")
                                : h)
                        .toList();

        DeadLetterHeaders read = DeadLetterHeaders.read(annotated).orElseThrow();

        assertThat(read.rule()).isEqualTo("MALFORMED_THRIFT");
        assertThat(read.knownRule()).isEmpty();
        assertThat(read.offset()).isEqualTo(1);
    }

    @Test
    void readsBackEveryFieldTheAnnotationWrites() {
        byte[] value = {'{', '"', 'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'};
        Finding finding =
                new Finding(Part.VALUE, Optional.of("customer.name"), DeadLetterRule.SURROGATE, 3, 1, 3, value);
        List<Header> own = List.of(PlainHeader.of("trace-id", "t1"), PlainHeader.of(HeaderNames.RULE, "mine"));

        List<Header> annotated = new DeadLetterAnnotation(8)
                .annotate(own, new Decision.DeadLetter<>(finding, 2), Policy.STRICT, SOURCE, 1234L);
        DeadLetterHeaders read = DeadLetterHeaders.read(annotated).orElseThrow();

        assertThat(read.rule()).isEqualTo("SURROGATE");
        assertThat(read.part()).isEqualTo("value");
        assertThat(read.field()).contains("customer.name");
        assertThat(read.offset()).isEqualTo(3);
        assertThat(read.length()).isEqualTo(1);
        assertThat(read.errors()).isEqualTo(2);
        assertThat(read.policy()).isEqualTo("strict");
        assertThat(read.context()).contains("7B 22 61 [ED A0 80] 22 7D");
        assertThat(read.source()).isEqualTo(SOURCE);
        assertThat(read.sourceTimestamp()).isEqualTo(1234L);
        assertThat(read.message()).isEqualTo(DeadLetterAnnotation.message(finding));
        assertThat(read.placeholder()).isFalse();
        // The record's own headers come back, a header it had of an annotation name included.
        assertThat(DeadLetterHeaders.original(annotated)).isEqualTo(own);
    }

    @Test
    void aRecordWithoutARuleIsNotAnnotated() {
        assertThat(DeadLetterHeaders.read(List.of(PlainHeader.of("trace-id", "t1"))))
                .isEmpty();
    }
}
