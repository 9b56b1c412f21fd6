package dev.utf8sanitiser.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.utf8sanitiser.registry.GraphRegistry.Node;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * Hostile reference graphs from a registry that answers: a verdict on the record ({@link
 * UnusableSchemaException}) in bounded time and requests, never a stack overflow; and a registry
 * too slow for the whole lookup is a transient failure.
 */
class RestSchemaRegistryReferencesIT {

    /** A client with time enough for a lookup of a hundred requests on a loaded machine. */
    private static RestSchemaRegistry roomy(ScriptedServer registry) {
        return FastClients.client(registry.url(), "sanitiser.registry.retry.timeout.ms", "30000");
    }

    /** s0 references s1, s1 references s2, ... up to {@code length}; id 1 references s0. */
    private static GraphRegistry.Graph chain(int length) {
        return subject -> {
            if (subject.isEmpty()) {
                return Optional.of(new Node(GraphRegistry.record("Top", List.of("R0")), List.of("s0")));
            }
            int i = Integer.parseInt(subject.substring(1));
            if (i >= length) {
                return Optional.empty();
            }
            boolean last = i == length - 1;
            return Optional.of(new Node(
                    GraphRegistry.record("R" + i, last ? List.of() : List.of("R" + (i + 1))),
                    last ? List.of() : List.of("s" + (i + 1))));
        };
    }

    @Test
    void aLongChainIsUnusableAfterTheDepthLimitNotAStackOverflow() {
        try (ScriptedServer registry = GraphRegistry.serve(chain(10_000), 0);
                RestSchemaRegistry client = roomy(registry)) {
            Throwable e = catchThrowable(() -> client.schema(1));

            assertThat(e)
                    .isExactlyInstanceOf(UnusableSchemaException.class)
                    .hasMessage("The references of schema id 1 go deeper than 64 levels (at subject s64 version 1)");
            assertThat(((UnusableSchemaException) e).id()).isEqualTo(1);
            assertThat(registry.requests()).as("the id and 64 levels").hasSize(1 + 64);

            // The verdict is kept: the next record with the id costs no request.
            assertThat(catchThrowable(() -> client.schema(1))).isSameAs(e);
            assertThat(registry.requests()).hasSize(1 + 64);
        }
    }

    @Test
    void aChainAtTheDepthLimitResolvesAndReadsAsAvroReadsIt() throws Exception {
        try (ScriptedServer registry = GraphRegistry.serve(chain(64), 0);
                RestSchemaRegistry client = roomy(registry)) {
            Schema top = client.schema(1);

            Schema deepest = top;
            for (int i = 0; i < 64; i++) {
                deepest = deepest.getField("f0").schema().getTypes().get(1);
                assertThat(deepest.getFullName()).isEqualTo("R" + i);
            }
            assertThat(deepest.getFields()).hasSize(1);
            // Avro's own writer and reader agree on a value of the resolved schema.
            GenericRecord value = new GenericData.Record(top);
            value.put("text", "top");
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(top).write(value, encoder);
            encoder.flush();
            GenericRecord read = new GenericDatumReader<GenericRecord>(top)
                    .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
            assertThat(read.get("text").toString()).isEqualTo("top");
            assertThat(registry.requests()).hasSize(1 + 64);
        }
    }

    @Test
    void aCycleIsUnusable() {
        // s0 -> s1 -> s2 -> s0
        GraphRegistry.Graph cycle = subject -> {
            if (subject.isEmpty()) {
                return Optional.of(new Node(GraphRegistry.record("Top", List.of("R0")), List.of("s0")));
            }
            int i = Integer.parseInt(subject.substring(1));
            return Optional.of(
                    new Node(GraphRegistry.record("R" + i, List.of("R" + (i + 1) % 3)), List.of("s" + (i + 1) % 3)));
        };
        try (ScriptedServer registry = GraphRegistry.serve(cycle, 0);
                RestSchemaRegistry client = roomy(registry)) {
            assertThat(catchThrowable(() -> client.schema(1)))
                    .isExactlyInstanceOf(UnusableSchemaException.class)
                    .hasMessage("The references of schema id 1 form a cycle: subject s0 version 1 -> subject s1"
                            + " version 1 -> subject s2 version 1 -> subject s0 version 1");
            assertThat(registry.requests()).hasSize(1 + 3);
        }
    }

    @Test
    void aSelfReferenceIsUnusable() {
        GraphRegistry.Graph self = subject -> Optional.of(
                subject.isEmpty()
                        ? new Node(GraphRegistry.record("Top", List.of("Me")), List.of("me"))
                        : new Node(GraphRegistry.record("Me", List.of()), List.of("me")));
        try (ScriptedServer registry = GraphRegistry.serve(self, 0);
                RestSchemaRegistry client = roomy(registry)) {
            assertThat(catchThrowable(() -> client.schema(1)))
                    .isExactlyInstanceOf(UnusableSchemaException.class)
                    .hasMessage("The references of schema id 1 form a cycle: subject me version 1 -> subject me"
                            + " version 1");
        }
    }

