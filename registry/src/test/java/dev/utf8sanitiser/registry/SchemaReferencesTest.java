package dev.utf8sanitiser.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.utf8sanitiser.registry.SchemaReferences.Answer;
import dev.utf8sanitiser.registry.SchemaReferences.Key;
import dev.utf8sanitiser.registry.SchemaReferences.Reference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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

    /** {@code width} schemas a level, {@code depth} levels, each referencing all schemas of the next. */
    private static Function<String, Answer> diamond(int width, int depth) {
        return subject -> {
            int l = Integer.parseInt(subject.substring(1, subject.indexOf('x')));
            List<String> next = l == depth - 1 ? List.of() : level(width, l + 1);
            return avro(subject, next, next);
        };
    }

    private static List<String> level(int width, int l) {
        return IntStream.range(0, width).mapToObj(i -> "l" + l + "x" + i).toList();
    }

    // A hang guard, not a performance assertion: the diamond took minutes when every text was
    // resolved again against all the names parsed before it.
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aDiamondTwentyWideAndFortyDeepResolvesInOnePass() {
        Map<Key, Integer> asked = new HashMap<>();
        Schema schema =
                SchemaReferences.resolve(7, avro("Top", level(20, 0), level(20, 0)), source(diamond(20, 40), asked));

        assertThat(asked).hasSize(800).allSatisfy((key, count) -> assertThat(count)
                .isEqualTo(1));
        Schema first = schema.getField("f0").schema().getTypes().get(1);
        Schema last = schema.getField("f19").schema().getTypes().get(1);
        for (int l = 1; l < 40; l++) {
            // Every schema of a level uses the same schemas of the next: a graph, not a tree.
            assertThat(first.getField("f7").schema().getTypes().get(1))
                    .isSameAs(last.getField("f7").schema().getTypes().get(1));
            first = first.getField("f0").schema().getTypes().get(1);
            last = last.getField("f19").schema().getTypes().get(1);
        }
        assertThat(last.getFullName()).isEqualTo("l39x19");
        assertThat(last.getFields()).hasSize(1);
    }

    /** Record {@code name} of the diamond, defined in full at its first use and by name after. */
    private static void define(String name, int width, int depth, Set<String> defined, StringBuilder text) {
        if (!defined.add(name)) {
            text.append('"').append(name).append('"');
            return;
        }
        int l = Integer.parseInt(name.substring(1, name.indexOf('x')));
        text.append("{\"type\":\"record\",\"name\":\"").append(name).append("\",\"fields\":[");
        if (l < depth - 1) {
            List<String> next = level(width, l + 1);
            for (int i = 0; i < next.size(); i++) {
                text.append("{\"name\":\"f").append(i).append("\",\"type\":");
                define(next.get(i), width, depth, defined, text);
                text.append("},");
            }
        }
        text.append("{\"name\":\"text\",\"type\":\"string\"}]}");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void oneTextWhoseNamedTypesFormADiamondResolvesInOnePass() {
        // Each named type is defined once and used by name after: the text is 800 records long,
        // though the schema has 20^39 paths.
        StringBuilder text = new StringBuilder();
        define("l0x0", 20, 40, new HashSet<>(), text);

        Schema schema = SchemaReferences.resolve(7, new Answer("AVRO", text.toString(), List.of()), reference -> {
            throw new AssertionError("no reference to fetch: " + reference);
        });

        // Avro writes each named type in full once, where it is first used: the same text.
        assertThat(schema.toString()).isEqualTo(text.toString());
        Schema deepest = schema;
        for (int l = 1; l < 40; l++) {
            deepest = deepest.getField("f19").schema();
        }
        assertThat(deepest.getFullName()).isEqualTo("l39x19");
        assertThat(deepest.getFields()).hasSize(1);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void manyNamesUsedBeforeTheirDefinitionInALargeSchemaAreUnusable() {
        // 800 fields name a record defined only in a later field, each record of 20 fields.
        StringBuilder text = new StringBuilder("{\"type\":\"record\",\"name\":\"Top\",\"fields\":[");
        for (int i = 0; i < 800; i++) {
            text.append("{\"name\":\"u")
                    .append(i)
                    .append("\",\"type\":\"N")
                    .append(i)
                    .append("\"},");
        }
        for (int i = 0; i < 800; i++) {
            text.append("{\"name\":\"d")
                    .append(i)
                    .append("\",\"type\":{\"type\":\"record\",\"name\":\"N")
                    .append(i)
                    .append("\",\"fields\":[");
            for (int j = 0; j < 20; j++) {
                text.append(j == 0 ? "" : ",").append("{\"name\":\"g").append(j).append("\",\"type\":\"string\"}");
            }
            text.append("]}}").append(i == 799 ? "" : ",");
        }
        text.append("]}");

        Throwable e = catchThrowable(
                () -> SchemaReferences.resolve(7, new Answer("AVRO", text.toString(), List.of()), reference -> {
                    throw new AssertionError("no reference to fetch: " + reference);
                }));

        assertThat(e)
                .isExactlyInstanceOf(UnusableSchemaException.class)
                .hasMessageStartingWith("Schema id 7 uses 800 names before their definition in a schema of ");
    }

    @Test
    void aRecursiveRecordResolvesToItself() {
        String text = "{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"next\","
                + "\"type\":[\"null\",\"Node\"]},{\"name\":\"tail\",\"type\":[\"null\",\"Leaf\"]},"
                + "{\"name\":\"leaf\",\"type\":{\"type\":\"record\",\"name\":\"Leaf\",\"fields\":"
                + "[{\"name\":\"s\",\"type\":\"string\"}]}}]}";

        Schema schema = SchemaReferences.resolve(7, new Answer("AVRO", text, List.of()), reference -> {
            throw new AssertionError("no reference to fetch: " + reference);
        });

        assertThat(schema.getField("next").schema().getTypes().get(1)).isSameAs(schema);
        assertThat(schema.getField("tail").schema().getTypes().get(1))
                .isSameAs(schema.getField("leaf").schema());
        assertThat(schema).isEqualTo(new Schema.Parser().parse(text));
    }

    @Test
    void aNameNeverDefinedIsUnusable() {
        String text = "{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"b\",\"type\":\"B\"}]}";

        Throwable e = catchThrowable(() -> SchemaReferences.resolve(7, new Answer("AVRO", text, List.of()), r -> {
            throw new AssertionError("no reference to fetch: " + r);
        }));

        assertThat(e).isExactlyInstanceOf(UnusableSchemaException.class).hasMessageContaining("B");
    }
}
