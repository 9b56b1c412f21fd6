package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.Stats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The counts of one dead-letter topic, kept by {@link DlqIndex}'s thread (under its lock): the
 * counts of {@code dlq stats}, the records a minute over the last day, the newest records'
 * summaries, and how far each partition is read. No payload is kept.
 */
final class TopicIndex {
    /** How many distinct rules, sources and field paths each count keeps. */
    static final int MAX_KEYS = 1_000;
    /** How many of the newest records a page lists. */
    static final int NEWEST = 50;

    static final Duration DAY = Duration.ofDays(1);

    private final String topic;
    private final Stats stats = new Stats(MAX_KEYS);
    private final NavigableMap<Long, Long> perMinute = new TreeMap<>();
    private final List<TopicView.Summary> newest = new ArrayList<>();
    private final Map<Integer, Long> positions = new HashMap<>();
    private final Map<Integer, Long> ends = new HashMap<>();
    private boolean exists;

    TopicIndex(String topic) {
        this.topic = topic;
    }

    void exists(boolean exists) {
        this.exists = exists;
    }

    void add(DeadLetter record, Instant now) {
        stats.add(record);
        if (record.timestamp() >= 0) {
            perMinute.merge(record.timestamp() / 60_000, 1L, Long::sum);
        }
        perMinute.headMap(now.minus(DAY).toEpochMilli() / 60_000, false).clear();
        newest.add(TopicView.Summary.of(record));
        if (newest.size() > 2 * NEWEST) {
            trimNewest();
        }
    }

    private void trimNewest() {
        newest.sort(Comparator.comparingLong(TopicView.Summary::timestamp)
                .thenComparingLong(TopicView.Summary::offset)
                .reversed());
        newest.subList(Math.min(NEWEST, newest.size()), newest.size()).clear();
    }

    void position(TopicPartition p, long position) {
        positions.put(p.partition(), position);
    }

    void end(TopicPartition p, long end) {
        ends.put(p.partition(), end);
    }

    TopicView view(Instant now) {
        trimNewest();
        long behind = 0;
        for (Map.Entry<Integer, Long> end : ends.entrySet()) {
            behind += Math.max(0, end.getValue() - positions.getOrDefault(end.getKey(), 0L));
        }
        long fromMinute = now.minus(DAY).toEpochMilli() / 60_000;
        return new TopicView(
                topic,
                exists,
                stats.records(),
                Map.copyOf(stats.byRule()),
                Map.copyOf(stats.bySource()),
                Map.copyOf(stats.byField()),
                stats.firstSeen(),
                stats.lastSeen(),
                Map.copyOf(perMinute.tailMap(fromMinute, true)),
                List.copyOf(newest),
                behind);
    }
}
