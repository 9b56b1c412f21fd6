package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.ClusterMonitor.Change;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * One change reported when the cluster stops answering and one when it is back, however many
 * probes fail in between; readiness says why while it is away.
 */
class ClusterMonitorTest {
    private long now = 1_000_000_000L;
    private final Deque<Boolean> answers = new ArrayDeque<>();

    private ClusterMonitor monitor() {
        return new ClusterMonitor(
                () -> {
                    now += TimeUnit.SECONDS.toNanos(2);
                    if (!answers.pop()) {
                        now += TimeUnit.SECONDS.toNanos(5);
                        throw new TimeoutException("Timed out waiting for a node assignment. Call: describeCluster");
                    }
                },
                "broker-1:9092",
                () -> now);
    }

    private List<Change> check(ClusterMonitor monitor, Boolean... outcomes) {
        answers.addAll(List.of(outcomes));
        List<Change> changes = new ArrayList<>();
        while (!answers.isEmpty()) {
            changes.add(monitor.check());
        }
        return changes;
    }

    @Test
    void anOutageIsOneLossAndOneReturn() {
        ClusterMonitor monitor = monitor();

        assertThat(check(monitor, true, true, false, false, false, false, true, true))
                .containsExactly(
                        Change.NONE,
                        Change.NONE,
                        Change.LOST,
                        Change.NONE,
                        Change.NONE,
                        Change.NONE,
                        Change.BACK,
                        Change.NONE);
    }

    @Test
    void readinessSaysWhyWhileTheClusterIsAway() {
        ClusterMonitor monitor = monitor();
        check(monitor, true);
        assertThat(monitor.unreachable()).isEmpty();

        check(monitor, false, false);

        assertThat(monitor.unreachable())
                .hasValue("cannot reach the Kafka cluster at broker-1:9092: no answer for 14 s (no broker answered"
                        + " within 5 s)");
        check(monitor, true);
        assertThat(monitor.unreachable()).isEmpty();
    }

    @Test
    void aClusterLostRightAfterStartUpIsLost() {
        assertThat(check(monitor(), false)).containsExactly(Change.LOST);
    }
}
