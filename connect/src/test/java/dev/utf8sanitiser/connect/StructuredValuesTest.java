package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.LATIN1;
import static dev.utf8sanitiser.connect.Records.header;
import static dev.utf8sanitiser.connect.Records.headers;
import static dev.utf8sanitiser.connect.Records.sink;
import static dev.utf8sanitiser.connect.Records.source;
import static dev.utf8sanitiser.connect.Records.utf8;
import static dev.utf8sanitiser.connect.Utf8SanitiseTest.sourceValue;
import static dev.utf8sanitiser.connect.Utf8SanitiseTest.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/** Structs, maps and arrays: which strings are checked, how a finding names them, how a fix rebuilds. */
class StructuredValuesTest {

    static final Schema CUSTOMER = SchemaBuilder.struct()
            .name("Customer")
            .field("name", Schema.STRING_SCHEMA)
            .field("photo", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .build();

    static final Schema LINE = SchemaBuilder.struct()
            .name("Line")
            .field("sku", Schema.STRING_SCHEMA)
            .field("qty", Schema.INT32_SCHEMA)
            .build();

    static final Schema ORDER = SchemaBuilder.struct()
            .name("Order")
            .field("id", Schema.INT64_SCHEMA)
            .field("customer", CUSTOMER)
            .field("lines", SchemaBuilder.array(LINE).build())
            .field(
                    "tags",
                    SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA)
                            .build())
            .field("price", Decimal.schema(2))
            .field(
                    "memo",
                    SchemaBuilder.string().optional().defaultValue("none").build())
            .build();

    /** An order whose strings are well-formed; the tests spoil one place each. */
    static Struct order(String name, String sku1, Map<String, String> tags, byte[] photo) {
        Struct customer = new Struct(CUSTOMER).put("name", name).put("photo", photo);
        List<Struct> lines = List.of(
                new Struct(LINE).put("sku", "A-1").put("qty", 1),
                new Struct(LINE).put("sku", sku1).put("qty", 2));
        return new Struct(ORDER)
                .put("id", 7L)
                .put("customer", customer)
                .put("lines", lines)
                .put("tags", tags)
                .put("price", new BigDecimal("9.99"))
                .put("memo", null);
    }

    static Struct order() {
        return order("Zoë", "B-2", Map.of("color", "red"), LATIN1);
    }

    @Test
    void aWellFormedStructPassesAsItCameAndItsBytesFieldsAreNotText() {
        SinkRecord record = sink(ORDER, order());

        assertThat(value().apply(record)).isSameAs(record);
    }

    @Test
    void aFindingNamesTheFieldAndCountsBytesFromTheStringsStart() {
        SinkRecord record = sink(ORDER, order("Zoë \uD800", "B-2", Map.of("color", "red"), null));

        assertThatThrownBy(() -> value().apply(record))
                .hasMessage("SURROGATE at value field customer.name byte 5 (ED A0 80)");
    }

    @Test
    void arrayElementsAndMapValuesAndKeysAreNamedAsDlqMdSpellsThem() {
        assertThatThrownBy(() -> value().apply(sink(ORDER, order("Zoë", "B\uDFFF", Map.of("color", "red"), null))))
                .hasMessage("SURROGATE at value field lines[1].sku byte 1 (ED BF BF)");
        assertThatThrownBy(() -> value().apply(sink(ORDER, order("Zoë", "B-2", Map.of("color", "r\uD800"), null))))
                .hasMessage("SURROGATE at value field tags{color} byte 1 (ED A0 80)");
        assertThatThrownBy(() -> value().apply(sink(ORDER, order("Zoë", "B-2", Map.of("c\uD800", "red"), null))))
                .hasMessage("SURROGATE at value field tags{} byte 1 (ED A0 80)");
    }

    @Test
    void replaceRebuildsTheStructWithTheSameSchemaAndLeavesTheOriginal() {
        Struct original = order("Zoë \uD800", "B\uDFFF", Map.of("color", "red"), LATIN1);

        SinkRecord fixed = value("sanitiser.policy", "replace").apply(sink(ORDER, original));

        Struct value = (Struct) fixed.value();
        assertThat(fixed.valueSchema()).isSameAs(ORDER);
        assertThat(value.schema()).isSameAs(ORDER);
        assertThat(value.getStruct("customer").getString("name")).isEqualTo("Zoë \uFFFD");
        assertThat(value.getArray("lines"))
                .extracting(line -> ((Struct) line).getString("sku"))
                .containsExactly("A-1", "B\uFFFD");
        assertThat(value.getStruct("customer").getBytes("photo")).isSameAs(LATIN1);
        assertThat(value.getMap("tags")).isSameAs(original.getMap("tags"));
        assertThat(value.get("price")).isEqualTo(new BigDecimal("9.99"));
        assertThat(value.getWithoutDefault("memo"))
                .as("a null stays null, not the default")
                .isNull();
        assertThat(header(fixed.headers(), "__utf8.errors")).isEqualTo("2");
        assertThat(original.getStruct("customer").getString("name")).isEqualTo("Zoë \uD800");
    }

