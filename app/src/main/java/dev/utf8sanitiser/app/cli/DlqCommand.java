package dev.utf8sanitiser.app.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.DeadLetterTopics;
import dev.utf8sanitiser.app.dlq.Foreign;
import dev.utf8sanitiser.app.dlq.Inspection;
import dev.utf8sanitiser.app.dlq.Replay;
import dev.utf8sanitiser.app.dlq.ReplayRun;
import dev.utf8sanitiser.app.dlq.ReplaySender;
import dev.utf8sanitiser.app.dlq.Selection;
import dev.utf8sanitiser.app.dlq.Stats;
import dev.utf8sanitiser.app.dlq.TopicReader;
import dev.utf8sanitiser.config.Nearest;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dlq stats|inspect}: what is in the sanitiser's dead-letter topics, and why (docs/cli.md;
 * the DLQ runbook in docs/operations.md).
 */
@Command(
        name = "dlq",
        mixinStandardHelpOptions = true,
        description = "See what is in the sanitiser's dead-letter topics, replay them, or serve the DLQ console.",
        subcommands = {
            DlqCommand.StatsCommand.class,
            DlqCommand.InspectCommand.class,
            DlqCommand.ReplayCommand.class,
            DlqServeCommand.class
        })
final class DlqCommand {
    private DlqCommand() {}

    /** What every {@code dlq} command takes: the configuration, the topics and the time to read from. */
    abstract static class Reading implements Callable<Integer> {
        @Option(
                names = "--config",
                required = true,
                paramLabel = "FILE",
                description = "The properties file of `run`: bootstrap.servers, security settings, and"
                        + " sanitiser.dlq.topic for the default topics; environment overrides apply.")
        Path config;

        @Option(
                names = "--topic",
                paramLabel = "T",
                description = "A dead-letter topic to read (repeatable); by default the dead-letter topic of"
                        + " each input topic the configuration lists.")
        List<String> topics;

        @Option(
                names = "--since",
                paramLabel = "DURATION|TIMESTAMP",
                description = "Only records written since then: a duration back from now (90s, 15m, 2h, 7d,"
                        + " ISO-8601 PT2H) or an instant (2026-11-24T10:00:00Z).")
        String since;

        final Io io;

        Reading(Io io) {
            this.io = io;
        }

        /** The command's work, once the configuration is loaded and the topics are known. */
        abstract int call(SanitiserConfig settings, Records records, PrintStream out) throws Exception;

