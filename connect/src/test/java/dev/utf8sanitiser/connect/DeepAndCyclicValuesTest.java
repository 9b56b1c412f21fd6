package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.header;
import static dev.utf8sanitiser.connect.Records.sink;
import static dev.utf8sanitiser.connect.Utf8SanitiseTest.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * Values no payload format can hold but a connector can hand over: nested deeper than any stack,
 * or containing themselves. Each is a bad record like any other, never an {@link Error}.
 */
class DeepAndCyclicValuesTest {

    /**
     * A struct {@code depth} levels deep, {@code {"a":{"a":...{"s":LEAF}}}}. Built on a thread with
     * a large stack: Kafka's {@code Struct.put} validates the whole value it is given, recursively,
     * so building thousands of levels can overflow a default stack before the SMT sees the value.
     */
    static Struct deepStruct(int depth, String leaf) {
        FutureTask<Struct> build = new FutureTask<>(() -> {
            Schema schema =
                    SchemaBuilder.struct().field("s", Schema.STRING_SCHEMA).build();
            Struct struct = new Struct(schema).put("s", leaf);
            for (int i = 1; i < depth; i++) {
                Schema outer = SchemaBuilder.struct().field("a", schema).build();
                struct = new Struct(outer).put("a", struct);
                schema = outer;
            }
            return struct;
        });
        Thread builder = new Thread(null, build, "deep-struct", 256L << 20);
        builder.start();
        try {
            return build.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("building a struct " + depth + " deep", e.getCause());
        }
    }

    /** Lists {@code depth} levels deep around {@code leaf}: {@code [[...[LEAF]...]]}. */
    static Object deepList(int depth, Object leaf) {
        Object value = leaf;
        for (int i = 0; i < depth; i++) {
            value = new ArrayList<>(List.of(value));
        }
        return value;
    }

    /** Schemaless maps {@code depth} levels deep around {@code leaf}: {@code {"a":{"a":...LEAF}}}. */
    static Object deepMap(int depth, Object leaf) {
        Object value = leaf;
        for (int i = 0; i < depth; i++) {
            Map<String, Object> map = new HashMap<>();
            map.put("a", value);
            value = map;
        }
        return value;
    }

    @Test
    void aStructDeeperThanTheLimitIsADataExceptionNamingTheLimitAndWhereItStopped() {
        Struct deep = deepStruct(3_000, "ok");

        assertThatThrownBy(() -> value().apply(sink(deep.schema(), deep)))
                .isExactlyInstanceOf(DataException.class)
                .hasMessageStartingWith("NESTED_TOO_DEEP at value field a.a.a.")
                .hasMessageEndingWith("; nested deeper than " + ValueChecker.MAX_DEPTH + " levels");
    }

    @Test
    void aSchemalessListOrMapAHundredThousandDeepIsADataExceptionUnderEveryPolicy() {
        for (String policy : new String[] {"strict", "replace", "repair"}) {
            for (Object deep : List.of(deepList(100_000, "x\uD800"), deepMap(100_000, "x\uD800"))) {
                assertThatThrownBy(() -> value("sanitiser.policy", policy).apply(sink(null, deep)))
                        .as(policy)
                        .isExactlyInstanceOf(DataException.class)
                        .hasMessageStartingWith("NESTED_TOO_DEEP at value field ");
            }
        }
    }

    @Test
    void valuesAtTheLimitAreCheckedAndFixedLikeAnyOther() {
        Object list = deepList(ValueChecker.MAX_DEPTH, "x\uD800");
        SinkRecord fixed = value("sanitiser.policy", "replace").apply(sink(null, list));
        Object inner = fixed.value();
        for (int i = 0; i < ValueChecker.MAX_DEPTH; i++) {
            inner = ((List<?>) inner).get(0);
        }
        assertThat(inner).isEqualTo("x\uFFFD");
        assertThat(header(fixed.headers(), "__utf8.action")).isEqualTo("replaced");

        Struct struct = deepStruct(ValueChecker.MAX_DEPTH, "x\uD800");
        assertThatThrownBy(() -> value().apply(sink(struct.schema(), struct)))
                .isExactlyInstanceOf(DataException.class)
                .hasMessageStartingWith("SURROGATE at value field a.a.")
                .hasMessageEndingWith("... byte 1 (ED A0 80)");
    }

