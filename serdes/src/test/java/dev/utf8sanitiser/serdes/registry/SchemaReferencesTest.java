package dev.utf8sanitiser.serdes.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.utf8sanitiser.serdes.registry.SchemaReferences.Answer;
import dev.utf8sanitiser.serdes.registry.SchemaReferences.Key;
import dev.utf8sanitiser.serdes.registry.SchemaReferences.Reference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** The limits of reference resolution, on graphs too large to serve over HTTP in a unit test. */
class SchemaReferencesTest {

    private static Answer avro(String name, List<String> uses, List<String> references) {
        return new Answer(
                "AVRO",
                GraphRegistry.record(name, uses),
                references.stream().map(s -> new Reference(s, s, 1)).toList());
    }

    /** A source over {@code graph} that counts what it is asked. */
    private static SchemaReferences.Source source(Function<String, Answer> graph, Map<Key, Integer> asked) {
        return reference -> {
            asked.merge(reference.key(), 1, Integer::sum);
            return graph.apply(reference.subject());
        };
    }

    @Test
    void aChainOfTenThousandStopsAtTheDepthLimit() {
        Map<Key, Integer> asked = new HashMap<>();
        Function<String, Answer> chain = subject -> {
            int i = Integer.parseInt(subject.substring(1));
            return avro("R" + i, List.of("R" + (i + 1)), List.of("s" + (i + 1)));
        };
        Throwable e = catchThrowable(
                () -> SchemaReferences.resolve(7, avro("Top", List.of("R0"), List.of("s0")), source(chain, asked)));

        assertThat(e)
                .isExactlyInstanceOf(UnusableSchemaException.class)
                .hasMessage("The references of schema id 7 go deeper than 64 levels (at subject s64 version 1)");
        assertThat(asked).hasSize(SchemaReferences.MAX_DEPTH);
    }

    @Test
    void moreThanAThousandDistinctReferencesInAllAreUnusable() {
        // The id references 10 schemas, each of which references 200 of its own: 2,010 in all.
        Map<Key, Integer> asked = new HashMap<>();
        Function<String, Answer> tree = subject -> subject.startsWith("m")
                ? avro(
                        subject,
                        List.of(),
                        IntStream.range(0, 200)
                                .mapToObj(j -> "l" + subject + "x" + j)
                                .toList())
                : avro(subject, List.of(), List.of());
        Answer top = avro(
                "Top", List.of(), IntStream.range(0, 10).mapToObj(i -> "m" + i).toList());

        Throwable e = catchThrowable(() -> SchemaReferences.resolve(7, top, source(tree, asked)));

        assertThat(e)
                .isExactlyInstanceOf(UnusableSchemaException.class)
                .hasMessage("Schema id 7 references more than 1000 distinct schemas (subject versions), directly or"
                        + " not");
        assertThat(asked).hasSize(1000).allSatisfy((key, count) -> assertThat(count)
                .isEqualTo(1));
    }

    @Test
    void aThousandDistinctReferencesResolve() {
        Map<Key, Integer> asked = new HashMap<>();
        List<String> subjects = IntStream.range(0, 1000).mapToObj(i -> "r" + i).toList();
        Schema schema = SchemaReferences.resolve(
                7, avro("Top", subjects, subjects), source(s -> avro(s, List.of(), List.of()), asked));

        assertThat(schema.getFields()).hasSize(1001);
        assertThat(schema.getField("f999").schema().getTypes().get(1).getFullName())
                .isEqualTo("r999");
        assertThat(asked).hasSize(1000);
    }

    @Test
    void aDiamondIsAskedOncePerSchema() {
        // 40 levels of 2 schemas, each referencing both of the next: 2^40 paths, 80 schemas.
        Map<Key, Integer> asked = new HashMap<>();
        Function<Integer, List<String>> level =
                l -> IntStream.range(0, 2).mapToObj(i -> "l" + l + "x" + i).toList();
        Function<String, Answer> diamond = subject -> {
            int l = Integer.parseInt(subject.substring(1, subject.indexOf('x')));
            List<String> next = l == 39 ? List.of() : level.apply(l + 1);
            return avro(subject, next, next);
        };
        long start = System.nanoTime();
        Schema schema =
                SchemaReferences.resolve(7, avro("Top", level.apply(0), level.apply(0)), source(diamond, asked));

        assertThat(schema.getFields()).hasSize(3);
        assertThat(asked).hasSize(80).allSatisfy((key, count) -> assertThat(count)
                .isEqualTo(1));
        assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
    }

    @Test
    void aReferenceToASchemaThatIsNotAvroIsUnusable() {
        Throwable e = catchThrowable(() -> SchemaReferences.resolve(
                7, avro("Top", List.of(), List.of("json")), reference -> new Answer("JSON", "{}", new ArrayList<>())));

        assertThat(e)
                .isExactlyInstanceOf(UnusableSchemaException.class)
                .hasMessage("Schema id 7 references subject json version 1, which is a JSON schema, not Avro");
    }

    @Test
    void aLongCycleIsNamedWithItsMiddleCut() {
        Function<String, Answer> ring = subject -> {
            int i = Integer.parseInt(subject.substring(1));
            return avro("R" + i, List.of(), List.of("s" + (i + 1) % 20));
        };
        Throwable e = catchThrowable(() ->
                SchemaReferences.resolve(7, avro("Top", List.of(), List.of("s0")), source(ring, new HashMap<>())));

        assertThat(e)
                .isExactlyInstanceOf(UnusableSchemaException.class)
                .hasMessage("The references of schema id 7 form a cycle: subject s0 version 1 -> subject s1 version 1"
                        + " -> subject s2 version 1 -> subject s3 version 1 -> (13 more) -> subject s17 version 1 ->"
                        + " subject s18 version 1 -> subject s19 version 1 -> subject s0 version 1");
    }
}
