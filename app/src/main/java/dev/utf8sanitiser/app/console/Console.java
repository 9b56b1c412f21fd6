package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.DeadLetterTopics;
import dev.utf8sanitiser.app.dlq.Replay;
import dev.utf8sanitiser.app.dlq.ReplayRun;
import dev.utf8sanitiser.app.dlq.ReplaySender;
import dev.utf8sanitiser.app.dlq.TopicReader;
import dev.utf8sanitiser.config.ConsoleSettings;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.config.types.Password;

/**
 * What the console's pages are drawn from and act on: the {@link DlqIndex} of the dead-letter
 * topics, single records read on demand, and replays ({@link ReplayRun}, as {@code dlq replay}
 * runs them). Opened by {@code run} when {@code sanitiser.console.enabled} and by {@code dlq serve}.
 */
public final class Console implements AutoCloseable {
    private final SanitiserConfig settings;
    private final ConsoleSettings console;
    private final Optional<Password> token;
    private final Properties client;
    private final DlqIndex index;
    private final TopicReader reader;
    private final SchemaRegistryOwner registry;
    private final Map<Policy, RecordSanitiser> sanitisers = new EnumMap<>(Policy.class);
    private final Clock clock;
    private final List<String> fixed;
    private final KafkaPartitions pages;
    private final Object pagesLock = new Object();
    private final Map<String, Replayed> replayed = new HashMap<>();

    /** A replay log as last read, and when. */
    private record Replayed(Map<String, String> log, Instant at) {}

    /** How long a replay log read is used before it is read again. */
    static final Duration REPLAYED_FOR = Duration.ofSeconds(10);

    private Console(SanitiserConfig settings, Properties client, DlqIndex index, Clock clock, List<String> fixed) {
        this.settings = settings;
        this.fixed = fixed;
        this.console = settings.console();
        this.token = console.writeToken();
        this.client = client;
        this.index = index;
        this.reader = new TopicReader(client);
        this.registry = SchemaRegistryOwner.unchecked(settings);
        this.clock = clock;
        this.pages = new KafkaPartitions(client);
    }

    /**
     * A console of {@code topics}, or when none are given, of the configuration's dead-letter
     * topics (found again as topics matching an input pattern appear).
     *
     * @param client {@code bootstrap.servers} and the security settings
     * @throws java.io.UncheckedIOException the token file cannot be read
     */
    public static Console open(SanitiserConfig settings, Properties client, List<String> topics, Clock clock) {
        List<String> fixed = List.copyOf(topics);
        DlqIndex index = new DlqIndex(
                client, existing -> fixed.isEmpty() ? DeadLetterTopics.of(settings, existing) : fixed, clock);
        try {
            Console opened = new Console(settings, client, index, clock, fixed);
            index.start();
            return opened;
        } catch (RuntimeException e) {
            index.close();
            throw e;
        }
    }

    ConsoleSettings settings() {
        return console;
    }

    Clock clock() {
        return clock;
    }

    DlqIndex index() {
        return index;
    }

    /**
     * Whether {@code topic} is one of the dead-letter topics this console shows: one it was given,
     * or else the dead-letter topic of a listed input topic, or with an input pattern, of an
     * existing topic it matches (as the index last found them). Nothing else is read, however a
     * request names it.
     */
    boolean reads(String topic) {
        if (!fixed.isEmpty()) {
            return fixed.contains(topic);
        }
        if (settings.inputPattern().isEmpty()) {
            return DeadLetterTopics.ofListedInputs(settings).contains(topic);
        }
        return index.follows(topic);
    }

    /** Whether a replay can be asked for: a token is configured. */
    public boolean writable() {
        return token.isPresent();
    }

    /** Whether {@code offered} is the token, compared in constant time. */
    boolean tokenMatches(String offered) {
        return token.isPresent()
                && offered != null
                && MessageDigest.isEqual(
                        token.get().value().getBytes(StandardCharsets.UTF_8), offered.getBytes(StandardCharsets.UTF_8));
    }

    /** One dead-letter record, read now. */
    synchronized Optional<DeadLetter> record(String topic, int partition, long offset) {
        return reader.fetch(topic, partition, offset);
    }

    /** The configuration's sanitiser under {@code policy}: its payload format and content rules. */
    synchronized RecordSanitiser sanitiser(Policy policy) {
        return sanitisers.computeIfAbsent(
                policy, p -> ValueFormats.sanitiser(settings, ValueFormats.of(settings, registry), p));
    }

    /** What a replay of {@code record} under {@code policy} would send; nothing is sent. */
    Replay.Result preview(DeadLetter record, Policy policy) {
        return new Replay("(preview)", Optional.of(sanitiser(policy)), Map.of()).of(record);
    }

    /** Runs a replay (or a dry run) with a reader of its own, so that pages are not held up. */
    ReplayRun.Tally replay(ReplayRun run, Consumer<Replay.Result> each)
            throws ExecutionException, InterruptedException, TimeoutException {
        return replay(run, record -> true, each);
    }

    /** As {@link #replay(ReplayRun, Consumer)}, of the records {@code also} accepts too. */
    ReplayRun.Tally replay(ReplayRun run, Predicate<DeadLetter> also, Consumer<Replay.Result> each)
            throws ExecutionException, InterruptedException, TimeoutException {
        try (TopicReader own = new TopicReader(client)) {
            return run.run(settings, client, own, registry, also, each, (read, total) -> {}, () -> false);
        } finally {
            synchronized (replayed) {
                replayed.remove(run.topic()); // read again on the next page
            }
        }
    }

    /** Reads {@code topic} for one list or export; one such read at a time. */
    <T> T scan(String topic, Function<PartitionReader, T> read) {
        synchronized (pagesLock) {
            return read.apply(pages.of(topic));
        }
    }

    /**
     * The replay log of {@code topic}: the coordinates of each record replayed from it, with the
     * topic it went to; read again when older than {@link #REPLAYED_FOR} or after a replay.
     */
    Map<String, String> replayed(String topic) {
        synchronized (replayed) {
            Replayed last = replayed.get(topic);
            Instant now = clock.instant();
            if (last == null || !last.at().plus(REPLAYED_FOR).isAfter(now)) {
                Map<String, String> log;
                synchronized (this) {
                    log = ReplaySender.replayedBefore(reader, topic);
                }
                last = new Replayed(Map.copyOf(log), now);
                replayed.put(topic, last);
            }
            return last.log();
        }
    }

    /**
     * The topics a replay may go to, by name: every topic in the cluster but internal ones ({@code
     * __*}), the dead-letter topics this console shows and their replay logs.
     */
    List<String> targets() {
        Set<String> shown = new HashSet<>();
        index.views().forEach(v -> {
            shown.add(v.topic());
            shown.add(ReplaySender.logTopic(v.topic()));
        });
        return index.topicNames().stream()
                .filter(t -> !t.startsWith("__") && !shown.contains(t) && !reads(t))
                .sorted()
                .toList();
    }

    @Override
    public void close() {
        index.close();
        synchronized (this) {
            reader.close();
        }
        synchronized (pagesLock) {
            pages.close();
        }
        registry.close();
    }
}
