package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.core.content.Normalisation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * The policy cost: {@link ContentPolicy#apply} with a typical rule set on clean text (no rule
 * matches, the text is in NFC), against validation alone, in the same run. Run with {@code -prof
 * gc} to see that the clean path allocates nothing but the result (and, with NFC, the decoded
 * {@code String} of non-Latin text). One operation processes
 * the corpus cut into records of {@code size} bytes on character boundaries ({@code 0}: one record).
 * Each record is its own array, as a Kafka record value is.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector"})
public class ContentBenchmark {

    /** Every code point rule a pipeline would typically set; PRIVATE_USE is left to the user. */
    static final ContentRules TYPICAL = ContentRules.parse("NUL:reject,C0_CONTROL:strip,C1_CONTROL:replace,"
            + "NONCHARACTER:replace,BYTE_ORDER_MARK:strip,LINE_SEPARATOR:replace,CR:replace");

    @Param({
        "gen/ascii",
        "gen/mixed",
        "wikipedia_mars/english.utf8.txt",
        "wikipedia_mars/french.utf8.txt",
        "wikipedia_mars/vietnamese.utf8.txt",
        "wikipedia_mars/russian.utf8.txt",
        "wikipedia_mars/hindi.utf8.txt",
        "wikipedia_mars/korean.utf8.txt",
        "wikipedia_mars/chinese.utf8.txt",
        "lipsum/Emoji-Lipsum.utf8.txt",
    })
    public String corpus;

    /** Record size in bytes; 0 means the whole corpus as one record. */
    @Param({"1024", "0"})
    public int size;

    private byte[][] records;
    private long bytes;
    private final ContentPolicy rules = ContentPolicy.of(TYPICAL, Normalisation.NONE);
    private final ContentPolicy rulesAndNfc = ContentPolicy.of(TYPICAL, Normalisation.NFC);

    @Setup(Level.Trial)
    public void setUp() {
        byte[] all = Corpus.load(corpus);
        List<byte[]> list = new ArrayList<>();
        for (int at = 0; at < all.length; ) {
            int end = size == 0 ? all.length : Corpus.boundaryAtOrBefore(all, at + size);
            // Clean text: each record after one pass of the policy. Of the corpora here only two
            // change: Emoji-Lipsum loses its byte order marks (at offset 0 and 32768, so the
            // 33rd 1 KiB record starts with one), and the Hindi article's composition exclusions
            // (U+095C, U+095E) are decomposed.
            list.add(rulesAndNfc.apply(Arrays.copyOfRange(all, at, end)).output());
            at = end;
        }
        records = list.toArray(new byte[0][]);
        bytes = all.length;
        for (byte[] r : records) {
            if (rulesAndNfc.apply(r).output() != r) {
                throw new IllegalStateException(corpus + " is not clean under " + rulesAndNfc);
            }
        }
    }

    /** The bytes one operation covers, to turn operations per second into bytes per second. */
    public long bytesPerOperation() {
        return bytes;
    }

    /** The baseline: what every record costs anyway. */
    @Benchmark
    public void validate(Blackhole bh) {
        for (byte[] r : records) {
            bh.consume(Utf8Validator.isWellFormed(r));
        }
    }

    /** The code point rules alone. */
    @Benchmark
    public void contentRules(Blackhole bh) {
        for (byte[] r : records) {
            bh.consume(rules.apply(r));
        }
    }

    /** The code point rules and NFC (a quick check on clean text). */
    @Benchmark
    public void contentRulesNfc(Blackhole bh) {
        for (byte[] r : records) {
            bh.consume(rulesAndNfc.apply(r));
        }
    }
}
