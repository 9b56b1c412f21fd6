package dev.utf8sanitiser.app;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Whether a broker of the cluster answers now: an Admin client's {@code describeCluster}, the
 * cheapest request every broker answers, within a timeout. It asks the question that start-up and
 * readiness ask, and nothing about the Streams clients' internals.
 */
final class ClusterProbe {
    private final Admin admin;

    ClusterProbe(Admin admin) {
        this.admin = admin;
    }

    /**
     * Asks, and returns once a broker has answered.
     *
     * @throws TimeoutException no broker answered within {@code timeout}
     * @throws ExecutionException any other failure, such as refused credentials or TLS
     */
    void probe(Duration timeout) throws ExecutionException, InterruptedException {
        DescribeClusterOptions options =
                new DescribeClusterOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try {
            admin.describeCluster(options).nodes().get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TimeoutException timeoutException) {
                throw timeoutException;
            }
            throw e;
        }
    }

    /** What a failed probe says, in a few words. */
    static String describe(Exception failure, Duration timeout) {
        if (failure instanceof TimeoutException) {
            return "no broker answered within " + seconds(timeout);
        }
        Throwable cause =
                failure instanceof ExecutionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
