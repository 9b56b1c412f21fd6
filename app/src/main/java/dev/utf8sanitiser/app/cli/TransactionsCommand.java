package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.transactions.CoordinatorView;
import dev.utf8sanitiser.app.transactions.HangingThreshold;
import dev.utf8sanitiser.app.transactions.HangingTransaction;
import dev.utf8sanitiser.app.transactions.HangingTransactionFinder;
import dev.utf8sanitiser.app.transactions.SanitiserTopics;
import dev.utf8sanitiser.config.SanitiserConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code transactions find-hanging|abort}: finds and aborts transactions that hold the sanitiser's
 * output or dead-letter partitions (docs/reliability.md, "A hanging transaction").
 */
@Command(
        name = "transactions",
        mixinStandardHelpOptions = true,
        description = "Find and abort hanging transactions on the sanitiser's output and dead-letter topics.",
        subcommands = {TransactionsCommand.FindHanging.class, TransactionsCommand.Abort.class})
final class TransactionsCommand {
    private TransactionsCommand() {}

    /** The configuration, which must name a broker: there is no embedded one to ask. */
    abstract static class WithConfig implements Callable<Integer> {
        @Option(names = "--config", required = true, paramLabel = "FILE", description = "A properties file.")
        Path config;

        final Io io;

        WithConfig(Io io) {
            this.io = io;
        }

        abstract int call(SanitiserConfig settings, Admin admin, PrintStream out) throws Exception;

        @Override
        public Integer call() throws Exception {
            Optional<SanitiserConfig> loaded = CommandConfig.loadWithCluster(io, "transactions", config);
            if (loaded.isEmpty()) {
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            SanitiserConfig settings = loaded.get();
            PrintStream out = new PrintStream(io.out(), true, "UTF-8");
            try (Admin admin = Admin.create(SanitiserApplication.adminProperties(settings.streamsProperties()))) {
                int exit = call(settings, admin, out);
                out.flush();
                return exit;
            }
        }
    }

    @Command(
            name = "find-hanging",
            mixinStandardHelpOptions = true,
            description = {
                "List open transactions that have held an output or dead-letter partition's last stable"
                        + " offset for longer than the transaction timeout.",
                "Exit 0 when there are none, 1 when some are found, 2 for a bad configuration."
            })
    static final class FindHanging extends WithConfig {
        @Option(
                names = "--older-than",
                paramLabel = "DURATION",
                description = "How long ago a producer's last record must be stamped (ISO-8601, e.g. PT60S);"
                        + " by default the transaction timeout (transaction.timeout.ms, 10 s unless set) plus the"
                        + " brokers' abort scan interval and twice their session timeout, 38 s with Kafka's"
                        + " defaults.")
        Duration olderThan;

        FindHanging(Io io) {
            super(io);
        }

        @Override
        int call(SanitiserConfig settings, Admin admin, PrintStream out) throws Exception {
            Duration threshold = olderThan != null
                    ? olderThan
                    : HangingThreshold.read(admin, SanitiserTopics.transactionTimeout(settings.streamsProperties()))
                            .threshold();
            List<String> topics = SanitiserTopics.written(admin, settings);
            List<HangingTransaction> hanging =
                    new HangingTransactionFinder(admin, threshold, Clock.systemUTC()).find(topics);
            if (hanging.isEmpty()) {
                out.println("No hanging transaction on " + topics.size() + " topics (older than " + threshold.toMillis()
                        + " ms).");
                return ExitCode.OK;
            }
            out.println("topic\tpartition\tproducer-id\tproducer-epoch\tstart-offset\tage-ms\tlast-stable-offset"
                    + "\thigh-watermark");
            for (HangingTransaction t : hanging) {
                out.println(t.partition().topic() + "\t" + t.partition().partition() + "\t" + t.producerId() + "\t"
                        + t.producerEpoch() + "\t" + t.startOffset() + "\t"
                        + t.age().toMillis() + "\t"
                        + t.lastStableOffset() + "\t" + t.highWatermark());
            }
            out.println(hanging.size() + " hanging; to release one: utf8-sanitiser transactions abort --config "
                    + config + " --topic T --partition P --producer-id ID --yes");
            return ExitCode.ILL_FORMED;
        }
    }

    @Command(
            name = "abort",
            mixinStandardHelpOptions = true,
            description = {
                "Abort the open transaction of a producer on one partition (writes the abort marker).",
                "Without --yes it prints what it would do and does nothing.",
                "Exit 0 when done (or shown), 2 when that producer has no open transaction there."
            })
    static final class Abort extends WithConfig {
        @Option(names = "--topic", required = true, paramLabel = "T")
        String topic;

        @Option(names = "--partition", required = true, paramLabel = "P")
        int partition;

        @Option(names = "--producer-id", required = true, paramLabel = "ID")
        long producerId;

        @Option(names = "--yes", description = "Abort it; without this, only say what would be aborted.")
        boolean yes;

        Abort(Io io) {
            super(io);
        }

        @Override
        int call(SanitiserConfig settings, Admin admin, PrintStream out) throws Exception {
            TopicPartition tp = new TopicPartition(topic, partition);
            Optional<ProducerState> open =
                    admin.describeProducers(List.of(tp)).partitionResult(tp).get().activeProducers().stream()
                            .filter(p -> p.producerId() == producerId)
                            .filter(p -> p.currentTransactionStartOffset().isPresent())
                            .findFirst();
            if (open.isEmpty()) {
                io.err()
                        .println("utf8-sanitiser: transactions: abort: producer id " + producerId
                                + " has no open transaction on " + tp);
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            ProducerState state = open.get();
            CoordinatorView coordinator = CoordinatorView.of(admin, tp, producerId);
            if (coordinator.committing()) {
                io.err()
                        .println("utf8-sanitiser: transactions: abort: refused: " + coordinator.describe()
                                + "; it is writing the commit markers, and aborting " + tp
                                + " would discard records whose input offsets are committed with them."
                                + " Check that every broker is up and every partition has a leader.");
                return ExitCode.USAGE_OR_UNREADABLE;
            }
            AbortTransactionSpec spec = new AbortTransactionSpec(
                    tp,
                    producerId,
                    (short) state.producerEpoch(),
                    state.coordinatorEpoch().orElse(-1));
            String what = "the transaction of producer id " + producerId + " (epoch " + state.producerEpoch()
                    + ") on " + tp + ", open since offset "
                    + state.currentTransactionStartOffset().getAsLong();
            if (!yes) {
                out.println("Would abort " + what + " (" + coordinator.describe() + "). Nothing done; add --yes to"
                        + " abort it.");
                return ExitCode.OK;
            }
            admin.abortTransaction(spec).all().get();
            out.println("Aborted " + what + ".");
            return ExitCode.OK;
        }
    }
}
