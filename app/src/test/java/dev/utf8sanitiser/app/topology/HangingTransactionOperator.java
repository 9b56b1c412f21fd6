package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.transactions.HangingTransaction;
import dev.utf8sanitiser.app.transactions.HangingTransactionFinder;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;

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
            assertThat(sanitiserLog.get())
                    .as("the sanitiser reports the hanging transaction it waits for")
                    .contains("hanging transaction: ");
            int aborted = 0;
            for (HangingTransaction transaction : hanging) {
                Optional<TransactionDescription> inProgress = coordinatorStillEnding(admin, transaction);
                if (inProgress.isPresent()) {
                    // Aborting now could discard a transaction the coordinator has decided to
                    // commit (PrepareCommit): its input offsets are committed with it.
                    report.accept("left to the coordinator, which still lists the partition ("
                            + inProgress.get().state() + "): " + transaction.describe());
                    continue;
                }
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

    /**
     * The coordinator's transaction of this producer, when it still lists the partition: it will
     * write the partition's marker itself, and the transaction is not hanging (the rule of Kafka's
     * {@code kafka-transactions.sh find-hanging}).
     */
    private static Optional<TransactionDescription> coordinatorStillEnding(Admin admin, HangingTransaction transaction)
            throws Exception {
        for (TransactionListing listing : admin.listTransactions(
                        new ListTransactionsOptions().filterProducerIds(Set.of(transaction.producerId())))
                .all()
                .get()) {
            TransactionDescription description;
            try {
                description = admin.describeTransactions(Set.of(listing.transactionalId()))
                        .description(listing.transactionalId())
                        .get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TransactionalIdNotFoundException) {
                    continue;
                }
                throw e;
            }
            if (description.producerId() == transaction.producerId()
                    && description.topicPartitions().contains(transaction.partition())) {
                return Optional.of(description);
            }
        }
        return Optional.empty();
    }
}
