package dev.utf8sanitiser.bench;

import com.google.common.base.Utf8;
import dev.utf8sanitiser.core.ScalarPath;
import dev.utf8sanitiser.core.Utf8Validator;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
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
 * Validation throughput of the core against three baselines in the same run. One operation
 * validates a batch: the corpus cut into records of {@code size} bytes (on character boundaries,
 * so real text stays well-formed), or the whole corpus as one record for {@code size=0}. Every
 * method sees the same records, so operations per second convert to bytes per second directly;
 * see {@link #bytesPerOperation}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        // The Vector API, as the launcher and the image enable it: utf8Sanitiser measures the path
        // users get, utf8SanitiserScalar the one JVMs without the module take.
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector"})
public class ValidationBenchmark {

    @Param({
        "gen/ascii",
        "gen/mixed",
        "gen/mixed-bad",
        "lipsum/Arabic-Lipsum.utf8.txt",
        "lipsum/Chinese-Lipsum.utf8.txt",
        "lipsum/Emoji-Lipsum.utf8.txt",
        "lipsum/Hebrew-Lipsum.utf8.txt",
        "lipsum/Hindi-Lipsum.utf8.txt",
        "lipsum/Japanese-Lipsum.utf8.txt",
        "lipsum/Korean-Lipsum.utf8.txt",
        "lipsum/Latin-Lipsum.utf8.txt",
        "lipsum/Russian-Lipsum.utf8.txt",
        "wikipedia_mars/arabic.utf8.txt",
        "wikipedia_mars/chinese.utf8.txt",
        "wikipedia_mars/czech.utf8.txt",
        "wikipedia_mars/english.utf8.txt",
        "wikipedia_mars/esperanto.utf8.txt",
        "wikipedia_mars/french.utf8.txt",
        "wikipedia_mars/german.utf8.txt",
        "wikipedia_mars/greek.utf8.txt",
        "wikipedia_mars/hebrew.utf8.txt",
        "wikipedia_mars/hindi.utf8.txt",
        "wikipedia_mars/japanese.utf8.txt",
        "wikipedia_mars/korean.utf8.txt",
        "wikipedia_mars/persan.utf8.txt",
        "wikipedia_mars/portuguese.utf8.txt",
        "wikipedia_mars/russian.utf8.txt",
        "wikipedia_mars/thai.utf8.txt",
        "wikipedia_mars/turkish.utf8.txt",
        "wikipedia_mars/vietnamese.utf8.txt",
        "wikipedia_mars/esperanto.latin1.txt",
        "wikipedia_mars/french.latin1.txt",
        "wikipedia_mars/german.latin1.txt",
        "wikipedia_mars/portuguese.latin1.txt",
    })
    public String corpus;

    /** Record size in bytes; 0 means the whole corpus as one record. */
    @Param({"100", "1024", "0"})
    public int size;

    private byte[] bytes;
    private int[] offsets;
    private int[] lengths;
    private CharsetDecoder decoder;
    private CharBuffer chars;

    @Setup(Level.Trial)
    public void setUp() {
        bytes = Corpus.load(corpus);
        int[][] records = Corpus.records(bytes, size);
        offsets = Arrays.stream(records).mapToInt(r -> r[0]).toArray();
        lengths = Arrays.stream(records).mapToInt(r -> r[1]).toArray();
        decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        chars = CharBuffer.allocate(bytes.length + 16);
    }

    /** The bytes one operation covers, to turn operations per second into bytes per second. */
    public long bytesPerOperation() {
        return bytes.length;
    }

    @Benchmark
    public void utf8Sanitiser(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(Utf8Validator.isWellFormed(bytes, offsets[r], lengths[r]));
        }
    }

    @Benchmark
    public void utf8SanitiserScalar(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(ScalarPath.isWellFormed(bytes, offsets[r], lengths[r]));
        }
    }

    @Benchmark
    public void guavaIsWellFormed(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(Utf8.isWellFormed(bytes, offsets[r], lengths[r]));
        }
    }

    @Benchmark
    public void jdkDecoderReport(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            decoder.reset();
            chars.clear();
            bh.consume(decoder.decode(ByteBuffer.wrap(bytes, offsets[r], lengths[r]), chars, true)
                    .isError());
        }
    }

    @Benchmark
    public void jdkNewString(Blackhole bh) {
        for (int r = 0; r < offsets.length; r++) {
            bh.consume(new String(bytes, offsets[r], lengths[r], StandardCharsets.UTF_8));
        }
    }
}
