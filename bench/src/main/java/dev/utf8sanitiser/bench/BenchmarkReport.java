package dev.utf8sanitiser.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the JSON results of {@link ValidationBenchmark} ({@code -rf json}) into the Markdown table
 * of docs/benchmarks.md: GB/s per method, the ratio of utf8-sanitiser to each baseline of the same
 * run, and bytes allocated per operation when run with {@code -prof gc}.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.BenchmarkReport result.json}
 */
public final class BenchmarkReport {
    private static final String[] METHODS = {"utf8Sanitiser", "guavaIsWellFormed", "jdkDecoderReport", "jdkNewString"};

    private BenchmarkReport() {}

    public static void main(String[] args) throws IOException {
        JsonNode results = new ObjectMapper().readTree(Path.of(args[0]).toFile());
        // corpus -> size -> method -> {ops/s, B/op}
        Map<String, Map<Integer, Map<String, double[]>>> table = new TreeMap<>(BenchmarkReport::corpusOrder);
        for (JsonNode r : results) {
            String method = r.get("benchmark").asText().replaceAll(".*\\.", "");
            String corpus = r.get("params").get("corpus").asText();
            int size = r.get("params").get("size").asInt();
            double ops = r.get("primaryMetric").get("score").asDouble();
            JsonNode alloc =
                    r.path("secondaryMetrics").path("gc.alloc.rate.norm").path("score");
            table.computeIfAbsent(corpus, c -> new TreeMap<>((a, b) -> sizeOrder(a) - sizeOrder(b)))
                    .computeIfAbsent(size, s -> new TreeMap<>())
                    .put(method, new double[] {ops, alloc.isMissingNode() ? Double.NaN : alloc.asDouble()});
        }
        StringBuilder md = new StringBuilder();
        md.append("Well-formed corpora: GB/s of input validated (higher is better).\n\n");
        table(md, table, false);
        md.append("\nIll-formed corpora: validation stops at each record's first error, so GB/s would measure"
                + " how early the error comes; here, ns per record to reject it (lower is better).\n\n");
        table(md, table, true);
        System.out.print(md);
    }

    private static void table(
            StringBuilder md, Map<String, Map<Integer, Map<String, double[]>>> table, boolean illFormed) {
        String unit = illFormed ? "ns/record" : "GB/s";
        md.append("| corpus | record | utf8-sanitiser " + unit + " | Guava " + unit + " | JDK decoder " + unit
                + " | new String " + unit + " | vs Guava | vs JDK decoder | utf8-sanitiser B/op |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        table.forEach((corpus, bySize) -> {
            if (Corpus.illFormed(corpus) != illFormed) {
                return;
            }
            byte[] content = Corpus.load(corpus);
            long bytes = content.length;
            bySize.forEach((size, byMethod) -> {
                int records = Corpus.records(content, size).length;
                md.append("| ")
                        .append(corpus)
                        .append(" | ")
                        .append(size == 0 ? "whole (" + bytes + " B)" : size + " B");
                for (String m : METHODS) {
                    double[] v = byMethod.get(m);
                    md.append(" | ")
                            .append(v == null ? "" : illFormed ? fmt(1e9 / (v[0] * records)) : fmt(v[0] * bytes / 1e9));
                }
                md.append(" | ").append(ratio(byMethod, "guavaIsWellFormed"));
                md.append(" | ").append(ratio(byMethod, "jdkDecoderReport"));
                double[] ours = byMethod.get("utf8Sanitiser");
                md.append(" | ")
                        .append(
                                ours == null || Double.isNaN(ours[1])
                                        ? ""
                                        : String.format(Locale.ROOT, "%.0f", ours[1]));
                md.append(" |\n");
            });
        });
    }

    private static String ratio(Map<String, double[]> byMethod, String baseline) {
        double[] ours = byMethod.get("utf8Sanitiser");
        double[] base = byMethod.get(baseline);
        return ours == null || base == null ? "" : String.format(Locale.ROOT, "%.2fx", ours[0] / base[0]);
    }

    private static String fmt(double gbPerSecond) {
        return String.format(Locale.ROOT, gbPerSecond < 1 ? "%.3f" : "%.2f", gbPerSecond);
    }

    /** Generated corpora first, then real text, then the Latin-1 files. */
    private static int corpusOrder(String a, String b) {
        return (rank(a) + a).compareTo(rank(b) + b);
    }

    private static String rank(String corpus) {
        return corpus.startsWith("gen/") ? "0" : corpus.contains("latin1") ? "2" : "1";
    }

    private static int sizeOrder(int size) {
        return size == 0 ? Integer.MAX_VALUE : size;
    }
}
