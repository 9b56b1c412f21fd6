package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.serdes.avro.AvroFormat;
import dev.utf8sanitiser.serdes.avro.ScanProbe;
import dev.utf8sanitiser.serdes.avro.SchemaWalker;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.testkit.ExampleOrders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.header.Header;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Checking the strings of a realistic Avro record (examples/order.avsc: 20 fields, nested records,
 * arrays, maps, unions) in its binary, against decoding it with Avro's {@code GenericDatumReader},
 * which is what a consumer that wanted to look at the strings would otherwise do. Records are
 * well-formed (the path every record takes in production); strings are sentences of a real corpus.
 * Scores are records per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector"})
public class AvroBenchmark {
    static final int RECORDS = 1000;

    /** Where the strings' text comes from: a Latin script and a CJK one. */
    @Param({"wikipedia_mars/french.utf8.txt", "wikipedia_mars/japanese.utf8.txt"})
    public String corpus;

    private byte[][] values;
    /** Each value as the one validation sees it, blanked by the scan. */
    private byte[][] blanked;

    private SchemaWalker walker;
    private final ScanProbe probe = new ScanProbe();
    private RecordSanitiser sanitiser;
    private GenericDatumReader<GenericRecord> reader;
    private BinaryDecoder decoder;
    private GenericRecord reuse;

    @Setup(Level.Trial)
    public void setUp() {
        Sentences sentences = Sentences.of(corpus);
        Random random = new Random(42);
        values = new byte[RECORDS][];
        long bytes = 0;
        for (int i = 0; i < RECORDS; i++) {
            GenericRecord order =
                    ExampleOrders.random(random, r -> sentences.pick(r).getBytes(StandardCharsets.UTF_8), 3);
            byte[] binary = ExampleOrders.binary(ExampleOrders.SCHEMA, order);
            values[i] = concat(WireFormat.prefix(1), binary);
            bytes += values[i].length;
        }
        System.out.printf("%n%d records, %d bytes on average%n", RECORDS, bytes / RECORDS);
        walker = SchemaWalker.of(ExampleOrders.SCHEMA);
        blanked = new byte[RECORDS][];
        for (int i = 0; i < RECORDS; i++) {
            probe.scan(walker, values[i], 5, values[i].length);
            blanked[i] = probe.view();
        }
        sanitiser = new RecordSanitiser(
                Policy.STRICT,
                ContentPolicy.none(),
                new AvroFormat(new OneSchema(ExampleOrders.SCHEMA)),
                false,
                List.of());
        reader = new GenericDatumReader<>(ExampleOrders.SCHEMA);
        for (byte[] value : values) {
            if (!(sanitiser.decide(null, value, List.of()) instanceof Decision.Pass)) {
                throw new IllegalStateException("the benchmark's records must be well-formed");
            }
        }
    }

    /**
     * The walker with the core's validator on each string on its own: what the sanitiser's Avro path
     * did before it checked all strings of a value in one pass, and still does for a value with an
     * ill-formed string, or under content rules.
     */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void walkAndValidate(Blackhole bh) {
        for (byte[] value : values) {
            bh.consume(walker.walk(value, 5, value.length, (path, b, offset, length) -> {
                if (!Utf8Validator.isWellFormed(b, offset, length)) {
                    throw new IllegalStateException();
                }
                return null;
            }));
        }
    }

    /** The walker alone, strings not looked at: the cost of the structure. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void walkOnly(Blackhole bh) {
        for (byte[] value : values) {
            bh.consume(walker.walk(value, 5, value.length, (path, b, offset, length) -> null));
        }
    }

    /**
     * The walker's fast scan alone, the value copied and what lies outside its strings blanked for
     * the one validation, but not validated: the cost of the structure on the path a valid record
     * takes.
     */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void scanOnly(Blackhole bh) {
        for (byte[] value : values) {
            bh.consume(probe.scan(walker, value, 5, value.length));
        }
    }

    /** The one validation of the decision alone, over each value as the scan leaves it blanked. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void validateOnly(Blackhole bh) {
        for (byte[] view : blanked) {
            bh.consume(Utf8Validator.isWellFormed(view));
        }
    }

    /** The whole record decision: prefix, schema by id (cached), walk, policy. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void recordSanitiser(Blackhole bh) {
        List<Header> headers = List.of();
        for (byte[] value : values) {
            bh.consume(sanitiser.decide(null, value, headers));
        }
    }

    /** Baseline: Avro decodes the record into a reused GenericRecord; strings stay Utf8 bytes. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void genericDatumReader(Blackhole bh) throws IOException {
        for (byte[] value : values) {
            decoder = DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, decoder);
            reuse = reader.read(reuse, decoder);
            bh.consume(reuse);
        }
    }

    /**
     * Baseline: decoding and then reading every string as a Java String, the step where the JDK's
     * decoder would silently replace ill-formed bytes (and still says nothing about them).
     */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void genericDatumReaderWithStrings(Blackhole bh) throws IOException {
        for (byte[] value : values) {
            decoder = DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, decoder);
            reuse = reader.read(reuse, decoder);
            touchStrings(ExampleOrders.SCHEMA, reuse, bh);
        }
    }

    private static void touchStrings(Schema schema, Object datum, Blackhole bh) {
        switch (schema.getType()) {
            case STRING -> bh.consume(datum.toString());
            case RECORD -> {
                GenericRecord record = (GenericRecord) datum;
                for (Schema.Field field : schema.getFields()) {
                    touchStrings(field.schema(), record.get(field.pos()), bh);
                }
            }
            case ARRAY -> {
                for (Object item : (List<?>) datum) {
                    touchStrings(schema.getElementType(), item, bh);
                }
            }
            case MAP -> {
                for (var entry : ((Map<?, ?>) datum).entrySet()) {
                    bh.consume(entry.getKey().toString());
                    touchStrings(schema.getValueType(), entry.getValue(), bh);
                }
            }
            case UNION -> touchStrings(schema.getTypes().get(GenericData.get().resolveUnion(schema, datum)), datum, bh);
            default -> {}
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A registry of one schema, id 1: the benchmark measures walking, not HTTP. */
    private record OneSchema(Schema schema) implements SchemaRegistry {
        @Override
        public Schema schema(int id) {
            return schema;
        }

        @Override
        public int register(String subject, Schema s) {
            return 1;
        }

        @Override
        public void close() {}
    }
}
