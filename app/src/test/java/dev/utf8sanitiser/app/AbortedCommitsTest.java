package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class AbortedCommitsTest {
    /** As Kafka Streams' StreamsProducer wraps a failed commit. */
    private static final StreamsException ABORTED = new StreamsException(
            "Error encountered trying to commit a transaction",
            new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state."));

    private Instant now = Instant.parse("2026-11-28T00:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    };

    @Test
    void anAbortedCommitIsFoundAmongTheCauses() {
        assertThat(AbortedCommits.in(ABORTED)).isTrue();
        assertThat(AbortedCommits.in(new KafkaException(new RuntimeException(ABORTED))))
                .isTrue();
    }

    @Test
    void otherFailuresAreNotAbortedCommits() {
        assertThat(AbortedCommits.in(new StreamsException("commit", new TimeoutException("no answer"))))
                .isFalse();
        assertThat(AbortedCommits.in(new StreamsException("x", new InvalidProducerEpochException("epoch"))))
                .isFalse();
        assertThat(AbortedCommits.in(new IllegalStateException("bug"))).isFalse();
        assertThat(new AbortedCommits(clock).replace(new StreamsException("registry down")))
                .isFalse();
    }

    @Test
    void replacementsAreBudgetedWithinTheWindow() {
        AbortedCommits commits = new AbortedCommits(clock);
        Instant first = now;
        for (int i = 0; i < AbortedCommits.BUDGET; i++) {
            assertThat(commits.replace(ABORTED)).as("replacement %d", i + 1).isTrue();
            now = now.plusSeconds(10);
        }
        assertThat(commits.replace(ABORTED)).as("one more within the window").isFalse();

        now = first.plus(AbortedCommits.WINDOW).plus(Duration.ofSeconds(1));
        assertThat(commits.replace(ABORTED)).as("the first has left the window").isTrue();
        assertThat(commits.replace(ABORTED)).as("the second has not").isFalse();
    }
}