    @Test
    void fieldsSelectsPathsAndLooksThroughArrays() {
        SinkRecord badSku = sink(ORDER, order("Zoë", "B\uDFFF", Map.of("color", "red"), null));
        SinkRecord badName = sink(ORDER, order("Zoë \uD800", "B-2", Map.of("color", "red"), null));

        assertThat(value("sanitiser.fields", "customer.name").apply(badSku)).isSameAs(badSku);
        assertThatThrownBy(() -> value("sanitiser.fields", "customer.name").apply(badName))
                .hasMessageContaining("field customer.name ");
        assertThatThrownBy(() -> value("sanitiser.fields", "lines.sku").apply(badSku))
                .hasMessageContaining("field lines[1].sku ");
        assertThatThrownBy(() -> value("sanitiser.fields", "customer").apply(badName))
                .as("a struct selects every string below it")
                .hasMessageContaining("field customer.name ");
        assertThat(value("sanitiser.fields", "tags,id,nonexistent").apply(badName))
                .isSameAs(badName);
    }

    @Test
    void aBytesFieldIsCheckedOnlyWhenNamedItself() {
        SinkRecord record = sink(ORDER, order());

        assertThat(value("sanitiser.fields", "customer").apply(record)).isSameAs(record);
        assertThatThrownBy(() -> value("sanitiser.fields", "customer.photo").apply(record))
                .hasMessage("TRUNCATED_AT_END at value field customer.photo byte 3 (E9)");

        SinkRecord fixed = value("sanitiser.fields", "customer.photo", "sanitiser.policy", "replace")
                .apply(record);
        assertThat(((Struct) fixed.value()).getStruct("customer").getBytes("photo"))
                .isEqualTo(utf8("caf\uFFFD"));
    }

    @Test
    void aDecimalIsNeverText() {
        Schema schema = SchemaBuilder.struct().field("price", Decimal.schema(0)).build();
        // Connect hands a Decimal over as a BigDecimal; as bytes it would be two's complement, not text.
        SinkRecord record = sink(schema, new Struct(schema).put("price", new BigDecimal("-23")));

        assertThat(value("sanitiser.fields", "price").apply(record)).isSameAs(record);
    }

    @Test
    void aSchemalessMapIsARecordWhoseEntriesAreFields() {
        Map<String, Object> customer = new LinkedHashMap<>();
        customer.put("name", "Zoë \uD800");
        customer.put("age", 40L);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("id", 7L);
        value.put("customer", customer);
        value.put("tags", new ArrayList<>(List.of("a", "b\uDC00")));

        assertThatThrownBy(() -> value().apply(sink(null, value)))
                .hasMessage("SURROGATE at value field customer.name byte 5 (ED A0 80)");
        assertThatThrownBy(() -> value("sanitiser.fields", "tags").apply(sink(null, value)))
                .hasMessage("SURROGATE at value field tags[1] byte 1 (ED B0 80)");

        SinkRecord fixed = value("sanitiser.policy", "replace").apply(sink(null, value));
        @SuppressWarnings("unchecked")
        Map<String, Object> out = (Map<String, Object>) fixed.value();
        assertThat(out).containsKeys("id", "customer", "tags");
        assertThat(List.copyOf(out.keySet())).containsExactly("id", "customer", "tags");
        assertThat(out.get("customer")).isEqualTo(Map.of("name", "Zoë \uFFFD", "age", 40L));
        assertThat(out.get("tags")).isEqualTo(List.of("a", "b\uFFFD"));
        assertThat(customer.get("name")).isEqualTo("Zoë \uD800");
    }

    @Test
    void aSchemalessFieldNameIsTextToo() {
        Map<String, Object> value = Map.of("n\uD800me", "x");

        assertThatThrownBy(() -> value().apply(sink(null, value)))
                .hasMessage("SURROGATE at value field {} byte 1 (ED A0 80)");
    }

    @Test
    void contentRulesReachEveryCheckedString() {
        SinkRecord record = sink(ORDER, order("Zoë\u0000", "B-2", Map.of("color", "red"), null));

        assertThatThrownBy(() -> value("sanitiser.content.rules", "NUL:reject").apply(record))
                .hasMessage("NUL at value field customer.name byte 4 (00)");
        SinkRecord stripped = value("sanitiser.content.rules", "NUL:strip").apply(record);
        assertThat(((Struct) stripped.value()).getStruct("customer").getString("name"))
                .isEqualTo("Zoë");
        assertThat(header(stripped.headers(), "__utf8.action")).isEqualTo("stripped");
    }

    @Test
    void aRoutedStructKeepsItsValueAndNamesTheField() {
        Struct bad = order("Zoë \uD800", "B-2", Map.of("color", "red"), null);

        SourceRecord routed = sourceValue("sanitiser.on.reject", "route").apply(source(ORDER, bad));

        assertThat(routed.value()).isSameAs(bad);
        assertThat(headers(routed.headers()))
                .contains(
                        entry("__utf8.field", "customer.name"),
                        entry("__utf8.offset", "5"),
                        entry("__utf8.context", "5A 6F C3 AB 20 [ED A0 80]"),
                        entry("__streams.errors.message", "SURROGATE at value field customer.name byte 5 (ED A0 80)"));
    }

    @Test
    void aByteBufferFieldStaysAByteBuffer() {
        Schema schema =
                SchemaBuilder.struct().field("blob", Schema.BYTES_SCHEMA).build();
        Struct value = new Struct(schema).put("blob", ByteBuffer.wrap(LATIN1));

        SinkRecord fixed =
                value("sanitiser.fields", "blob", "sanitiser.policy", "replace").apply(sink(schema, value));

        assertThat(((Struct) fixed.value()).get("blob")).isEqualTo(ByteBuffer.wrap(utf8("caf\uFFFD")));
    }
}
