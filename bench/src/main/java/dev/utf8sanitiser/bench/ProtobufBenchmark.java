package dev.utf8sanitiser.bench;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.registry.ProtobufSchemaText;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.protobuf.ProtoFiles;
import dev.utf8sanitiser.serdes.protobuf.ProtobufFormat;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * The decision on a well-formed Protobuf record (an order: nested messages, a repeated message, a
 * map, a packed field, repeated strings; proto3, so every string is checked), against
 * protobuf-java's {@code DynamicMessage.parseFrom}, which checks the same strings while it builds
 * the message. Strings are sentences of a real corpus. Scores are records per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "--add-modules", "jdk.incubator.vector"})
public class ProtobufBenchmark {
    static final int RECORDS = 1000;

    static final String SCHEMA =
            """
            syntax = "proto3";
            package shop;
            message Order {
              string id = 1;
              Customer customer = 2;
              repeated Line lines = 3;
              map<string, string> tags = 4;
              repeated int32 quantities = 5;
              string note = 6;
              repeated string labels = 7;
              int64 created = 8;
              message Line { string sku = 1; string description = 2; double price = 3; }
            }
            message Customer {
              string name = 1;
              string email = 2;
              Address address = 3;
              message Address { string street = 1; string city = 2; string country = 3; }
            }
            """;

    @Param({"wikipedia_mars/french.utf8.txt", "wikipedia_mars/japanese.utf8.txt"})
    public String corpus;

    private byte[][] values;
    private byte[][] messages;
    private Descriptor order;
    private RecordSanitiser sanitiser;

    @Setup(Level.Trial)
    public void setUp() {
        Sentences sentences = Sentences.of(corpus);
        ProtobufSchemaText text = new ProtobufSchemaText(SCHEMA, Map.of());
        order = ProtoFiles.descriptor(1, text).findMessageTypeByName("Order");
        Random random = new Random(42);
        values = new byte[RECORDS][];
        messages = new byte[RECORDS][];
        long bytes = 0;
        for (int i = 0; i < RECORDS; i++) {
            messages[i] = order(random, sentences).toByteArray();
            values[i] = concat(WireFormat.prefix(1), new byte[] {0}, messages[i]);
            bytes += values[i].length;
        }
        System.out.printf("%n%d records, %d bytes on average%n", RECORDS, bytes / RECORDS);
        sanitiser = new RecordSanitiser(
                Policy.STRICT, ContentPolicy.none(), new ProtobufFormat(new OneSchema(text), false), false, List.of());
        for (byte[] value : values) {
            if (!(sanitiser.decide(null, value, List.of()) instanceof Decision.Pass)) {
                throw new IllegalStateException("the benchmark's records must be well-formed");
            }
        }
    }

    /** The whole record decision: prefix, message indexes, schema by id (cached), walk, policy. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void recordSanitiser(Blackhole bh) {
        List<Header> headers = List.of();
        for (byte[] value : values) {
            bh.consume(sanitiser.decide(null, value, headers));
        }
    }

    /** Baseline: protobuf-java parses the message (its strings checked as it goes). */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void dynamicMessageParseFrom(Blackhole bh) throws InvalidProtocolBufferException {
        for (byte[] message : messages) {
            bh.consume(DynamicMessage.parseFrom(order, message));
        }
    }

    private DynamicMessage order(Random random, Sentences sentences) {
        Descriptor customer = order.findFieldByName("customer").getMessageType();
        Descriptor address = customer.findFieldByName("address").getMessageType();
        Descriptor line = order.findFieldByName("lines").getMessageType();
        Descriptor entry = order.findFieldByName("tags").getMessageType();
        DynamicMessage.Builder o = DynamicMessage.newBuilder(order)
                .setField(order.findFieldByName("id"), "order-" + random.nextInt(1_000_000))
                .setField(order.findFieldByName("note"), sentences.pick(random))
                .setField(order.findFieldByName("created"), random.nextLong())
                .setField(
                        order.findFieldByName("customer"),
                        DynamicMessage.newBuilder(customer)
                                .setField(customer.findFieldByName("name"), sentences.pick(random))
                                .setField(customer.findFieldByName("email"), "someone@example.org")
                                .setField(
                                        customer.findFieldByName("address"),
                                        DynamicMessage.newBuilder(address)
                                                .setField(address.findFieldByName("street"), sentences.pick(random))
                                                .setField(address.findFieldByName("city"), sentences.pick(random))
                                                .setField(address.findFieldByName("country"), "FR")
                                                .build())
                                .build());
        for (int i = 0; i < 3; i++) {
            o.addRepeatedField(
                    order.findFieldByName("lines"),
                    DynamicMessage.newBuilder(line)
                            .setField(line.findFieldByName("sku"), "SKU-" + random.nextInt(10_000))
                            .setField(line.findFieldByName("description"), sentences.pick(random))
                            .setField(line.findFieldByName("price"), random.nextDouble() * 100)
                            .build());
            o.addRepeatedField(
                    order.findFieldByName("tags"),
                    DynamicMessage.newBuilder(entry)
                            .setField(entry.findFieldByName("key"), "tag" + i)
                            .setField(entry.findFieldByName("value"), sentences.pick(random))
                            .build());
            o.addRepeatedField(order.findFieldByName("labels"), sentences.pick(random));
        }
        FieldDescriptor quantities = order.findFieldByName("quantities");
        for (int i = 0; i < 8; i++) {
            o.addRepeatedField(quantities, random.nextInt(1000));
        }
        return o.build();
    }

    private static byte[] concat(byte[]... parts) {
        byte[] out = new byte[0];
        for (byte[] part : parts) {
            int at = out.length;
            out = Arrays.copyOf(out, at + part.length);
            System.arraycopy(part, 0, out, at, part.length);
        }
        return out;
    }

    /** A registry of one Protobuf schema, id 1. */
    private record OneSchema(ProtobufSchemaText text) implements SchemaRegistry {
        @Override
        public ProtobufSchemaText protobuf(int id) {
            return text;
        }

        @Override
        public org.apache.avro.Schema schema(int id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int register(String subject, org.apache.avro.Schema schema) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {}
    }
}
