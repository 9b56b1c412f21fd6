package dev.utf8sanitiser.serdes.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.registry.NotAvroSchemaException;
import dev.utf8sanitiser.registry.SchemaRegistry;
import dev.utf8sanitiser.serdes.avro.MapSchemaRegistry;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Nothing unchecked reaches the clean topic: whatever the value, with a registry or without, under
 * every policy, every byte the JSON format passes or fixes is well-formed UTF-8 JSON text (read by
 * Jackson's {@code ObjectMapper} as the oracle), or a framing prefix whose id the registry
 * resolved to a JSON schema, before such text.
 */
class FramedJsonPropertyTest {
    private static final MapSchemaRegistry REGISTRY = new MapSchemaRegistry()
            .withOther(7, "JSON")
            .withOther(8, "PROTOBUF")
            .with(9, SchemaBuilder.record("R").fields().requiredString("a").endRecord());

    @Property(tries = 5000)
    void everyByteDeliveredWasChecked(
            @ForAll("values") byte[] value, @ForAll boolean withRegistry, @ForAll Policy policy) {
        Optional<Supplier<SchemaRegistry>> registry = withRegistry ? Optional.of(() -> REGISTRY) : Optional.empty();
        Decision<RecordParts> decision = new RecordSanitiser(
                        policy, ContentPolicy.none(), new JsonFormat(true, registry), false, List.of())
                .decide(null, value, new RecordHeaders());

        byte[] delivered;
        if (decision instanceof Decision.Pass) {
            delivered = value;
        } else if (decision instanceof Decision.Changed<RecordParts> changed) {
            delivered = changed.fixed().value();
        } else {
            return; // to the dead-letter topic, byte-exact
        }
        int start = 0;
        if (delivered.length > 0 && delivered[0] == WireFormat.MAGIC_BYTE) {
            assertThat(withRegistry)
                    .as("a NUL first is no JSON text: framing only with a registry")
                    .isTrue();
            assertThat(delivered.length).isGreaterThanOrEqualTo(WireFormat.PREFIX_LENGTH);
            assertThat(Arrays.copyOf(delivered, WireFormat.PREFIX_LENGTH))
                    .as("the prefix is sent as it came")
                    .isEqualTo(Arrays.copyOf(value, WireFormat.PREFIX_LENGTH));
            Throwable lookup = catchThrowable(() -> REGISTRY.schema(WireFormat.schemaId(delivered)));
            assertThat(lookup).as("the id names a JSON schema").isInstanceOf(NotAvroSchemaException.class);
            assertThat(((NotAvroSchemaException) lookup).schemaType()).isEqualTo("JSON");
            start = WireFormat.PREFIX_LENGTH;
        }
        assertThat(Utf8Validator.isWellFormed(delivered, start, delivered.length - start))
                .isTrue();
        assertThat(JsonFormatFuzzTest.jacksonReadsUtf8(Arrays.copyOfRange(delivered, start, delivered.length)))
                .isTrue();
    }

    /** Values framed or not, with ids of every kind, and JSON-like text with ill-formed bytes. */
    @Provide
    Arbitrary<byte[]> values() {
        Arbitrary<byte[]> prefix = Arbitraries.oneOf(
                Arbitraries.just(new byte[0]),
                Arbitraries.of(7, 8, 9, 5, 0xEDA0802F).map(WireFormat::prefix),
                Arbitraries.integers().map(WireFormat::prefix),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(4).map(b -> concat(new byte[] {0}, b)));
        Arbitrary<byte[]> piece = Arbitraries.oneOf(
                Arbitraries.of("{\"a\":\"", "\"}", "[", "]", "1", ",", "\"", "\\u0000", "\\uD800", "\uFEFF", " ")
                        .map(s -> s.getBytes(StandardCharsets.UTF_8)),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(4));
        Arbitrary<byte[]> body = piece.list().ofMaxSize(8).map(FramedJsonPropertyTest::concat);
        return net.jqwik.api.Combinators.combine(prefix, body).as(FramedJsonPropertyTest::concat);
    }

    private static byte[] concat(byte[]... parts) {
        return concat(List.of(parts));
    }

    private static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }
}
