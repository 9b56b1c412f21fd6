package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.header;
import static dev.utf8sanitiser.connect.Records.sink;
import static dev.utf8sanitiser.connect.Utf8SanitiseTest.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** A fix never merges two keys of a map into one: the record is rejected instead. */
class KeyCollisionTest {

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void twoLoneSurrogatesThatBothBecomeTheReplacementCharacterAreRejected() {
        Map<String, Object> value = map("a\uD800", 1, "a\uDC00", 2);

        for (String policy : new String[] {"replace", "repair"}) {
            assertThatThrownBy(() -> value("sanitiser.policy", policy).apply(sink(null, value)))
                    .isExactlyInstanceOf(DataException.class)
                    .hasMessage("SURROGATE at value field {} byte 1 (ED B0 80); keys would collide at {} once fixed");
        }
        assertThat(value).hasSize(2);
    }

    @Test
    void aKeyFixedIntoOneThatCameWellFormedIsRejectedNamingTheFixedOne() {
        Map<String, Object> value = map("a\uD800", 1, "a\uFFFD", 2);

        assertThatThrownBy(() -> value("sanitiser.policy", "replace").apply(sink(null, value)))
                .isExactlyInstanceOf(DataException.class)
                .hasMessage("SURROGATE at value field {} byte 1 (ED A0 80); keys would collide at {} once fixed");
    }

    @Test
    void aCollisionInAMapWithASchemaIsRoutedWithTheKeysPath() {
        Schema schema = SchemaBuilder.struct()
                .field(
                        "tags",
                        SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA)
                                .build())
                .build();
        Struct value = new Struct(schema).put("tags", Map.of("x\uD800", "1", "x\uDBFF", "2"));

        SinkRecord routed = value("sanitiser.policy", "replace", "sanitiser.on.reject", "route")
                .apply(sink(schema, value));

        assertThat(routed.topic()).isEqualTo("orders.dlq");
        assertThat(routed.value()).isSameAs(value);
        assertThat(header(routed.headers(), "__utf8.rule")).isEqualTo("SURROGATE");
        assertThat(header(routed.headers(), "__utf8.field")).isEqualTo("tags{}");
        assertThat(header(routed.headers(), "__utf8.policy")).isEqualTo("replace");
        assertThat(header(routed.headers(), "__streams.errors.message"))
                .endsWith("; keys would collide at tags{} once fixed");
    }

    @Test
    void twoSpellingsThatOneNormalisationFormMakesEqualAreRejectedUnderTheContentRule() {
        Map<String, Object> value = map("caf\u00E9", 1, "cafe\u0301", 2);

        assertThatThrownBy(() -> value("sanitiser.policy", "replace", "sanitiser.normalisation", "NFC")
                        .apply(sink(null, value)))
                .isExactlyInstanceOf(DataException.class)
                .hasMessageStartingWith("NOT_NORMALISED at value field {} byte ")
                .hasMessageEndingWith("; keys would collide at {} once fixed");
    }

    @Test
    void keysThatStayDistinctAreFixedAndKeptInOrder() {
        Map<String, Object> value = map("a\uD800", 1, "b\uDC00", 2, "c", 3);

        SinkRecord fixed = value("sanitiser.policy", "replace").apply(sink(null, value));

        assertThat(List.<Object>copyOf(((Map<?, ?>) fixed.value()).entrySet()))
                .containsExactly(Map.entry("a\uFFFD", 1), Map.entry("b\uFFFD", 2), Map.entry("c", 3));
        assertThat(header(fixed.headers(), "__utf8.errors")).isEqualTo("2");
    }

    /** Keys of one to three pieces that differ only in their ill-formed parts, or not at all once fixed. */
    private static final String[] PIECES = {"a", "\uD800", "\uDC00", "\uDBFF", "\uFFFD"};

    @Property(tries = 500)
    void aFixedMapNeverHasFewerEntriesThanItCameWith(@ForAll long seed) {
        Random random = new Random(seed);
        Map<String, Object> inner = new LinkedHashMap<>();
        Map<String, Object> outer = new LinkedHashMap<>();
        for (int i = random.nextInt(6); i >= 0; i--) {
            inner.put(key(random), i);
            outer.put(key(random), random.nextBoolean() ? i : inner);
        }
        SinkRecord fixed;
        try {
            fixed = value("sanitiser.policy", random.nextBoolean() ? "replace" : "repair")
                    .apply(sink(null, outer));
        } catch (DataException rejected) {
            assertThat(rejected).hasMessageContaining("; keys would collide at ");
            return;
        }
        Map<?, ?> out = (Map<?, ?>) fixed.value();
        assertThat(out).hasSameSizeAs(outer);
        for (Object v : out.values()) {
            if (v instanceof Map<?, ?> m) {
                assertThat(m).hasSameSizeAs(inner);
            }
        }
        assertThat(List.copyOf(out.keySet())).doesNotHaveDuplicates();
    }

    private static String key(Random random) {
        StringBuilder key = new StringBuilder();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            key.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return key.toString();
    }
}
