package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.Decision;
import dev.utf8sanitiser.serdes.record.RecordParts;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.testkit.ExampleOrders;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of the Avro walker and {@link AvroFormat} under
 * testkit's order schema (20 fields, nested records, arrays, maps, unions): the walker agrees with
 * Avro's own reader ({@link AvroAgreement}), its fast scan with the walker ({@link StringScanTest#agree}), the format decides every value (passed, fixed or
 * dead-lettered, {@code MALFORMED_AVRO} exactly when the walker refuses it), and what replace
 * writes is Avro again with only well-formed strings.
 */
class AvroOrdersFuzzTest {
    private static final SchemaWalker WALKER = SchemaWalker.of(ExampleOrders.SCHEMA);
    private static final RecordSanitiser REPLACING = new RecordSanitiser(
            Policy.REPLACE,
            ContentPolicy.none(),
            new AvroFormat(new MapSchemaRegistry().with(1, ExampleOrders.SCHEMA)),
            false,
            List.of());

    @FuzzTest
    void walkerAgreesWithAvroAndEveryValueIsDecided(byte[] input) {
        AvroAgreement.Walked walked = AvroAgreement.agree(ExampleOrders.SCHEMA, WALKER, input);
        StringScanTest.agree(ExampleOrders.SCHEMA, WALKER, input);

        byte[] value = wire(input);
        Decision<RecordParts> decision = REPLACING.decide(null, value, new RecordHeaders());
        if (walked.malformed() != null) {
            assertThat(decision).isInstanceOf(Decision.DeadLetter.class);
            assertThat(((Decision.DeadLetter<?>) decision).rule()).isEqualTo(DeadLetterRule.MALFORMED_AVRO);
        } else if (walked.strings().stream().allMatch(Utf8Validator::isWellFormed)) {
            assertThat(decision).isInstanceOf(Decision.Pass.class);
        } else {
            assertThat(decision).isInstanceOf(Decision.Changed.class);
            byte[] fixed = ((Decision.Changed<RecordParts>) decision).fixed().value();
            byte[] binary = Arrays.copyOfRange(fixed, WireFormat.PREFIX_LENGTH, fixed.length);
            AvroAgreement.Walked again = AvroAgreement.agree(ExampleOrders.SCHEMA, WALKER, binary);
            assertThat(again.malformed()).isNull();
            assertThat(again.strings()).hasSameSizeAs(walked.strings()).allMatch(Utf8Validator::isWellFormed);
        }
    }

    private static byte[] wire(byte[] binary) {
        byte[] prefix = WireFormat.prefix(1);
        byte[] value = Arrays.copyOf(prefix, prefix.length + binary.length);
        System.arraycopy(binary, 0, value, prefix.length, binary.length);
        return value;
    }
}