        @Override
        public Integer call() throws Exception {
            String name = "dlq " + getClass().getAnnotation(Command.class).name();
            Optional<SanitiserConfig> loaded = CommandConfig.loadWithCluster(io, name, config);
            if (loaded.isEmpty()) {
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            SanitiserConfig settings = loaded.get();
            List<String> chosen =
                    topics != null && !topics.isEmpty() ? topics : DeadLetterTopics.ofListedInputs(settings);
            if (chosen.isEmpty()) {
                io.err()
                        .println("utf8-sanitiser: " + name + ": name the dead-letter topic with --topic (the"
                                + " configuration reads a pattern of input topics)");
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            Optional<Instant> from;
            try {
                from = since == null ? Optional.empty() : Optional.of(Since.parse(since, Instant.now()));
            } catch (IllegalArgumentException e) {
                io.err().println("utf8-sanitiser: " + name + ": " + e.getMessage());
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            PrintStream out = new PrintStream(io.out(), false, "UTF-8");
            try (TopicReader reader =
                    new TopicReader(SanitiserApplication.adminProperties(settings.streamsProperties()))) {
                int exit = call(settings, new Records(reader, chosen, from, io), out);
                out.flush();
                return exit;
            } catch (TopicReader.TopicException e) {
                out.flush();
                io.err().println("utf8-sanitiser: " + name + ": " + e.getMessage());
                return ExitCode.USAGE_OR_UNREADABLE;
            }
        }
    }

    /** The filters {@code inspect} and {@code replay} share. */
    static final class Filters {
        @Option(names = "--rule", paramLabel = "R", description = "Only records dead-lettered under this rule.")
        String rule;

        @Option(
                names = "--source",
                paramLabel = "TOPIC[-P[@OFFSET]]",
                description = "Only records read from this topic, partition or offset.")
        String source;

        @Option(names = "--field", paramLabel = "PATH", description = "Only records whose finding is in this field.")
        String field;

        @Option(
                names = "--producer",
                paramLabel = "P",
                description = "Only records this tool dead-lettered: utf8-sanitiser, kafka-streams, kafka-connect,"
                        + " spring-kafka or confluent-rule.")
        String producer;

        /**
         * The selection over the dead-letter topics {@code dlqTopics}, or null after saying what is
         * wrong with it: a rule this version does not name (a typo would match nothing and look like
         * an empty topic), or a source that is one of the dead-letter topics read (the coordinates
         * on a record's first line are the dead-letter topic's; {@code --source} takes the source
         * record's, on its {@code source} line).
         */
        Selection selection(Io io, String command, List<String> dlqTopics) {
            try {
                if (rule != null && DeadLetterRule.named(rule).isEmpty()) {
                    throw new IllegalArgumentException("no rule is named '" + rule + "'"
                            + Nearest.to(rule.toUpperCase(Locale.ROOT), DeadLetterRule.spellings(), 4)
                                    .map(nearest -> "; did you mean " + nearest + "?")
                                    .orElse("")
                            + " (the rules: docs/rules.md, and `dlq stats` for those in the topic)");
                }
                Optional<Selection.Source> from = Optional.ofNullable(source).map(Selection.Source::parse);
                if (from.isPresent() && dlqTopics.contains(from.get().topic())) {
                    throw new IllegalArgumentException("--source takes the coordinates of the record the"
                            + " sanitiser read (a record's `source` line), not of the dead-letter topic "
                            + from.get().topic() + " itself");
                }
                if (producer != null
                        && !producer.equals(Selection.SANITISER)
                        && !Foreign.Producer.labels().contains(producer)) {
                    throw new IllegalArgumentException("no producer is named '" + producer + "' (the producers: "
                            + Selection.SANITISER + ", " + String.join(", ", Foreign.Producer.labels()) + ")");
                }
                return new Selection(
                        Optional.ofNullable(rule), from, Optional.ofNullable(field), Optional.ofNullable(producer));
            } catch (IllegalArgumentException e) {
                io.err().println("utf8-sanitiser: dlq " + command + ": " + e.getMessage());
                return null;
            }
        }
    }

    /** The records of the chosen topics, each topic read once, with progress on a terminal. */
    static final class Records {
        private final TopicReader reader;
        private final List<String> topics;
        private final Optional<Instant> since;
        private final Io io;

        Records(TopicReader reader, List<String> topics, Optional<Instant> since, Io io) {
            this.reader = reader;
            this.topics = List.copyOf(topics);
            this.since = since;
            this.io = io;
        }

        List<String> topics() {
            return topics;
        }

        TopicReader reader() {
            return reader;
        }

        Optional<Instant> since() {
            return since;
        }

        /** Calls {@code each} for every record, topic by topic, until it returns false. */
        void read(Predicate<DeadLetter> each) {
            for (String topic : topics) {
                RecordProgress progress = new RecordProgress(io, topic);
                boolean toTheEnd = reader.read(topic, since, each, progress::update);
                progress.clear();
                if (!toTheEnd) {
                    return;
                }
            }
        }
    }

    @Command(
            name = "stats",
            mixinStandardHelpOptions = true,
            description = {
                "Count the dead letters by producer (the sanitiser, Kafka Streams, Kafka Connect, Spring Kafka,"
                        + " Confluent's rule action), by rule, by error, by source topic and partition, by"
                        + " field path and by hour, with the first and last seen.",
                "Exit 0; 2 for a bad configuration, an unknown topic or brokers that cannot be reached."
            })
    static final class StatsCommand extends Reading {
        @Option(names = "--json", description = "One JSON document instead of tables.")
        boolean json;

        StatsCommand(Io io) {
            super(io);
        }

        @Override
        int call(SanitiserConfig settings, Records records, PrintStream out) throws IOException {
            Stats stats = new Stats();
            records.read(record -> {
                stats.add(record);
                return true;
            });
            if (json) {
                out.flush();
                stats.writeJson(out, records.topics());
            } else {
                stats.printTable(out, String.join(", ", records.topics()));
            }
            return ExitCode.OK;
        }
    }

    @Command(
            name = "inspect",
            mixinStandardHelpOptions = true,
            description = {
                "Show dead letters one by one: where they are and came from, the rule, the part, the field"
                        + " and the byte offset, and a hex dump with the ill-formed bytes marked (in colour on"
                        + " a terminal, in brackets otherwise) beside the text.",
                "Exit 0; 2 for a bad configuration, an unknown topic or brokers that cannot be reached."
            })
    static final class InspectCommand extends Reading {
        @Mixin
        Filters filters;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "20",
                description = "Show at most N records (default ${DEFAULT-VALUE}; 0 for all).")
        int limit;

        @Option(
                names = "--bytes",
                paramLabel = "N",
                defaultValue = "64",
                description = "Bytes shown either side of the ill-formed run (default ${DEFAULT-VALUE}; -1 for"
                        + " the whole part).")
        int around;

        @Option(names = "--json", description = "One JSON object a line (JSON Lines), the part's bytes in hex.")
        boolean json;

        @Option(
                names = "--colour",
                paramLabel = "WHEN",
                defaultValue = "auto",
                description = "Mark the ill-formed bytes in colour: auto (on a terminal), always, never.")
        Colour colour;

        InspectCommand(Io io) {
            super(io);
        }

        @Override
        int call(SanitiserConfig settings, Records records, PrintStream out) throws IOException {
            Selection selection = filters.selection(
                    io, getClass().getAnnotation(Command.class).name(), records.topics());
            if (selection == null) {
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            Inspection inspection = new Inspection(colour.on(io), around);
            JsonGenerator generator = json
                    // No root value separator: each object on a line of its own, nothing before it.
                    ? new JsonFactory()
                            .setRootValueSeparator(null)
                            .createGenerator(out)
                            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                    : null;
            AtomicLong shown = new AtomicLong();
            records.read(record -> {
                if (!selection.matches(record)) {
                    return true;
                }
                if (generator != null) {
                    try {
                        Inspection.write(generator, record);
                        generator.flush();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    out.print('\n');
                } else {
                    inspection.print(out, record);
                }
                return limit <= 0 || shown.incrementAndGet() < limit;
            });
            if (generator != null) {
                generator.close();
            } else if (shown.get() == 0) {
                out.println("No dead letters" + (selection.isAll() ? "" : " match") + " in "
                        + String.join(", ", records.topics()) + ".");
            }
            return ExitCode.OK;
        }
    }

    @Command(
            name = "replay",
            mixinStandardHelpOptions = true,
            description = {
                "Send the chosen dead letters to a topic, as they are or under a policy, exactly once: each"
                        + " record and its entry in the replay log (<dlq>.replayed) in one transaction, and a"
                        + " record the log holds is not sent again unless --allow-repeat.",
                "Exit 0 when every chosen record was sent (or had been before), 1 when some are still"
                        + " rejected under the policy, quarantined or refused, 2 for a bad configuration, an unknown topic or brokers"
                        + " that cannot be reached."
            })
    static final class ReplayCommand extends Reading {
        @Option(names = "--to", paramLabel = "TOPIC", description = "Where to send them.")
        String to;

        @Option(
                names = "--to-source",
                description = "Send each record to the topic it was read from, as its annotation names it (the"
                        + " sanitiser's, or Kafka Streams', Kafka Connect's, Spring Kafka's or Confluent's);"
                        + " instead of --to.")
        boolean toSource;

        @Mixin
        Filters filters;

        @Option(
                names = "--policy",
                paramLabel = "POLICY",
                description = "Sanitise each record again under strict, replace or repair, with the configuration's"
                        + " payload format and content rules; without it records are sent as they are.")
        ReplayPolicy policy;

        @Option(names = "--dry-run", description = "Say what would be sent where, and send nothing.")
        boolean dryRun;

        @Option(names = "--allow-repeat", description = "Send records the replay log says were sent before.")
        boolean allowRepeat;

        @Option(
                names = "--max-replays",
                paramLabel = "N",
                defaultValue = "" + Replay.DEFAULT_MAX_REPLAYS,
                description = "Do not send a record that was replayed N times already and came back each time"
                        + " (its __utf8.replay.count); default ${DEFAULT-VALUE}.")
        int maxReplays;

        @Option(
                names = "--max-rate",
                paramLabel = "RECORDS_PER_SECOND",
                defaultValue = "0",
                description = "Send at most this many records a second, so that a replay cannot starve the"
                        + " target topic's own producers; 0 (the default) for as fast as the brokers take them.")
        double maxRate;

        ReplayCommand(Io io) {
            super(io);
        }

        @Override
        int call(SanitiserConfig settings, Records records, PrintStream out) throws Exception {
            Selection selection = filters.selection(
                    io, getClass().getAnnotation(Command.class).name(), records.topics());
            if (selection == null) {
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            if (!(maxRate >= 0) || Double.isInfinite(maxRate) || maxReplays < 1) {
                io.err()
                        .println("utf8-sanitiser: dlq replay: --max-rate takes a number of records a second, 0 for"
                                + " no limit, and --max-replays a count of 1 or more");
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            if ((to == null) == !toSource) {
                io.err()
                        .println(
                                "utf8-sanitiser: dlq replay: name where to send the records: --to TOPIC or --to-source");
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            String where = toSource ? "their source topics" : to;
            if (records.topics().size() != 1) {
                io.err()
                        .println("utf8-sanitiser: dlq replay: replay one dead-letter topic at a time: name it with"
                                + " --topic (the configuration has " + records.topics() + ")");
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            String topic = records.topics().get(0);
            Properties client = SanitiserApplication.adminProperties(settings.streamsProperties());
            ReplayRun run = new ReplayRun(
                    topic,
                    records.since(),
                    selection,
                    Optional.ofNullable(to),
                    Optional.ofNullable(policy).map(p -> p.policy),
                    dryRun,
                    allowRepeat,
                    maxReplays,
                    maxRate);
            ReplayRun.Tally tally;
            RecordProgress progress = new RecordProgress(io, topic);
            // Ctrl-C or SIGTERM: stop before the next record, commit what was sent, say so.
            StopRequest stop = new StopRequest();
            Signals.onTerminate(stop::request);
            try (SchemaRegistryOwner registry = SchemaRegistryOwner.unchecked(settings)) {
                tally = run.run(
                        settings,
                        client,
                        records.reader(),
                        registry,
                        result -> {
                            String coordinates = result.record().coordinates();
                            if (result instanceof Replay.Send send) {
                                out.println((dryRun ? "would send " : "sent ") + coordinates + " -> "
                                        + send.out().topic() + " ("
                                        + send.what() + ")");
                            } else if (result instanceof Replay.Skip skip) {
                                out.println("skipped " + coordinates + ": " + skip.reason());
                            }
                        },
                        progress::update,
                        stop::isRequested);
            } catch (ReplayRun.NoTargetException e) {
                io.err().println("utf8-sanitiser: dlq replay: " + e.getMessage());
                return ExitCode.USAGE_OR_UNREADABLE;
            } finally {
                progress.clear();
            }
            if (tally.stopped()) {
                out.println("Stopped on request after " + tally.chosen() + " chosen records: "
                        + (dryRun
                                ? "nothing was sent."
                                : tally.sent() + " sent and committed, with their entries in "
                                        + ReplaySender.logTopic(topic) + "; run the replay again to send the rest."));
                out.flush();
                io.err()
                        .println("utf8-sanitiser: dlq replay: stopped on request; " + tally.sent() + " records"
                                + (dryRun ? " would have been" : " were") + " sent to " + where);
                return ExitCode.INTERRUPTED;
            }
            out.println((dryRun ? "Dry run: would send " : "Sent ") + tally.sent() + " of " + tally.chosen()
                    + " chosen records from " + topic + " to " + where + "; "
                    + tally.skipped(Replay.Why.REPLAYED_BEFORE) + " replayed before, "
                    + tally.skipped(Replay.Why.STILL_REJECTED) + " still rejected, "
                    + tally.skipped(Replay.Why.PLACEHOLDER) + " placeholders, "
                    + tally.skipped(Replay.Why.QUARANTINED) + " quarantined, "
                    + (tally.skipped(Replay.Why.NO_SOURCE) + tally.skipped(Replay.Why.REFUSED))
                    + " refused."
                    + (dryRun ? " Nothing was sent." : ""));
            return tally.skipped(Replay.Why.STILL_REJECTED)
                                    + tally.skipped(Replay.Why.QUARANTINED)
                                    + tally.skipped(Replay.Why.NO_SOURCE)
                                    + tally.skipped(Replay.Why.REFUSED)
                            > 0
                    ? ExitCode.ILL_FORMED
                    : ExitCode.OK;
        }
    }

    /** The policies a replay can apply. */
    enum ReplayPolicy {
        strict(Policy.STRICT),
        replace(Policy.REPLACE),
        repair(Policy.REPAIR);

        final Policy policy;

        ReplayPolicy(Policy policy) {
            this.policy = policy;
        }
    }

    /** When {@code inspect} marks bytes in colour rather than brackets. */
    enum Colour {
        auto,
        always,
        never;

        boolean on(Io io) {
            return this == always || (this == auto && io.stderrIsTerminal() && Terminal.isTerminal(1));
        }
    }

    /** A one-line count of the records read, on a terminal's stderr only, redrawn five times a second. */
    private static final class RecordProgress {
        private static final long REDRAW_NANOS = 200_000_000L;
        private final Io io;
        private final String topic;
        private long lastDraw = System.nanoTime();
        private boolean drawn;

        RecordProgress(Io io, String topic) {
            this.io = io;
            this.topic = topic;
        }

        void update(long read, long total) {
            long now = System.nanoTime();
            if (!io.stderrIsTerminal() || now - lastDraw < REDRAW_NANOS) {
                return; // nothing for a pipe, and nothing for a read that ends at once
            }
            lastDraw = now;
            drawn = true;
            io.err().print(String.format(Locale.ROOT, "\rreading %s: %,d of %,d records", topic, read, total));
            io.err().flush();
        }

        void clear() {
            if (drawn) {
                io.err().print("\r\033[K");
                io.err().flush();
            }
        }
    }
}
