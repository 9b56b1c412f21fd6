package dev.utf8sanitiser.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.Finding;
import dev.utf8sanitiser.serdes.record.Part;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The list's model without Kafka: a {@link RecordFilter} over records of several partitions, with
 * gaps in their offsets (compaction, transaction markers), read in batches of any size, paged with
 * any page size and any budget. Following the cursors must yield every chosen record once, in order
 * of partition and offset, which a plain filter over all records (the oracle) gives.
 */
class PagerTest {
    private static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    private static final List<DeadLetterRule> RULES =
            List.of(DeadLetterRule.SURROGATE, DeadLetterRule.INVALID_BYTE, DeadLetterRule.TRUNCATED_AT_END);

    /** One partition's records: offsets with gaps, timestamps that do not go back (log-append time). */
    static final class Topic implements PartitionReader {
        final TreeMap<Integer, List<DeadLetter>> partitions = new TreeMap<>();
        final Map<Integer, Long> starts = new HashMap<>();
        final Map<Integer, Long> ends = new HashMap<>();
        final Random batches;
        int reads;

        Topic(long seed) {
            this.batches = new Random(seed);
        }

        @Override
        public List<Integer> partitions() {
            return List.copyOf(partitions.keySet());
        }

        @Override
        public long start(int partition) {
            return starts.get(partition);
        }

        @Override
        public long end(int partition) {
            return ends.get(partition);
        }

        @Override
        public long offsetAt(int partition, Instant time) {
            return partitions.get(partition).stream()
                    .filter(r -> r.timestamp() >= time.toEpochMilli())
                    .mapToLong(DeadLetter::offset)
                    .findFirst()
                    .orElse(end(partition));
        }

        @Override
        public Batch read(int partition, long from, long end) {
            reads++;
            int max = 1 + batches.nextInt(7);
            List<DeadLetter> out = new ArrayList<>();
            long next = from;
            for (DeadLetter r : partitions.get(partition)) {
                if (r.offset() >= from && r.offset() < end) {
                    if (out.size() == max) {
                        break;
                    }
                    out.add(r);
                    next = r.offset() + 1;
                }
            }
            if (out.isEmpty()) {
                next = end; // only gaps left
            } else if (out.size() < max) {
                next = Math.min(end, next + batches.nextInt(3)); // past markers after the last record
            }
            return new Batch(out, next);
        }

        List<DeadLetter> all() {
            return partitions.values().stream().flatMap(List::stream).toList();
        }
    }

    static DeadLetter letter(
            int partition, long offset, long timestamp, DeadLetterRule rule, String key, String trace) {
        List<Header> headers = new DeadLetterAnnotation(8)
                .annotate(
                        List.of(PlainHeader.of("traceparent", trace)),
                        new Decision.DeadLetter<>(
                                new Finding(Part.VALUE, Optional.empty(), rule, 1, 1, 1, new byte[] {'a', (byte) 0xFF}),
                                1),
                        Policy.STRICT,
                        new DeadLetterAnnotation.Source("orders", partition, offset * 3),
                        timestamp);
        Optional<DeadLetterHeaders> annotation = DeadLetterHeaders.read(headers);
        assertThat(annotation).isPresent();
        return new DeadLetter(
                "orders.dlq",
                partition,
                offset,
                timestamp,
                key.getBytes(StandardCharsets.UTF_8),
                new byte[] {'a', (byte) 0xFF},
                headers,
                annotation);
    }

    static Topic topic(long seed, int partitions, int perPartition) {
        Random random = new Random(seed);
        Topic topic = new Topic(seed);
        for (int p = 0; p < partitions; p++) {
            List<DeadLetter> records = new ArrayList<>();
            long start = random.nextInt(3) == 0 ? random.nextInt(50) : 0; // retention removed some
            long offset = start;
            long time = T0.toEpochMilli();
            int n = random.nextInt(perPartition + 1);
            for (int i = 0; i < n; i++) {
                offset += 1 + (random.nextInt(4) == 0 ? random.nextInt(5) : 0);
                time += random.nextInt(60_000);
                records.add(letter(
                        p,
                        offset,
                        time,
                        RULES.get(random.nextInt(RULES.size())),
                        "customer-" + random.nextInt(10),
                        "00-" + random.nextInt(5) + "-01"));
            }
            topic.partitions.put(p, records);
            topic.starts.put(p, start);
            topic.ends.put(p, offset + 1 + random.nextInt(3));
        }
        return topic;
    }

    @Provide
    Arbitrary<RecordFilter> filters() {
        Arbitrary<Map<String, String>> fields = Combinators.combine(
                        Arbitraries.of("", "SURROGATE", "INVALID_BYTE"),
                        Arbitraries.of("", "0", "2"),
                        Arbitraries.of("", "2026-11-27T10:10:00Z", "2026-11-27T10:30:00Z"),
                        Arbitraries.of("", "2026-11-27T11:00:00Z"),
                        Arbitraries.of("", "customer-[0-4]", "-7$"),
                        Arbitraries.of("", "traceparent=00-3", "__utf8\\.rule=SURROGATE"),
                        Arbitraries.of("", "orders", "orders-1"))
                .as((rule, partition, since, until, key, header, source) -> Map.of(
                        "rule", rule,
                        "partition", partition,
                        "since", since,
                        "until", until,
                        "key", key,
                        "header", header,
                        "source", source));
        return fields.map(f -> RecordFilter.of(f, T0));
    }

