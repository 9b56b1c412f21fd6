package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of the records a {@link RecordFilter} chooses, in order of partition then offset, from a
 * {@link Cursor} on. It keeps only what {@code keep} makes of the page's records (never the records
 * read and passed over), and stops when the page is full or the {@link ScanBudget} is spent; the
 * cursor it gives then goes on from the first record not looked at, so that following the cursors
 * yields every chosen record once, in order, whatever the page size and budget.
 */
final class Pager {
    /** The page size unless one is asked for. */
    static final int DEFAULT_SIZE = 50;
    /** The largest page. */
    static final int MAX_SIZE = 200;
    /** The most records one page reads to fill itself. */
    static final long PAGE_SCAN = 20_000;
    /** The longest one page reads. */
    static final Duration PAGE_TIME = Duration.ofSeconds(5);

    private Pager() {}

    /**
     * @param rows what the page keeps of each chosen record
     * @param next where the next page starts; empty when every partition was read to its end
     * @param scanned records read for this page
     * @param budgetSpent whether the page stopped at the budget rather than being full or at the end
     */
    record Page<T>(List<T> rows, Optional<Cursor> next, long scanned, boolean budgetSpent) {}

    static <T> Page<T> page(
            PartitionReader reader,
            RecordFilter filter,
            Optional<Cursor> from,
            int size,
            ScanBudget budget,
            Function<DeadLetter, T> keep) {
        List<Integer> partitions = reader.partitions().stream()
                .filter(p -> filter.partition().isEmpty() || filter.partition().getAsInt() == p)
                .filter(p -> from.isEmpty() || p >= from.get().partition())
                .toList();
        List<T> rows = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i++) {
            int p = partitions.get(i);
            long end = reader.end(p);
            long at = first(reader, filter, p);
            if (from.isPresent() && from.get().partition() == p) {
                at = Math.max(at, from.get().offset());
            }
            while (at < end) {
                if (rows.size() == size) {
                    return new Page<>(rows, Optional.of(new Cursor(p, at)), budget.scanned(), false);
                }
                if (budget.timeUp()) {
                    return new Page<>(rows, Optional.of(new Cursor(p, at)), budget.scanned(), true);
                }
                PartitionReader.Batch batch = reader.read(p, at, end);
                for (DeadLetter record : batch.records()) {
                    if (record.offset() < at) {
                        continue; // a reader may give a record again; it was looked at
                    }
                    if (rows.size() == size) {
                        return new Page<>(rows, Optional.of(new Cursor(p, at)), budget.scanned(), false);
                    }
                    boolean chosen;
                    try {
                        if (!budget.take()) {
                            return new Page<>(rows, Optional.of(new Cursor(p, at)), budget.scanned(), true);
                        }
                        chosen = filter.matches(record, budget);
                    } catch (ScanBudget.Exhausted e) {
                        return new Page<>(rows, Optional.of(new Cursor(p, at)), budget.scanned(), true);
                    }
                    if (chosen) {
                        rows.add(keep.apply(record));
                    }
                    at = record.offset() + 1;
                }
                at = Math.max(at, Math.min(batch.next(), end));
            }
            if (rows.size() == size) {
                // Full at the end of a partition: go on from the next one that holds anything.
                Optional<Cursor> next = Optional.empty();
                for (int j = i + 1; j < partitions.size() && next.isEmpty(); j++) {
                    int q = partitions.get(j);
                    long start = first(reader, filter, q);
                    if (start < reader.end(q)) {
                        next = Optional.of(new Cursor(q, start));
                    }
                }
                return new Page<>(rows, next, budget.scanned(), false);
            }
        }
        return new Page<>(rows, Optional.empty(), budget.scanned(), false);
    }

    /** Where the read of {@code partition} starts: its start, or the first record at {@code since}. */
    private static long first(PartitionReader reader, RecordFilter filter, int partition) {
        long start = reader.start(partition);
        return filter.since().isPresent()
                ? Math.max(start, reader.offsetAt(partition, filter.since().get()))
                : start;
    }
}
