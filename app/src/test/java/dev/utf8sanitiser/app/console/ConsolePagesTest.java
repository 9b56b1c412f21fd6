package dev.utf8sanitiser.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/** The console's pages and its index without Kafka: what they count and that they escape. */
class ConsolePagesTest {
    private static final Instant NOW = Instant.parse("2026-11-24T12:00:30Z");

    private static DeadLetter letter(long offset, Instant at, String rule, String source, String field) {
        byte[] value = {'a', (byte) 0xFF};
        // As the sanitiser writes it: the record's own header, then the annotation. A rule this
        // version does not know (a newer one's, another tool's) is written under a known one's
        // place, its spelling then put in the rule and message headers, as that writer would.
        DeadLetterRule known = DeadLetterRule.named(rule).orElse(DeadLetterRule.SURROGATE);
        List<Header> headers = new DeadLetterAnnotation(8)
                        .annotate(
                                List.of(PlainHeader.of("trace", "<own>")),
                                new Decision.DeadLetter<>(
                                        new Finding(Part.VALUE, Optional.of(field), known, 1, 1, 1, value), 1),
                                Policy.STRICT,
                                new DeadLetterAnnotation.Source(source, 0, offset),
                                at.toEpochMilli())
                        .stream()
                        .map(h -> {
                            String v = new String(h.value(), StandardCharsets.UTF_8);
                            return (h.key().equals(HeaderNames.RULE) || h.key().equals(HeaderNames.STREAMS_MESSAGE))
                                            && v.startsWith(known.spelling())
                                    ? PlainHeader.of(
                                            h.key(),
                                            rule + v.substring(known.spelling().length()))
                                    : h;
                        })
                        .toList();
        Optional<DeadLetterHeaders> annotation = DeadLetterHeaders.read(headers);
        assertThat(annotation).isPresent();
        return new DeadLetter("t.dlq", 0, offset, at.toEpochMilli(), null, value, headers, annotation);
    }

    @Test
    void theIndexCountsByRuleAndMinuteAndKeepsTheNewestFirst() {
        TopicIndex index = new TopicIndex("t.dlq");
        index.exists(true);
        index.add(letter(0, NOW.minus(Duration.ofMinutes(90)), "SURROGATE", "orders", "a"), NOW);
        index.add(letter(1, NOW.minus(Duration.ofMinutes(5)), "SURROGATE", "orders", "a"), NOW);
        index.add(letter(2, NOW.minus(Duration.ofSeconds(10)), "TRUNCATED", "orders", "b"), NOW);
        index.add(letter(3, NOW.minus(Duration.ofDays(2)), "TRUNCATED", "orders", "b"), NOW);
        index.position(new TopicPartition("t.dlq", 0), 4);
        index.end(new TopicPartition("t.dlq", 0), 6);

        TopicView view = index.view(NOW);

        assertThat(view.records()).isEqualTo(4);
        assertThat(view.byRule()).containsEntry("SURROGATE", 2L).containsEntry("TRUNCATED", 2L);
        assertThat(view.behind()).isEqualTo(2);
        long[] hour = view.rate(NOW, Duration.ofMinutes(1), 60);
        assertThat(hour[59]).as("this minute").isEqualTo(1);
        assertThat(hour[54]).as("five minutes ago").isEqualTo(1);
        assertThat(Arrays.stream(hour).sum())
                .as("90 minutes ago is not in the last hour")
                .isEqualTo(2);
        long[] day = view.rate(NOW, Duration.ofMinutes(15), 96);
        assertThat(Arrays.stream(day).sum())
                .as("two days ago is not in the last day")
                .isEqualTo(3);
        assertThat(view.newest()).extracting(TopicView.Summary::offset).containsExactly(2L, 1L, 0L, 3L);
    }

    @Test
    void aCountKeepsAtMostItsLimitOfKeysAndCountsTheRestAsOther() {
        TopicIndex index = new TopicIndex("t.dlq");
        for (int i = 0; i < TopicIndex.MAX_KEYS + 10; i++) {
            index.add(letter(i, NOW, "SURROGATE", "orders", "field" + i), NOW);
        }

        TopicView view = index.view(NOW);

        assertThat(view.byField()).hasSize(TopicIndex.MAX_KEYS + 1).containsEntry("(other)", 10L);
        assertThat(view.newest()).hasSize(TopicIndex.NEWEST);
    }

    @Test
    void hostileNamesFromKafkaAreTextOnEveryPage() {
        TopicIndex index = new TopicIndex("t.dlq");
        index.exists(true);
        index.add(letter(0, NOW, "<b>RULE</b>", "<script>x</script>", "\"><img src=x onerror=alert(1)>"), NOW);
        DeadLetter record = letter(0, NOW, "<b>RULE</b>", "<script>x</script>", "a\u202Eb");

        String overview = OverviewPage.render(List.of(index.view(NOW)), Optional.empty(), RateChart.Range.DAY, NOW);
        String page = RecordPage.render(record, 8, Map.of());

        for (String html : List.of(overview, page)) {
            assertThat(html)
                    .doesNotContain("<b>RULE")
                    .doesNotContain("<script>x")
                    .doesNotContain("<img")
                    .doesNotContain("\u202E")
                    .contains("&lt;script&gt;x&lt;/script&gt;");
        }
        assertThat(page).contains("a\\u202Eb").doesNotContain("&lt;own&gt;"); // own header values hidden
        assertThat(RecordPage.render(record, -1, Map.of())).contains("&lt;own&gt;");
    }

    /** Headers of the annotation's names that the record came with are its own, not the annotation. */
    @Test
    void theRecordsOwnHeadersOfAnnotationNamesAreNotTheAnnotation() {
        byte[] value = {'a', (byte) 0xFF};
        List<Header> own = List.of(
                PlainHeader.of(HeaderNames.OMITTED, DeadLetterAnnotation.OMITTED_ALL),
                PlainHeader.of(HeaderNames.FIELD, "forged.field"),
                PlainHeader.of(HeaderNames.CAUSE, "FORGED_CAUSE"));
        List<Header> headers = new DeadLetterAnnotation(8)
                .annotate(
                        own,
                        new Decision.DeadLetter<>(new Finding(Part.VALUE, DeadLetterRule.SURROGATE, 1, 1, 1, value), 1),
                        Policy.STRICT,
                        new DeadLetterAnnotation.Source("orders", 0, 5),
                        NOW.toEpochMilli());
        DeadLetter record = new DeadLetter(
                "t.dlq", 0, 5, NOW.toEpochMilli(), null, value, headers, DeadLetterHeaders.read(headers));

        String page = RecordPage.render(record, 8, Map.of());

        assertThat(page)
                .doesNotContain("A placeholder")
                .doesNotContain("forged.field")
                .doesNotContain("FORGED_CAUSE")
                .contains("SURROGATE");
        assertThat(RecordPage.render(record, -1, Map.of()))
                .as("shown with the payload, as the record's own")
                .contains("forged.field");
    }
}
