package dev.utf8sanitiser.bench;

import com.ibm.icu.text.Normalizer2;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
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

/**
 * NFC normalisation with the JDK's {@link Normalizer} (JDK 17: ICU 67 data, Unicode 13.0) against
 * ICU4J's {@link Normalizer2} (ICU4J 78.1: Unicode 17.0), in the same run, on the real-text
 * corpora. {@code input=NFC} is the corpus already in NFC, the clean path that costs a quick check
 * only; {@code input=NFD} is its canonical decomposition, text where NFC has work to do everywhere
 * a character decomposes.
 *
 * <p>Three levels: the quick check alone ({@code *IsNormalized}), full normalisation alone ({@code
 * *Normalize}), both on a {@link String} prepared in setup; and what the content filter does with
 * UTF-8 bytes ({@code *Bytes}): decode, check, normalise only when needed, encode. One operation
 * processes the whole corpus.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector"})
public class NormalisationBenchmark {

    @Param({
        "wikipedia_mars/english.utf8.txt",
        "wikipedia_mars/french.utf8.txt",
        "wikipedia_mars/vietnamese.utf8.txt",
        "wikipedia_mars/russian.utf8.txt",
        "wikipedia_mars/hindi.utf8.txt",
        "wikipedia_mars/korean.utf8.txt",
        "wikipedia_mars/chinese.utf8.txt",
        "lipsum/Arabic-Lipsum.utf8.txt",
    })
    public String corpus;

    /** The form the corpus is brought into before measuring: NFC (no work) or NFD (work). */
    @Param({"NFC", "NFD"})
    public String input;

    private static final Normalizer2 ICU_NFC = Normalizer2.getNFCInstance();

    private String text;
    private byte[] bytes;

    @Setup(Level.Trial)
    public void setUp() {
        String raw = new String(Corpus.load(corpus), StandardCharsets.UTF_8);
        // Prepared with ICU, the newer Unicode, so that both libraries see exactly the same text.
        text = input.equals("NFC")
                ? ICU_NFC.normalize(raw)
                : Normalizer2.getNFDInstance().normalize(raw);
        bytes = text.getBytes(StandardCharsets.UTF_8);
        if (!Arrays.equals((byte[]) jdkBytes(), (byte[]) icuBytes())
                || !Arrays.equals((byte[]) icuBytes(), (byte[]) icuSpanBytes())) {
            throw new IllegalStateException("JDK and ICU4J disagree on " + corpus);
        }
    }

    /** The bytes one operation covers, to turn operations per second into bytes per second. */
    public long bytesPerOperation() {
        return bytes.length;
    }

    @Benchmark
    public boolean jdkIsNormalized() {
        return Normalizer.isNormalized(text, Normalizer.Form.NFC);
    }

    @Benchmark
    public boolean icuIsNormalized() {
        return ICU_NFC.isNormalized(text);
    }

    @Benchmark
    public String jdkNormalize() {
        return Normalizer.normalize(text, Normalizer.Form.NFC);
    }

    @Benchmark
    public String icuNormalize() {
        return ICU_NFC.normalize(text);
    }

    /** UTF-8 in, UTF-8 out: the same array when already NFC. */
    @Benchmark
    public Object jdkBytes() {
        String s = new String(bytes, StandardCharsets.UTF_8);
        if (Normalizer.isNormalized(s, Normalizer.Form.NFC)) {
            return bytes;
        }
        return Normalizer.normalize(s, Normalizer.Form.NFC).getBytes(StandardCharsets.UTF_8);
    }

    /** As {@link #jdkBytes()} with ICU4J. */
    @Benchmark
    public Object icuBytes() {
        String s = new String(bytes, StandardCharsets.UTF_8);
        if (ICU_NFC.isNormalized(s)) {
            return bytes;
        }
        return ICU_NFC.normalize(s).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * ICU4J's recommended idiom: keep the prefix that passes the quick check, normalise only the
     * rest ({@code spanQuickCheckYes}, {@code normalizeSecondAndAppend}).
     */
    @Benchmark
    public Object icuSpanBytes() {
        String s = new String(bytes, StandardCharsets.UTF_8);
        int yes = ICU_NFC.spanQuickCheckYes(s);
        if (yes == s.length()) {
            return bytes;
        }
        StringBuilder out = new StringBuilder(s.length() + 16).append(s, 0, yes);
        return ICU_NFC.normalizeSecondAndAppend(out, s.subSequence(yes, s.length()))
                .toString()
                .getBytes(StandardCharsets.UTF_8);
    }
}
