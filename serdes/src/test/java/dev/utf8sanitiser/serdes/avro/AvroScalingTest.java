package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.serdes.Scaling;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The walk is linear in the record's size, however many strings it holds and however many of them
 * are ill-formed: doubling the strings at most about doubles the time (a ratio of 2.5 allowed).
 */
class AvroScalingTest {
    private static final Schema STRINGS = SchemaBuilder.array().items().stringType();
    private static final Schema MAP = SchemaBuilder.map().values().stringType();
    private static final ContentPolicy NUL_REJECT = ContentPolicy.of(ContentRules.parse("NUL:reject"));
    private static final double LINEAR = 2.5;

    private final MapSchemaRegistry registry =
            new MapSchemaRegistry().with(1, STRINGS).with(2, MAP);

    private RecordSanitiser sanitiser(Policy policy, ContentPolicy content) {
        return new RecordSanitiser(policy, content, new AvroFormat(registry), false, List.of());
    }

    /** An array of {@code n} one-byte strings. */
    private static byte[] array(int n, int b) {
        AvroBinary out = new AvroBinary(1).varint(n);
        for (int i = 0; i < n; i++) {
            out.string(new byte[] {(byte) b});
        }
        return out.varint(0).bytes();
    }

    /** A map of {@code n} entries, keys well-formed and distinct, each value one ill-formed byte. */
    private static byte[] map(int n) {
        AvroBinary out = new AvroBinary(2).varint(n);
        for (int i = 0; i < n; i++) {
            out.string(Integer.toString(i).getBytes()).string(new byte[] {(byte) 0xFF});
        }
        return out.varint(0).bytes();
    }

    private static Runnable deciding(RecordSanitiser sanitiser, byte[] value) {
        return () -> sanitiser.decide(null, value, new RecordHeaders());
    }

    @Test
    void illFormedStringsInAnArrayCostTheSameEachHoweverMany() {
        RecordSanitiser strict = sanitiser(Policy.STRICT, ContentPolicy.none());
        double ratio = Scaling.doublingRatio(n -> deciding(strict, array(n, 0xFF)), 8_000, LINEAR);

        assertThat(ratio).isLessThanOrEqualTo(LINEAR);
    }

    @Test
    void wellFormedStringsUnderAContentRuleCostTheSameEachHoweverMany() {
        RecordSanitiser strict = sanitiser(Policy.STRICT, NUL_REJECT);
        double ratio = Scaling.doublingRatio(n -> deciding(strict, array(n, 'a')), 8_000, LINEAR);

        assertThat(ratio).isLessThanOrEqualTo(LINEAR);
    }

    @Test
    void strictCountsEveryErrorAndNamesTheFirst() {
        byte[] value = array(8_000, 0xFF);

        Decision.DeadLetter dead = (Decision.DeadLetter)
                sanitiser(Policy.STRICT, ContentPolicy.none()).decide(null, value, new RecordHeaders());

        assertThat(dead.errors()).isEqualTo(8_000);
        assertThat(dead.first().field()).contains("[0]");
        assertThat(dead.first().offset()).isEqualTo(5 + 2 + 1); // prefix, count 8,000 (2 bytes), length
    }

    @Test
    void replaceFixesEveryStringAndCountsEachOnce() {
        byte[] value = map(5_000);

        Decision.Changed<RecordParts> changed = (Decision.Changed)
                sanitiser(Policy.REPLACE, ContentPolicy.none()).decide(null, value, new RecordHeaders());

        assertThat(changed.errors()).isEqualTo(5_000);
        assertThat(changed.fixed().value()).hasSize(value.length + 2 * 5_000); // FF became EF BF BD
    }

    /** The sizes the hostile-input probe measured: 32 s for 80,000 strings before the fix. */
    @Tag("slow")
    @Test
    void atTheSizesOfTheProbe() {
        RecordSanitiser strict = sanitiser(Policy.STRICT, ContentPolicy.none());
        RecordSanitiser replace = sanitiser(Policy.REPLACE, ContentPolicy.none());
        RecordSanitiser content = sanitiser(Policy.STRICT, NUL_REJECT);

        assertThat(Scaling.doublingRatio(n -> deciding(strict, array(n, 0xFF)), 80_000, LINEAR))
                .as("strict, an array of ill-formed strings")
                .isLessThanOrEqualTo(LINEAR);
        assertThat(Scaling.doublingRatio(n -> deciding(replace, array(n, 0xFF)), 80_000, LINEAR))
                .as("replace, an array of ill-formed strings")
                .isLessThanOrEqualTo(LINEAR);
        assertThat(Scaling.doublingRatio(n -> deciding(strict, map(n)), 40_000, LINEAR))
                .as("strict, a map of ill-formed values")
                .isLessThanOrEqualTo(LINEAR);
        assertThat(Scaling.doublingRatio(n -> deciding(content, array(n, 'a')), 80_000, LINEAR))
                .as("a content rule, an array of well-formed strings")
                .isLessThanOrEqualTo(LINEAR);
    }
}
