package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.sink;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Values of random depth and shape, as a connector may hand them over: Structs with their schemas,
 * schemaless maps and lists, nulls, bytes, buffers, strings with lone surrogates, chains deeper than
 * the limit and containers that hold themselves. Whatever comes, the SMT returns a record or throws
 * a {@link DataException}, and the predicate answers; nothing else escapes, on a thread whose stack
 * is a fraction of a worker thread's.
 */
class HostileValuesPropertiesTest {
    /**
     * A quarter of the 1 MiB a JVM thread gets by default on 64-bit Linux, as the serdes' hostile
     * input tests use. The walk needs next to none of it.
     */
    private static final long STACK_BYTES = 256 * 1024;

    /** For making the values: Connect validates a Struct put into a Struct by recursing through it. */
    private static final long MAKER_STACK_BYTES = 64 * 1024 * 1024;

    /** Pieces of keys and strings: ill-formed ones, their replacement, and two spellings of é. */
    private static final String[] PIECES = {"a", "b", "\uD800", "\uDC00", "\uFFFD", "é", "e\u0301", "\u0000", ""};

    private static final String[] CONFIGS = {
        "strict", "replace", "repair", "replace+nfc", "strict+route",
    };

    @Provide
    Arbitrary<String> configs() {
        return Arbitraries.of(CONFIGS);
    }

    @Property(tries = 100)
    void theSmtReturnsARecordOrThrowsADataException(@ForAll long seed, @ForAll("configs") String config) {
        AtomicReference<Generated> made = new AtomicReference<>();
        assertThat(onStack(MAKER_STACK_BYTES, () -> made.set(new Generator(new Random(seed)).top())))
                .isNull();
        Generated generated = made.get();
        Utf8Sanitise<SinkRecord> smt = Utf8SanitiseTest.value(props(config));
        IsWellFormedUtf8<SinkRecord> predicate = new IsWellFormedUtf8<>();
        predicate.configure(Map.of());
        SinkRecord record = sink(generated.schema(), generated.value());

        Throwable thrown = onStack(STACK_BYTES, () -> {
            try {
                assertThat(smt.apply(record)).isNotNull();
            } catch (DataException expected) {
                // a bad record, as Connect's error handling expects it
            }
            predicate.test(record);
        });

        assertThat(thrown).as("seed %d, %s", seed, config).isNull();
    }

    private static Object[] props(String config) {
        List<Object> props = new ArrayList<>(List.of("sanitiser.policy", config.split("\\+")[0]));
        if (config.endsWith("+nfc")) {
            props.addAll(List.of("sanitiser.normalisation", "NFC"));
        }
        if (config.endsWith("+route")) {
            props.addAll(List.of("sanitiser.on.reject", "route"));
        }
        return props.toArray();
    }

    /** Runs {@code check} on a thread with a stack of {@code bytes}; what it threw, or null. */
    static Throwable onStack(long bytes, Runnable check) {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread thread = new Thread(
                null,
                () -> {
                    try {
                        check.run();
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                },
                "bounded-stack",
                bytes);
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return thrown.get();
    }

    record Generated(Schema schema, Object value) {}

    /** Random values from one seed. */
    static final class Generator {
        private final Random random;
        /** The containers made so far, for a cycle. */
        private final List<Object> containers = new ArrayList<>();

        Generator(Random random) {
            this.random = random;
        }

        Generated top() {
            Generated generated = random.nextInt(3) == 0 ? struct(4) : new Generated(null, schemaless(4));
            if (random.nextInt(4) == 0 && !containers.isEmpty()) {
                cycle();
            }
            return generated;
        }

        /** Puts a container made earlier inside one made later, which may be inside it. */
        @SuppressWarnings("unchecked")
        private void cycle() {
            Object into = containers.get(random.nextInt(containers.size()));
            Object held = containers.get(random.nextInt(containers.size()));
            if (into instanceof List<?> list) {
                ((List<Object>) list).add(held);
            } else if (into instanceof Map<?, ?> map) {
                ((Map<Object, Object>) map).put(random.nextBoolean() ? "cycle" : held, held);
            }
        }

        String string() {
            StringBuilder s = new StringBuilder();
            for (int i = random.nextInt(4); i > 0; i--) {
                s.append(PIECES[random.nextInt(PIECES.length)]);
            }
            return s.toString();
        }

        byte[] bytes() {
            byte[] bytes = new byte[random.nextInt(6)];
            random.nextBytes(bytes);
            return bytes;
        }

        Object schemaless(int budget) {
            int kind = random.nextInt(budget <= 0 ? 5 : 8);
            return switch (kind) {
                case 0 -> null;
                case 1, 2 -> string();
                case 3 -> bytes();
                case 4 -> ByteBuffer.wrap(bytes());
                case 5 -> {
                    List<Object> list = new ArrayList<>();
                    containers.add(list);
                    for (int i = random.nextInt(4); i > 0; i--) {
                        list.add(schemaless(budget - 1));
                    }
                    yield list;
                }
                case 6 -> {
                    Map<Object, Object> map = new LinkedHashMap<>();
                    containers.add(map);
                    for (int i = random.nextInt(4); i > 0; i--) {
                        map.put(random.nextInt(8) == 0 ? List.of(string()) : string(), schemaless(budget - 1));
                    }
                    yield map;
                }
                default -> chain(schemaless(0));
            };
        }

        /** Lists or maps around {@code leaf}, up to half again as deep as the limit. */
        private Object chain(Object leaf) {
            Object value = leaf;
            for (int i = random.nextInt(ValueChecker.MAX_DEPTH * 3 / 2); i > 0; i--) {
                if (random.nextBoolean()) {
                    List<Object> list = new ArrayList<>();
                    list.add(value);
                    value = list;
                } else {
                    Map<String, Object> map = new LinkedHashMap<>();
                    map.put(string(), value);
                    value = map;
                }
            }
            return value;
        }

        /** A struct with a string, bytes, an array, a map and, within the budget, structs inside. */
        Generated struct(int budget) {
            if (random.nextInt(6) == 0) {
                return deepStruct();
            }
            SchemaBuilder builder = SchemaBuilder.struct()
                    .field("s", Schema.OPTIONAL_STRING_SCHEMA)
                    .field("b", Schema.OPTIONAL_BYTES_SCHEMA)
                    .field(
                            "list",
                            SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA)
                                    .optional()
                                    .build())
                    .field(
                            "map",
                            SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA)
                                    .optional()
                                    .build());
            Generated inner = budget > 0 && random.nextBoolean() ? struct(budget - 1) : null;
            if (inner != null) {
                builder.field("inner", inner.schema());
            }
            Schema schema = builder.build();
            Struct struct = new Struct(schema).put("s", random.nextBoolean() ? string() : null);
            struct.put("b", random.nextBoolean() ? bytes() : null);
            List<String> list = new ArrayList<>();
            for (int i = random.nextInt(3); i > 0; i--) {
                list.add(string());
            }
            struct.put("list", list);
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = random.nextInt(4); i > 0; i--) {
                map.put(string(), string());
            }
            struct.put("map", map);
            if (inner != null) {
                struct.put("inner", inner.value());
            }
            return new Generated(schema, struct);
        }

        /** A chain of structs up to half again as deep as the limit, a string at the bottom. */
        private Generated deepStruct() {
            Struct struct =
                    DeepAndCyclicValuesTest.deepStruct(1 + random.nextInt(ValueChecker.MAX_DEPTH * 3 / 2), string());
            return new Generated(struct.schema(), struct);
        }
    }
}
