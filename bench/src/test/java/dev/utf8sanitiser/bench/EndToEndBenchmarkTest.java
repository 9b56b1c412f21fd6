package dev.utf8sanitiser.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.utf8sanitiser.bench.EndToEndResults.Row;
import dev.utf8sanitiser.core.VectorSupport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
        EndToEndReport report =
                EndToEndBenchmark.parse("--quick", "--with-streams-dlq").run();
        String markdown = report.markdown();
        System.out.print(markdown);

        assertThat(report.rows()).hasSize(8);
        for (Row row : report.rows()) {
            assertThat(row.medianRecordsPerSecond())
                    .as("%s %s", row.size(), row.topo())
                    .isPositive();
            assertThat(row.latency().count()).isPositive();
        }
        assertThat(report.rows())
                .extracting(Row::topo)
                .containsOnly(Topo.PASS_THROUGH, Topo.BRANCHING, Topo.SANITISER, Topo.STREAMS_DLQ);
        assertThat(markdown)
                .contains("| 100 B | pass-through |")
                .contains("| 100 B | sanitiser (strict) |")
                .contains("| 1 KiB | pass-through |")
                .contains("| 1 KiB | sanitiser (strict) |")
                .contains("| 100 B | pass-through, ill-formed to a 2nd topic |")
                .contains("| 1 KiB | Kafka Streams DLQ, strict String deserializer |")
                .contains("| ratio vs Kafka Streams DLQ |")
                .contains("| batches sent |")
                .contains("-cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.EndToEndBenchmark --quick")
                .contains("UTF-8 validation on the " + VectorSupport.describe() + " path")
                .containsPattern("Other work on the machine: [0-9.]+ CPU seconds");
    }

    @Test
    void machineBusyTimeGrowsWhileThisJvmWorks() {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc/stat: not Linux");
        long before = Machine.machineBusyNanos();
        long until = System.nanoTime() + 300_000_000L;
        long spins = 0;
        while (System.nanoTime() < until) {
            spins++;
        }
        // 300 ms of this thread's work, counted in 10 ms ticks: at least a third of it shows.
        assertThat(Machine.machineBusyNanos() - before)
                .as("after %d spins", spins)
                .isGreaterThan(100_000_000L);
    }

    @Test
    void everyTopologyTakesEveryPlaceInTheRoundEquallyOften() {
        String[][] options = {
            {},
            {"--with-processor-pass-through"},
            {"--with-routed-pass-through"},
            {"--with-processor-pass-through", "--with-routed-pass-through"},
            {"--with-streams-dlq"},
            {"--with-processor-pass-through", "--with-routed-pass-through", "--with-streams-dlq"}
        };
        for (String[] args : options) {
            List<Topo> all = Topo.inUse(EndToEndBenchmark.parse(args).options);
            assertThat(all).as("%s", List.of(args)).hasSize(3 + args.length);
            int places = all.size();
            for (Topo topo : all) {
                int[] timesAt = new int[places];
                for (int round = 1; round <= 2 * places; round++) {
                    List<Topo> order = Topo.inRound(round, all);
                    assertThat(order).containsExactlyInAnyOrderElementsOf(all);
                    timesAt[order.indexOf(topo)]++;
                }
                assertThat(timesAt).as("%s by place", topo).containsOnly(2);
            }
            assertThat(Topo.inRound(1, all)).containsExactlyElementsOf(all);
        }
        assertThat(Topo.inUse(EndToEndBenchmark.parse().options))
                .containsExactly(Topo.PASS_THROUGH, Topo.BRANCHING, Topo.SANITISER);
        assertThat(Topo.inUse(EndToEndBenchmark.parse("--with-routed-pass-through").options))
                .containsExactly(Topo.PASS_THROUGH, Topo.BRANCHING, Topo.SANITISER, Topo.ROUTED_PASS_THROUGH);
        assertThat(Topo.inUse(EndToEndBenchmark.parse("--with-routed-pass-through", "--with-streams-dlq").options))
                .containsExactly(
                        Topo.PASS_THROUGH, Topo.BRANCHING, Topo.SANITISER, Topo.ROUTED_PASS_THROUGH, Topo.STREAMS_DLQ);
    }

    @Test
    void quickModeDefaultsAreSmall() {
        EndToEndOptions.Settings quick = EndToEndBenchmark.parse("--quick").settings();
        assertThat(quick.records()).containsExactly(20_000, 10_000);
        assertThat(quick.repeats()).isEqualTo(1);
        EndToEndOptions.Settings full = EndToEndBenchmark.parse().settings();
        assertThat(full.records()).containsExactly(2_000_000, 800_000);
        assertThat(full.repeats()).isEqualTo(7);
    }
}