    @Test
    void aListThatContainsItselfIsADataExceptionNamingWhere() {
        List<Object> list = new ArrayList<>();
        list.add("ok");
        list.add(list);

        assertThatThrownBy(() -> value().apply(sink(null, list)))
                .isExactlyInstanceOf(DataException.class)
                .hasMessage("CYCLIC_VALUE at value field [1] byte 0; a Map or List that contains itself");
    }

    @Test
    void aMapThatContainsItselfFurtherDownIsADataException() {
        Map<String, Object> top = new LinkedHashMap<>();
        List<Object> middle = new ArrayList<>();
        middle.add(top);
        top.put("lines", middle);

        assertThatThrownBy(() -> value("sanitiser.policy", "replace").apply(sink(null, top)))
                .isExactlyInstanceOf(DataException.class)
                .hasMessage("CYCLIC_VALUE at value field lines[0] byte 0; a Map or List that contains itself");
    }

    @Test
    void aCycleThroughAMapKeyIsFoundToo() {
        List<Object> key = new ArrayList<>();
        Map<Object, Object> map = new HashMap<>();
        key.add(map);
        map.put(key, "x");
        Schema schema = SchemaBuilder.map(
                        SchemaBuilder.array(Schema.STRING_SCHEMA).build(), Schema.STRING_SCHEMA)
                .build();

        assertThatThrownBy(() -> value().apply(sink(schema, map)))
                .isExactlyInstanceOf(DataException.class)
                .hasMessageStartingWith("CYCLIC_VALUE at value field {}");
    }

    @Test
    void aSharedValueThatAppearsTwiceIsNoCycle() {
        List<Object> shared = new ArrayList<>(List.of("x\uD800"));
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("a", shared);
        map.put("b", List.of(shared, shared));

        SinkRecord fixed = value("sanitiser.policy", "replace").apply(sink(null, map));

        assertThat(fixed.value())
                .isEqualTo(Map.of("a", List.of("x\uFFFD"), "b", List.of(List.of("x\uFFFD"), List.of("x\uFFFD"))));
        assertThat(header(fixed.headers(), "__utf8.errors")).isEqualTo("3");
    }

    @Test
    void routeSendsADeepRecordToTheDeadLetterTopic() {
        Object deep = deepList(100_000, "ok");
        SinkRecord routed = value("sanitiser.on.reject", "route").apply(sink(null, deep));

        assertThat(routed.topic()).isEqualTo("orders.dlq");
        assertThat(routed.value()).isSameAs(deep);
        assertThat(header(routed.headers(), "__utf8.rule")).isEqualTo("NESTED_TOO_DEEP");
        assertThat(header(routed.headers(), "__utf8.field"))
                .startsWith("[0][0][0]")
                .endsWith("...");
    }

    @Test
    void thePredicateIsFalseForDeepAndCyclicValues() {
        IsWellFormedUtf8<SinkRecord> predicate = new IsWellFormedUtf8<>();
        predicate.configure(Map.of());
        List<Object> cyclic = new ArrayList<>();
        cyclic.add(cyclic);
        Struct deep = deepStruct(3_000, "ok");

        assertThat(predicate.test(sink(null, deepMap(100_000, "ok")))).isFalse();
        assertThat(predicate.test(sink(deep.schema(), deep))).isFalse();
        assertThat(predicate.test(sink(null, cyclic))).isFalse();
        assertThat(predicate.test(sink(null, deepMap(ValueChecker.MAX_DEPTH, "ok"))))
                .isTrue();
    }
}
