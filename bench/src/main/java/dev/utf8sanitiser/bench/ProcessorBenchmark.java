package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import dev.utf8sanitiser.streams.Routes;
import dev.utf8sanitiser.streams.SanitiseProcessor;
import dev.utf8sanitiser.streams.SinkTopics;
import dev.utf8sanitiser.streams.SizeLimits;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
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
 * The sanitiser's own cost per record inside a Kafka Streams task, apart from the broker, the
 * producer and the transactions that the end-to-end benchmark also measures: {@link
 * SanitiseProcessor} (decision, size check, metrics, forward) against the end-to-end benchmark's
 * branching pass-through processor (one validation, forward by name), on the same records (the
 * end-to-end benchmark's, 1% ill-formed) and the same context: Kafka's {@code
 * MockProcessorContext}, whose metrics are real sensors. The decision alone is measured beside them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector"})
public class ProcessorBenchmark {
    static final int RECORDS = 1000;
    private static final String INPUT = "orders";
    /**
     * Kafka Streams' {@code processing.exception.handler.global.enabled}, set as the application
     * sets it, so the configuration does not warn.
     */
    private static final String GLOBAL_HANDLER = "processing.exception.handler.global.enabled";

    @Param({"100", "1024"})
    public int size;

    private Record<byte[], byte[]>[] records;
    private RecordSanitiser sanitiser;
    private MockProcessorContext<byte[], byte[]> context;
    private Processor<byte[], byte[], byte[], byte[]> sanitise;
    private Processor<byte[], byte[], byte[], byte[]> branch;

    @Setup(Level.Trial)
    @SuppressWarnings("unchecked")
    public void setUp() {
        TextRecords values = new TextRecords(size, 0.01, 20261123);
        records = new Record[RECORDS];
        for (int i = 0; i < RECORDS; i++) {
            records[i] = new Record<>(("key-" + i).getBytes(), values.next(), 1_700_000_000_000L + i);
        }
        SanitiserConfig config = new SanitiserConfig(Map.of(
                SanitiserConfig.INPUT_TOPICS_CONFIG,
                INPUT,
                SanitiserConfig.POLICY_CONFIG,
                "strict",
                "application.id",
                "processor-benchmark",
                "bootstrap.servers",
                "localhost:9092"));
        ValueFormat format = ValueFormats.of(config, () -> {
            throw new IllegalStateException("no registry: text values");
        });
        sanitiser = ValueFormats.sanitiser(config, format);
        Properties contextConfig = new Properties();
        contextConfig.putAll(config.streamsProperties());
        contextConfig.put(GLOBAL_HANDLER, "true");
        context = new MockProcessorContext<>(contextConfig);
        context.setRecordMetadata(INPUT, 0, 0);
        context.setCurrentSystemTimeMs(System.currentTimeMillis()); // Kafka Streams caches it per loop too
        sanitise = new SanitiseProcessor<>(
                sanitiser,
                new DeadLetterAnnotation(config.dlqContextBytes()),
                new SinkTopics(config),
                SizeLimits.of(config.streamsProperties()),
                List.of(INPUT),
                Routes.toChildren("output", "dead-letter"));
        sanitise.init(context);
        branch = new ControlProcessor.BranchByUtf8();
        branch.init(context);
    }

    /** The sanitiser's processor, per record. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void sanitiseProcessor() {
        for (Record<byte[], byte[]> record : records) {
            sanitise.process(record);
        }
        context.resetForwards();
    }

    /** The end-to-end benchmark's branching pass-through processor, per record. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void branchingProcessor() {
        for (Record<byte[], byte[]> record : records) {
            branch.process(record);
        }
        context.resetForwards();
    }

    /** The record decision alone, per record. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void decision(Blackhole bh) {
        for (Record<byte[], byte[]> record : records) {
            bh.consume(sanitiser.decide(record.key(), record.value(), record.headers()));
        }
    }
}
