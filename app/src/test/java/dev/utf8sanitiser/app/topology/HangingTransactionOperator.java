package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.transactions.CoordinatorView;
import dev.utf8sanitiser.app.transactions.HangingTransaction;
import dev.utf8sanitiser.app.transactions.HangingTransactionFinder;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;

/**
 * What an operator does for a hanging transaction (docs/reliability.md): Kafka, not the sanitiser,
 * leaves one now and then (after a broker bounce, or a killed producer on a loaded machine), and a
 * {@code read_committed} reader then waits for good. The tests that wait for every record play the
 * operator: check that the sanitiser's own monitor reported the transaction, then abort it. Their
 * accounting still requires every record exactly once.
 */
final class HangingTransactionOperator {
    /** Open, and its producer silent for this long: hanging (the sanitiser's threshold is shorter). */
    private static final Duration SILENT = Duration.ofSeconds(30);

    private HangingTransactionOperator() {}

    /**
     * Aborts every hanging transaction on {@code topics} that the coordinator no longer lists, after
     * checking that the sanitiser's log reports one; tells {@code report} about each, and returns
     * how many it aborted.
     */
    static int abortReported(
            EmbeddedKafka kafka, List<String> topics, Supplier<String> sanitiserLog, Consumer<String> report)
            throws Exception {
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            List<HangingTransaction> hanging =
                    new HangingTransactionFinder(admin, SILENT, Clock.systemUTC()).find(topics);
            if (hanging.isEmpty()) {
                return 0;
            }
            int aborted = 0;
            for (HangingTransaction transaction : hanging) {
                CoordinatorView coordinator =
                        CoordinatorView.of(admin, transaction.partition(), transaction.producerId());
                if (!coordinator.hanging()) {
                    // Aborting now could discard a transaction the coordinator has decided to
                    // commit (PrepareCommit): its input offsets are committed with it.
                    report.accept(
                            "left to the coordinator (" + coordinator.describe() + "): " + transaction.describe());
                    continue;
                }
                assertThat(sanitiserLog.get())
                        .as("the sanitiser reports the hanging transaction it waits for")
                        .contains("hanging transaction: partition " + transaction.partition());
                report.accept("Kafka left a hanging transaction, aborted as docs/reliability.md says: "
                        + transaction.describe());
                admin.abortTransaction(new AbortTransactionSpec(
                                transaction.partition(),
                                transaction.producerId(),
                                (short) transaction.producerEpoch(),
                                transaction.coordinatorEpoch()))
                        .all()
                        .get();
                aborted++;
            }
            return aborted;
        }
    }
}
