package dev.utf8sanitiser.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.bench.EndToEndBenchmark.Topo;
import dev.utf8sanitiser.bench.EndToEndResults.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The end-to-end benchmark: its quick mode runs against a real broker and reports both topologies
 * at both sizes. That one is tagged slow (about a minute and a half): {@code -Pslow} runs it.
 */
class EndToEndBenchmarkTest {

    @Test
    @Tag("slow")
    void quickModeReportsBothTopologiesAtBothSizesWithNonZeroThroughput() throws Exception {
        EndToEndReport report = EndToEndBenchmark.parse("--quick").run();
        String markdown = report.markdown();
        System.out.print(markdown);

        assertThat(report.rows()).hasSize(4);
        for (Row row : report.rows()) {
            assertThat(row.medianRecordsPerSecond())
                    .as("%s %s", row.size(), row.topo())
                    .isPositive();
            assertThat(row.latency().count()).isPositive();
        }
        assertThat(report.rows()).extracting(Row::topo).containsOnly(Topo.PASS_THROUGH, Topo.SANITISER);
        assertThat(markdown)
                .contains("| 100 B | pass-through |")
                .contains("| 100 B | sanitiser (strict) |")
                .contains("| 1 KiB | pass-through |")
                .contains("| 1 KiB | sanitiser (strict) |")
                .contains("-cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.EndToEndBenchmark --quick");
    }

    @Test
    void quickModeDefaultsAreSmall() {
        EndToEndOptions.Settings quick = EndToEndBenchmark.parse("--quick").settings();
        assertThat(quick.records()).containsExactly(20_000, 10_000);
        assertThat(quick.repeats()).isEqualTo(1);
        EndToEndOptions.Settings full = EndToEndBenchmark.parse().settings();
        assertThat(full.records()).containsExactly(500_000, 200_000);
        assertThat(full.repeats()).isEqualTo(5);
    }
}
