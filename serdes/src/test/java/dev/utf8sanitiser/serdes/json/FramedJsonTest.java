package dev.utf8sanitiser.serdes.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.serdes.avro.MapSchemaRegistry;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * JSON framed as Confluent's JSON Schema serializer frames it: magic byte 0, a 4-byte schema id,
 * the JSON text. Checked after the prefix, offsets counted from the magic byte, the id checked to
 * name a JSON schema when there is a registry.
 */
class FramedJsonTest {
    private static final MapSchemaRegistry REGISTRY = new MapSchemaRegistry()
            .withOther(7, "JSON")
            .withOther(8, "PROTOBUF")
            .with(9, SchemaBuilder.record("R").fields().requiredString("a").endRecord());

    private static Decision<RecordParts> decide(Policy policy, ContentPolicy content, byte[] value, boolean registry) {
        Optional<Supplier<SchemaRegistry>> supplier = registry ? Optional.of(() -> REGISTRY) : Optional.empty();
        return new RecordSanitiser(policy, content, new JsonFormat(false, supplier), false, List.of())
                .decide(null, value, new RecordHeaders());
    }

    private static byte[] framed(int id, Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(WireFormat.prefix(id));
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else {
                out.write((Integer) part);
            }
        }
        return out.toByteArray();
    }

    @Test
    void aWellFormedFramedDocumentPassesAsItIs() {
        // The id 0x80 000000 is no text: only the document after the prefix is.
        byte[] value = framed(7, "{\"name\":\"caf\u00e9\"}");

        assertThat(decide(Policy.STRICT, ContentPolicy.none(), value, true)).isInstanceOf(Decision.Pass.class);
    }

    /**
     * Without a registry nothing can vouch for the four id bytes, and a JSON text never starts with
     * a NUL: such a value is no JSON, under every policy, however well its document reads.
     */
    @ParameterizedTest
    @EnumSource(Policy.class)
    void withoutARegistryAValueStartingWithNulIsInvalidJson(Policy policy) {
        byte[] surrogateId = {0x00, (byte) 0xED, (byte) 0xA0, (byte) 0x80, 0x2F, '{', '"', 'a', '"', ':', '1', '}'};

        for (byte[] value : List.of(surrogateId, framed(7, "[1]"), framed(0x80808080, "{}"))) {
            Decision<RecordParts> decision = decide(policy, ContentPolicy.none(), value, false);

            assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
            Decision.DeadLetter<RecordParts> dead = (Decision.DeadLetter<RecordParts>) decision;
            assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
            assertThat(dead.first().offset()).isZero();
            assertThat(dead.first().length()).isEqualTo(1);
        }
    }

    /** With a registry, those id bytes name no schema it has. */
    @ParameterizedTest
    @EnumSource(Policy.class)
    void withARegistryAnIdItDoesNotHaveIsUnknown(Policy policy) {
        byte[] value = {0x00, (byte) 0xED, (byte) 0xA0, (byte) 0x80, 0x2F, '{', '"', 'a', '"', ':', '1', '}'};

        Decision<RecordParts> decision = decide(policy, ContentPolicy.none(), value, true);

        assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
        assertThat(((Decision.DeadLetter<RecordParts>) decision).first().rule())
                .isEqualTo(DeadLetterRule.UNKNOWN_SCHEMA);
    }

    @Test
    void findingsCountFromTheMagicByteAndNameTheField() {
        byte[] value = framed(7, "{\"name\":\"a", 0xC0, 0xAF, "\"}");

        Decision<RecordParts> decision = decide(Policy.STRICT, ContentPolicy.none(), value, true);

        Decision.DeadLetter<RecordParts> dead = (Decision.DeadLetter<RecordParts>) decision;
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.NON_SHORTEST_FORM);
        assertThat(dead.first().offset()).isEqualTo(5 + 10);
        assertThat(dead.first().field()).contains("name");
    }

    @Test
    void replaceKeepsThePrefixAndFixesTheDocument() {
        byte[] value = framed(7, "{\"name\":\"a", 0xC0, 0xAF, "\"}");

        Decision<RecordParts> decision = decide(Policy.REPLACE, ContentPolicy.none(), value, true);

        byte[] out = ((Decision.Changed<RecordParts>) decision).fixed().value();
        assertThat(out).startsWith(WireFormat.prefix(7));
        assertThat(new String(out, 5, out.length - 5, StandardCharsets.UTF_8))
                .isEqualTo("{\"name\":\"a\uFFFD\uFFFD\"}");
    }

    @Test
    void contentRulesSeeTheDocumentNotThePrefix() {
        ContentPolicy rules = ContentPolicy.of(ContentRules.parse("NUL:reject,C1_CONTROL:reject"));

        assertThat(decide(Policy.STRICT, rules, framed(7, "[\"ok\"]"), true))
                .as("the magic byte 0 is no NUL character")
                .isInstanceOf(Decision.Pass.class);
        Decision.DeadLetter<RecordParts> dead =
                (Decision.DeadLetter<RecordParts>) decide(Policy.STRICT, rules, framed(7, "[\"a\u0085\"]"), true);
        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.C1_CONTROL);
        assertThat(dead.first().offset()).as("from the magic byte").isEqualTo(5 + 3);
    }

    @Test
    void anIdThatIsUnknownOrNamesAnotherKindOfSchemaRulesTheRecordOut() {
        Decision.DeadLetter<RecordParts> unknown =
                (Decision.DeadLetter<RecordParts>) decide(Policy.REPLACE, ContentPolicy.none(), framed(5, "{}"), true);
        Decision.DeadLetter<RecordParts> protobuf =
                (Decision.DeadLetter<RecordParts>) decide(Policy.REPLACE, ContentPolicy.none(), framed(8, "{}"), true);
        Decision.DeadLetter<RecordParts> avro =
                (Decision.DeadLetter<RecordParts>) decide(Policy.REPLACE, ContentPolicy.none(), framed(9, "{}"), true);

        assertThat(unknown.first().rule()).isEqualTo(DeadLetterRule.UNKNOWN_SCHEMA);
        assertThat(protobuf.first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
        assertThat(avro.first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
        assertThat(List.of(
                        unknown.first().offset(),
                        protobuf.first().offset(),
                        avro.first().offset()))
                .containsOnly(1L);
    }

    @Test
    void aFramedValueWhoseDocumentIsNotJsonIsInvalidAfterThePrefix() {
        Decision.DeadLetter<RecordParts> dead = (Decision.DeadLetter<RecordParts>)
                decide(Policy.STRICT, ContentPolicy.none(), framed(7, "{\"a\":"), true);

        assertThat(dead.first().rule()).isEqualTo(DeadLetterRule.INVALID_JSON);
        assertThat(dead.first().offset()).isGreaterThanOrEqualTo(5);
    }
}
