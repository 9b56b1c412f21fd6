package dev.utf8sanitiser.app.transactions;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;

/**
 * What the transaction coordinator says of a transaction left open on a partition. The rule of
 * Kafka's {@code kafka-transactions.sh find-hanging}: while the coordinator still lists the
 * partition in the producer's transaction (ongoing, or its markers being written), the coordinator
 * ends it itself; only a partition it no longer lists is hanging. Aborting a partition the
 * coordinator is committing ({@code PrepareCommit}) discards records whose input offsets are
 * committed with them, so that is refused.
 *
 * @param transactionalId the producer's transactional id, when the coordinator knows the producer
 * @param state the coordinator's state of that transaction, when it knows the producer
 * @param listsPartition whether that transaction still lists the partition
 */
public record CoordinatorView(
        Optional<String> transactionalId, Optional<TransactionState> state, boolean listsPartition) {

    static final CoordinatorView UNKNOWN = new CoordinatorView(Optional.empty(), Optional.empty(), false);

    /** Asks the coordinators about producer {@code producerId}'s transaction on {@code partition}. */
    public static CoordinatorView of(Admin admin, TopicPartition partition, long producerId)
            throws ExecutionException, InterruptedException {
        for (TransactionListing listing : admin.listTransactions(
                        new ListTransactionsOptions().filterProducerIds(Set.of(producerId)))
                .all()
                .get()) {
            if (listing.producerId() != producerId) {
                continue;
            }
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
            return new CoordinatorView(
                    Optional.of(listing.transactionalId()),
                    Optional.of(description.state()),
                    description.producerId() == producerId
                            && description.topicPartitions().contains(partition));
        }
        return UNKNOWN;
    }

    /** Hanging by Kafka's rule: the coordinator will not write this partition's marker. */
    public boolean hanging() {
        return !listsPartition;
    }

    /** The coordinator is writing commit markers for it: aborting would discard committed records. */
    public boolean committing() {
        return listsPartition
                && state.filter(s -> s == TransactionState.PREPARE_COMMIT).isPresent();
    }

    /** One clause for the log and the command line. */
    public String describe() {
        if (transactionalId.isEmpty()) {
            return "the coordinator knows no transaction of this producer";
        }
        String of = "transactional id " + transactionalId.get() + " is "
                + state.map(Object::toString).orElse("?");
        return listsPartition
                ? of + " and still lists the partition: the coordinator ends it, do not abort it"
                : of + " and no longer lists the partition: the coordinator will not end it";
    }
}
