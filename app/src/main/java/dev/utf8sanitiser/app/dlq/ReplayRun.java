package dev.utf8sanitiser.app.dlq;

import com.google.common.util.concurrent.RateLimiter;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;

/**
 * One replay of a dead-letter topic, the same for {@code dlq replay} and the console: reads the
 * topic once, chooses by a {@link Selection}, decides each record with {@link Replay} and, unless it
 * is a dry run, sends with {@link ReplaySender} (exactly once, and never twice without {@code
 * allowRepeat}).
 *
 * @param to the topic to send every record to; empty to send each to the topic it was read from
 *     ({@link Replay})
 * @param policy empty to send records as they are
 * @param maxReplays how often a record may be replayed and come back ({@link Replay})
 * @param maxRate records sent a second at most, so that a replay cannot starve the target's other
 *     producers; 0 for no limit
 */
public record ReplayRun(
        String topic,
        Optional<Instant> since,
        Selection selection,
        Optional<String> to,
        Optional<Policy> policy,
        boolean dryRun,
        boolean allowRepeat,
        int maxReplays,
        double maxRate) {

    /** A replay with the default limit of replays a record ({@link Replay#DEFAULT_MAX_REPLAYS}). */
    public ReplayRun(
            String topic,
            Optional<Instant> since,
            Selection selection,
            String to,
            Optional<Policy> policy,
            boolean dryRun,
            boolean allowRepeat) {
        this(topic, since, selection, Optional.of(to), policy, dryRun, allowRepeat, Replay.DEFAULT_MAX_REPLAYS, 0);
    }

    /** What a replay did. */
    public static final class Tally {
        private long chosen;
        private long sent;
        private final Map<Replay.Why, Long> skipped = new EnumMap<>(Replay.Why.class);
        private boolean stopped;

        void add(Replay.Result result) {
            chosen++;
            if (result instanceof Replay.Send) {
                sent++;
            } else if (result instanceof Replay.Skip skip) {
                skipped.merge(skip.why(), 1L, Long::sum);
            }
        }

        public long chosen() {
            return chosen;
        }

        /** Sent, or in a dry run, would be sent. */
        public long sent() {
            return sent;
        }

        public long skipped(Replay.Why why) {
            return skipped.getOrDefault(why, 0L);
        }

        /** Whether the replay stopped on request before the end of the topic; what was sent is committed. */
        public boolean stopped() {
            return stopped;
        }
    }

    /** The target topic does not exist: nothing was read or sent. */
    public static final class NoTargetException extends RuntimeException {
        NoTargetException(String to) {
            super("no topic " + to + " to replay to");
        }
    }

    /**
     * Runs the replay, calling {@code each} with every chosen record's result as it goes and
     * {@code progress} with the records read of the topic.
     *
     * @throws NoTargetException the topic to replay to does not exist
     * @throws TopicReader.TopicException the dead-letter topic cannot be read
     */
    public Tally run(
            SanitiserConfig settings,
            Properties client,
            TopicReader reader,
            SchemaRegistryOwner registry,
            Consumer<Replay.Result> each,
            TopicReader.ProgressListener progress)
            throws ExecutionException, InterruptedException, TimeoutException {
        return run(settings, client, reader, registry, each, progress, () -> false);
    }

    /**
     * As {@link #run(SanitiserConfig, Properties, TopicReader, SchemaRegistryOwner, Consumer,
     * TopicReader.ProgressListener)}, stopping before the next record once {@code stop} says so: the
     * records sent until then are committed with their replay log entries, and the tally says it
     * {@link Tally#stopped()}.
     */
    public Tally run(
            SanitiserConfig settings,
            Properties client,
            TopicReader reader,
            SchemaRegistryOwner registry,
            Consumer<Replay.Result> each,
            TopicReader.ProgressListener progress,
            BooleanSupplier stop)
            throws ExecutionException, InterruptedException, TimeoutException {
        return run(settings, client, reader, registry, record -> true, each, progress, stop);
    }

    /**
     * As {@link #run(SanitiserConfig, Properties, TopicReader, SchemaRegistryOwner, Consumer,
     * TopicReader.ProgressListener, BooleanSupplier)}, choosing only the records that {@code also}
     * accepts besides the {@link #selection()} (the console's filters and ticked records).
     */
    public Tally run(
            SanitiserConfig settings,
            Properties client,
            TopicReader reader,
            SchemaRegistryOwner registry,
            Predicate<DeadLetter> also,
            Consumer<Replay.Result> each,
            TopicReader.ProgressListener progress,
            BooleanSupplier stop)
            throws ExecutionException, InterruptedException, TimeoutException {
        // The dead-letter topic first: a name that is not there, or brokers that do not answer
        // within the reader's 15 s, stop the replay before anything is created (the replay log).
        reader.requireTopic(topic);
        Admin admin = Admin.create(client);
        try {
            Set<String> topics;
            try {
                topics = admin.listTopics().names().get(TopicReader.BROKER_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw reader.unreachable();
            }
            if (to.isPresent() && !topics.contains(to.get())) {
                throw new NoTargetException(to.get());
            }
            Optional<RecordSanitiser> sanitiser =
                    policy.map(p -> ValueFormats.sanitiser(settings, ValueFormats.of(settings, registry), p));
            Map<String, String> before = allowRepeat ? Map.of() : ReplaySender.replayedBefore(reader, topic);
            Replay replay = new Replay(to, sanitiser, before, maxReplays);
            Tally tally = new Tally();
            ReplaySender sender = dryRun ? null : ReplaySender.open(client, admin, topic);
            RateLimiter pace = maxRate > 0 && !dryRun ? RateLimiter.create(maxRate) : null;
            try {
                reader.read(
                        topic,
                        since,
                        record -> {
                            if (stop.getAsBoolean()) {
                                tally.stopped = true;
                                return false;
                            }
                            if (selection.matches(record) && also.test(record)) {
                                Replay.Result result = Replay.existing(replay.of(record), topics);
                                tally.add(result);
                                if (sender != null && result instanceof Replay.Send send) {
                                    if (pace != null) {
                                        pace.acquire();
                                    }
                                    sender.send(send);
                                }
                                each.accept(result);
                            }
                            return true;
                        },
                        progress);
                if (sender != null) {
                    sender.finish();
                }
            } finally {
                if (sender != null) {
                    sender.close();
                }
            }
            return tally;
        } finally {
            // Not Admin's close(), which waits out a call to brokers that do not answer for its
            // whole default.api.timeout.ms (a minute): nothing of the admin's is pending by now but
            // such a call, whose answer no longer matters.
            admin.close(Duration.ofSeconds(1));
        }
    }
}