    @Test
    void aDiamondOfDepth40AsksForEachSchemaOnce() {
        // Each level's two schemas both reference both of the next level's: 2^40 paths, 80 schemas.
        int depth = 40;
        GraphRegistry.Graph diamond = subject -> {
            int level = subject.isEmpty() ? -1 : Integer.parseInt(subject.substring(1));
            String name = subject.isEmpty() ? "Top" : subject.toUpperCase(java.util.Locale.ROOT);
            if (level + 1 == depth) {
                return Optional.of(new Node(GraphRegistry.record(name, List.of()), List.of()));
            }
            int next = level + 1;
            return Optional.of(new Node(
                    GraphRegistry.record(name, List.of("A" + next, "B" + next)), List.of("a" + next, "b" + next)));
        };
        try (ScriptedServer registry = GraphRegistry.serve(diamond, 0);
                RestSchemaRegistry client = roomy(registry)) {
            long start = System.nanoTime();
            Schema top = client.schema(1);

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            Schema a39 = top;
            for (int level = 0; level < depth; level++) {
                a39 = a39.getField("f0").schema().getTypes().get(1);
            }
            assertThat(a39.getFullName()).isEqualTo("A39");
            assertThat(registry.requests()).hasSize(1 + 2 * depth).doesNotHaveDuplicates();
        }
    }

    @Test
    void fiveThousandReferencesAreUnusableWithoutAskingForAny() {
        List<String> subjects = IntStream.range(0, 5_000).mapToObj(i -> "s" + i).toList();
        GraphRegistry.Graph wide = subject -> Optional.of(
                subject.isEmpty()
                        ? new Node(GraphRegistry.record("Top", List.of()), subjects)
                        : new Node(
                                GraphRegistry.record(subject.toUpperCase(java.util.Locale.ROOT), List.of()),
                                List.of()));
        try (ScriptedServer registry = GraphRegistry.serve(wide, 0);
                RestSchemaRegistry client = roomy(registry)) {
            assertThat(catchThrowable(() -> client.schema(1)))
                    .isExactlyInstanceOf(UnusableSchemaException.class)
                    .hasMessage("Schema id 1 lists 5000 references, more than 1000");
            assertThat(registry.requests()).containsExactly("GET /schemas/ids/1");
        }
    }

    @Test
    void aMissingReferenceStaysUnknownSchema() {
        // s1 is referenced by s0 but the registry does not have it.
        GraphRegistry.Graph gap = subject -> subject.equals("s1") ? Optional.empty() : chain(3).apply(subject);
        try (ScriptedServer registry = GraphRegistry.serve(gap, 0);
                RestSchemaRegistry client = roomy(registry)) {
            assertThat(catchThrowable(() -> client.schema(1)))
                    .isExactlyInstanceOf(UnknownSchemaException.class)
                    .hasMessageStartingWith("Schema id 1 references s1 in subject s1 version 1, which the Schema"
                            + " Registry at " + registry.url() + " does not have");
        }
    }

    @Test
    void aRegistryTooSlowForTheWholeLookupIsUnavailableWithinTheBudget() {
        // Every answer takes 100 ms, each well within the read timeout; 64 of them do not fit in 1 s.
        try (ScriptedServer registry = GraphRegistry.serve(chain(64), 100);
                RestSchemaRegistry client =
                        FastClients.client(registry.url(), "sanitiser.registry.retry.timeout.ms", "1000")) {
            long start = System.nanoTime();
            Throwable e = catchThrowable(() -> client.schema(1));

            Duration took = Duration.ofNanos(System.nanoTime() - start);
            // Given up between two requests, or in the middle of one: the same budget either way.
            assertThat(e)
                    .isExactlyInstanceOf(RegistryUnavailableException.class)
                    .hasMessageContaining("sanitiser.registry.retry.timeout.ms=1000");
            // 64 answers would take 6.4 s; the margin is for a loaded machine.
            assertThat(took).isBetween(Duration.ofMillis(1000), Duration.ofMillis(1000 + 1500));
            // Not kept: the next lookup asks again.
            int asked = registry.requests().size();
            assertThat(catchThrowable(() -> client.schema(1))).isExactlyInstanceOf(RegistryUnavailableException.class);
            assertThat(registry.requests().size()).isGreaterThan(asked);
        }
    }

    @Test
    void aReferenceThatNeverAnswersIsUnavailableWithinTheBudget() {
        // The id answers at once; the first reference hangs far past the budget.
        try (ScriptedServer registry = ScriptedServer.start(exchange -> {
                    if (exchange.getRequestURI().getRawPath().equals("/schemas/ids/1")) {
                        ScriptedServer.send(
                                exchange,
                                200,
                                GraphRegistry.answer(
                                                new Node(GraphRegistry.record("Top", List.of("R0")), List.of("s0")))
                                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        return;
                    }
                    try {
                        Thread.sleep(30_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                RestSchemaRegistry client = FastClients.client(
                        registry.url(),
                        "http.read.timeout.ms",
                        "20000",
                        "sanitiser.registry.retry.timeout.ms",
                        "1000")) {
            long start = System.nanoTime();
            Throwable e = catchThrowable(() -> client.schema(1));

            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(e).isExactlyInstanceOf(RegistryUnavailableException.class);
            assertThat(e.getMessage()).contains("subject s0 version 1, referenced by schema id 1");
            assertThat(took).isLessThan(Duration.ofMillis(1000 + 1500));
        }
    }
}