    @Property(tries = 300)
    void followingTheCursorsYieldsEveryChosenRecordOnceInOrder(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 4) int partitions,
            @ForAll @IntRange(min = 0, max = 40) int perPartition,
            @ForAll("filters") RecordFilter filter,
            @ForAll @IntRange(min = 1, max = 25) int size,
            @ForAll @IntRange(min = 1, max = 60) int budget) {
        Topic topic = topic(seed, partitions, perPartition);
        List<String> expected = topic.all().stream()
                .filter(r -> filter.since().isEmpty()
                        || r.offset()
                                >= topic.offsetAt(r.partition(), filter.since().get()))
                .filter(r -> filter.matches(r, new ScanBudget(1, Duration.ofMinutes(1))))
                .map(DeadLetter::coordinates)
                .toList();

        List<String> paged = new ArrayList<>();
        Optional<Cursor> at = Optional.empty();
        int pages = 0;
        do {
            Pager.Page<String> page = Pager.page(
                    topic, filter, at, size, new ScanBudget(budget, Duration.ofMinutes(1)), DeadLetter::coordinates);
            assertThat(page.rows().size()).isLessThanOrEqualTo(size);
            assertThat(page.scanned()).isLessThanOrEqualTo(budget);
            assertThat(page.rows().size() == size
                            || page.budgetSpent()
                            || page.next().isEmpty())
                    .as("a page stops only when full, at its budget or at the end")
                    .isTrue();
            paged.addAll(page.rows());
            at = page.next();
            assertThat(++pages).as("paging ends").isLessThan(10_000);
        } while (at.isPresent());

        assertThat(paged).containsExactlyElementsOf(expected);
    }

    @Test
    void aPageKeepsOnlyItsRowsAndReadsNoFurtherThanItNeeds() {
        Topic topic = topic(7, 1, 0);
        List<DeadLetter> records = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            records.add(letter(0, i, T0.toEpochMilli() + i, DeadLetterRule.SURROGATE, "k" + i, "00-1-01"));
        }
        topic.partitions.put(0, records);
        topic.starts.put(0, 0L);
        topic.ends.put(0, 1_000L);

        Pager.Page<String> page = Pager.page(
                topic,
                RecordFilter.ALL,
                Optional.of(new Cursor(0, 500)),
                10,
                new ScanBudget(100, Duration.ofMinutes(1)),
                DeadLetter::coordinates);

        assertThat(page.rows())
                .containsExactly(records.subList(500, 510).stream()
                        .map(DeadLetter::coordinates)
                        .toArray(String[]::new));
        assertThat(page.next()).contains(new Cursor(0, 510));
        assertThat(page.scanned()).isEqualTo(10);
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // unwatched: hours
    void aRegularExpressionThatBacktracksWithoutEndStopsAtTheDeadlineAndThePageGoesOnFromThatRecord() {
        Topic topic = topic(3, 1, 0);
        topic.partitions.put(
                0, List.of(letter(0, 0, T0.toEpochMilli(), DeadLetterRule.SURROGATE, "a".repeat(60) + "b", "t")));
        topic.starts.put(0, 0L);
        topic.ends.put(0, 1L);
        RecordFilter filter = RecordFilter.of(Map.of("key", "(.*a){25}c"), T0);

        long started = System.nanoTime();
        Pager.Page<String> page = Pager.page(
                topic,
                filter,
                Optional.empty(),
                10,
                new ScanBudget(100, Duration.ofMillis(300)),
                DeadLetter::coordinates);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(page.budgetSpent()).isTrue();
        assertThat(page.next()).contains(new Cursor(0, 0));
    }

    @Test
    void aFilterFieldThatCannotBeMeantIsRefusedWithWhy() {
        assertThatThrownBy(() -> RecordFilter.of(Map.of("key", "(unclosed"), T0))
                .isInstanceOf(RecordFilter.BadFilterException.class)
                .hasMessageStartingWith("key: not a regular expression");
        assertThatThrownBy(() -> RecordFilter.of(Map.of("since", "yesterday"), T0))
                .hasMessageContaining("is not an ISO-8601 time");
        assertThatThrownBy(() -> RecordFilter.of(Map.of("since", "2h", "until", "3h"), T0))
                .hasMessageContaining("must be before until");
        assertThatThrownBy(() -> RecordFilter.of(Map.of("partition", "-1"), T0))
                .hasMessageContaining("not a partition number");
        assertThatThrownBy(() -> RecordFilter.of(Map.of("header", "x".repeat(201)), T0))
                .hasMessageContaining("at most 200 characters");
        assertThatThrownBy(() -> Cursor.parse("0@-1")).hasMessageContaining("is not PARTITION@OFFSET");
        assertThatThrownBy(() -> Cursor.parse("99999999999@1")).hasMessageContaining("is not PARTITION@OFFSET");
        assertThat(RecordFilter.of(Map.of("since", "15m"), T0).since()).contains(T0.minus(Duration.ofMinutes(15)));
        assertThat(RecordFilter.of(Map.of("since", "2026-11-27T09:00"), T0).since())
                .contains(Instant.parse("2026-11-27T09:00:00Z"));
    }

    @Test
    void timesShowHowLongAgo() {
        assertThat(Times.ago(T0.minusSeconds(180), T0)).isEqualTo("3 min ago");
        assertThat(Times.ago(T0.minusSeconds(2), T0)).isEqualTo("just now");
        assertThat(Times.ago(T0.minus(Duration.ofHours(5)), T0)).isEqualTo("5 h ago");
        assertThat(Times.ago(T0.plusSeconds(120), T0)).isEqualTo("in 2 min");
    }
}
