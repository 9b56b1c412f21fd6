package dev.utf8sanitiser.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The replay benchmark's quick mode against a real broker: the sanitiser's dead letters replayed and
 * copied, every record checked in its target. Tagged slow (under a minute): {@code -Pslow} runs it.
 */
class ReplayBenchmarkTest {

    @Test
    @Tag("slow")
    void quickModeReplaysAndCopiesEveryDeadLetterInAlternatingRounds() throws Exception {
        ReplayBenchmark.Report report = ReplayBenchmark.parse("--quick").run();
        System.out.print(report.markdown());

        assertThat(report.runs())
                .extracting(ReplayBenchmark.Run::what)
                .containsExactly("replay", "copy", "copy", "replay");
        assertThat(report.runs()).allSatisfy(run -> {
            assertThat(run.records()).isEqualTo(5_000);
            assertThat(run.recordsPerSecond()).isPositive();
        });
        assertThat(report.ratios()).hasSize(2).allSatisfy(ratio -> assertThat(ratio)
                .isPositive());
        assertThat(report.markdown())
                .contains("| round | replay records/s | copy records/s | replay/copy |")
                .contains("| 2 (copy first) |")
                .contains("-cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.ReplayBenchmark --quick");
    }

    @Test
    void defaultsAreAHundredThousandRecordsInFiveRounds() {
        assertThat(ReplayBenchmark.parse().records()).isEqualTo(100_000);
        assertThat(ReplayBenchmark.parse().rounds()).isEqualTo(5);
        assertThat(ReplayBenchmark.parse("--quick").records()).isEqualTo(5_000);
        assertThat(ReplayBenchmark.parse("--quick", "--rounds", "3").rounds()).isEqualTo(3);
    }
}
