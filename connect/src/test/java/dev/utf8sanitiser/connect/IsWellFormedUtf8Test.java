package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.LATIN1;
import static dev.utf8sanitiser.connect.Records.SURROGATE;
import static dev.utf8sanitiser.connect.Records.props;
import static dev.utf8sanitiser.connect.Records.sink;
import static dev.utf8sanitiser.connect.Records.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class IsWellFormedUtf8Test {

    private static IsWellFormedUtf8<SinkRecord> predicate(Object... keysAndValues) {
        IsWellFormedUtf8<SinkRecord> predicate = new IsWellFormedUtf8<>();
        predicate.configure(props(keysAndValues));
        return predicate;
    }

    @Test
    void isTrueForWellFormedValuesOfEveryKind() {
        IsWellFormedUtf8<SinkRecord> wellFormed = predicate();

        assertThat(wellFormed.test(sink(Schema.BYTES_SCHEMA, utf8("grüße")))).isTrue();
        assertThat(wellFormed.test(sink(Schema.STRING_SCHEMA, "grüße 😀"))).isTrue();
        assertThat(wellFormed.test(sink(null, Map.of("name", "Zoë")))).isTrue();
        assertThat(wellFormed.test(sink(Schema.OPTIONAL_BYTES_SCHEMA, null))).isTrue();
    }

    @Test
    void isFalseForIllFormedOnes() {
        IsWellFormedUtf8<SinkRecord> wellFormed = predicate();

        assertThat(wellFormed.test(sink(Schema.BYTES_SCHEMA, SURROGATE))).isFalse();
        assertThat(wellFormed.test(sink(Schema.STRING_SCHEMA, "a\uD800"))).isFalse();
        assertThat(wellFormed.test(sink(
                        StructuredValuesTest.ORDER,
                        StructuredValuesTest.order("Zoë", "B\uDC00", Map.of("color", "red"), null))))
                .isFalse();
    }

    @Test
    void checksTheKeyOnlyWhenAsked() {
        SinkRecord badKey = sink(Schema.BYTES_SCHEMA, LATIN1, Schema.BYTES_SCHEMA, utf8("fine"));

        assertThat(predicate().test(badKey)).isTrue();
        assertThat(predicate("sanitiser.check.key", "true").test(badKey)).isFalse();
    }

    @Test
    void followsTheSelectionAndTheContentRules() {
        Struct badSku = StructuredValuesTest.order("Zoë", "B\uDC00", Map.of("color", "red"), null);

        assertThat(predicate("sanitiser.fields", "customer").test(sink(StructuredValuesTest.ORDER, badSku)))
                .isTrue();
        assertThat(predicate("sanitiser.content.rules", "NUL:reject").test(sink(Schema.STRING_SCHEMA, "a\u0000")))
                .isFalse();
        assertThat(predicate("sanitiser.content.rules", "NUL:strip").test(sink(Schema.STRING_SCHEMA, "a\u0000")))
                .as("a record the transformation would change is not passed as it came")
                .isFalse();
        assertThat(predicate("sanitiser.content.rules", "NUL:strip").test(sink(Schema.STRING_SCHEMA, "a")))
                .isTrue();
    }

    @Test
    void describesItself() {
        IsWellFormedUtf8<SinkRecord> predicate = predicate();

        assertThat(predicate.version()).isEqualTo(new Utf8Sanitise.Value<SinkRecord>().version());
        assertThat(predicate.config().names()).contains("sanitiser.check.key").doesNotContain("sanitiser.policy");
    }
}
