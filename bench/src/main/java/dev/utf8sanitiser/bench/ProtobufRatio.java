package dev.utf8sanitiser.bench;

/**
 * {@link ProtobufBenchmark}'s record decision ({@code recordSanitiser}) against protobuf-java's
 * {@code dynamicMessageParseFrom}, as a ratio in slices taken in turn ({@link SliceRatio}).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -Dtestdata.dir=$(pwd)/testdata \
 *   -cp bench/target/benchmarks.jar dev.utf8sanitiser.bench.ProtobufRatio \
 *   [warm-up seconds, 20] [pairs, 101] [method, recordSanitiser] [baseline method, dynamicMessageParseFrom]
 * </pre>
 */
public final class ProtobufRatio {
    private ProtobufRatio() {}

    public static void main(String[] args) throws ReflectiveOperationException {
        new SliceRatio(ProtobufBenchmark.class, ProtobufBenchmark.RECORDS)
                .run(args, "recordSanitiser", "dynamicMessageParseFrom");
    }
}
