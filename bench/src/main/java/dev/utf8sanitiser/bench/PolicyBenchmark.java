package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a policy costs over plain validation, on 1 KiB records: the well-formed path (one
 * validation, no copy) and the damaged path (every error found, output rebuilt). The JDK's lenient
 * decode-and-encode round trip, which is how most pipelines "fix" text, is the baseline.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector"})
public class PolicyBenchmark {
    @Param({"wikipedia_mars/french.utf8.txt", "gen/mixed-bad", "wikipedia_mars/french.latin1.txt"})
    public String corpus;

    private static final int RECORD = 1024;
    private byte[] bytes;
    private int[] offsets;
    private int[] lengths;

    @Setup(Level.Trial)
    public void setUp() {
        bytes = Corpus.load(corpus);
        int[][] records = Corpus.records(bytes, RECORD);
        offsets = Arrays.stream(records).mapToInt(r -> r[0]).toArray();
        lengths = Arrays.stream(records).mapToInt(r -> r[1]).toArray();
    }

    @Benchmark
    public void validateOnly(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(Utf8Validator.isWellFormed(bytes, offsets[r], lengths[r]));
        }
    }

    @Benchmark
    public void strict(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(Utf8Sanitiser.sanitise(bytes, offsets[r], lengths[r], Policy.STRICT));
        }
    }

    @Benchmark
    public void replace(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(Utf8Sanitiser.sanitise(bytes, offsets[r], lengths[r], Policy.REPLACE));
        }
    }

    @Benchmark
    public void repair(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(Utf8Sanitiser.sanitise(bytes, offsets[r], lengths[r], Policy.REPAIR));
        }
    }

    @Benchmark
    public void jdkLenientRoundTrip(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(
                    new String(bytes, offsets[r], lengths[r], StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8));
        }
    }
}
