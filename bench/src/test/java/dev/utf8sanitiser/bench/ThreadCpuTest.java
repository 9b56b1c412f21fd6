package dev.utf8sanitiser.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
    @Test
    void namesTheKindsByTheKernelsCutNames() {
        assertThat(ThreadCpu.kind("e2e-003-sanitis")).isEqualTo(ThreadCpu.STREAM);
        assertThat(ThreadCpu.kind("kafka-producer-")).isEqualTo(ThreadCpu.PRODUCER_IO);
        assertThat(ThreadCpu.kind("java")).isEqualTo(ThreadCpu.DRIVER);
        assertThat(ThreadCpu.kind("GC Thread#1")).isEqualTo(ThreadCpu.GC);
        assertThat(ThreadCpu.kind("G1 Conc#0")).isEqualTo(ThreadCpu.GC);
        assertThat(ThreadCpu.kind("C2 CompilerThre")).isEqualTo(ThreadCpu.JIT);
        assertThat(ThreadCpu.kind("kafka-coordinat")).isEqualTo(ThreadCpu.OTHER);
    }

    @Test
    void countsEachThreadsTimeSinceTheFirstSnapshotAndAllOfANewOnes() {
        ThreadCpu.Snapshot before = new ThreadCpu.Snapshot(Map.of(
                1, new ThreadCpu.Task(ThreadCpu.STREAM, 1_000_000_000L),
                2, new ThreadCpu.Task(ThreadCpu.GC, 5_000_000_000L))); // 2 ends before the second
        ThreadCpu.Snapshot after = new ThreadCpu.Snapshot(Map.of(
                1, new ThreadCpu.Task(ThreadCpu.STREAM, 3_500_000_000L),
                3, new ThreadCpu.Task(ThreadCpu.STREAM, 250_000_000L)));

        Map<String, Double> seconds = ThreadCpu.between(before, after);

        assertThat(seconds.get(ThreadCpu.STREAM)).isEqualTo(2.75);
        assertThat(seconds.get(ThreadCpu.GC)).isZero();
        assertThat(seconds)
                .containsOnlyKeys(
                        ThreadCpu.STREAM,
                        ThreadCpu.PRODUCER_IO,
                        ThreadCpu.DRIVER,
                        ThreadCpu.GC,
                        ThreadCpu.JIT,
                        ThreadCpu.OTHER);
    }

    @Test
    void findsTheCpuOfABusyThreadByItsName() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        ThreadCpu.Snapshot before = ThreadCpu.now();
        Thread busy = new Thread(
                () -> {
                    long until = System.nanoTime() + 300_000_000L;
                    long sum = 0;
                    while (System.nanoTime() < until) {
                        sum += System.nanoTime() % 7;
                    }
                    if (sum == 42) {
                        System.out.print(""); // keeps the loop
                    }
                },
                "e2e-busy-thread");
        busy.start();
        Thread.sleep(200); // still running at the second snapshot, so it is counted
        ThreadCpu.Snapshot after = ThreadCpu.now();
        busy.join();

        assertThat(ThreadCpu.between(before, after).get(ThreadCpu.STREAM)).isGreaterThanOrEqualTo(0.05);
    }
}
