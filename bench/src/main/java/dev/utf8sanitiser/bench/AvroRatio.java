package dev.utf8sanitiser.bench;

/**
 * {@link AvroBenchmark}'s record decision ({@code recordSanitiser}) against Avro's {@code
 * genericDatumReader}, or two other of its methods, as a ratio in slices taken in turn ({@link
 * SliceRatio}).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -Dtestdata.dir=$(pwd)/testdata \
 *   -cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.AvroRatio \
 *   [warm-up seconds, 20] [pairs, 101] [method, recordSanitiser] [baseline method, genericDatumReader]
 * </pre>
 */
public final class AvroRatio {
    private AvroRatio() {}

    public static void main(String[] args) throws ReflectiveOperationException {
        new SliceRatio(AvroBenchmark.class, AvroBenchmark.RECORDS).run(args, "recordSanitiser", "genericDatumReader");
    }
}
