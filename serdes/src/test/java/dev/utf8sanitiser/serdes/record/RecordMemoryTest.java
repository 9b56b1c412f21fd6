package dev.utf8sanitiser.serdes.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.ContentPolicy;
import dev.utf8sanitiser.core.content.ContentRules;
import dev.utf8sanitiser.core.content.Normalisation;
import dev.utf8sanitiser.serdes.avro.AvroFormat;
import dev.utf8sanitiser.serdes.avro.MapSchemaRegistry;
import dev.utf8sanitiser.serdes.json.JsonFormat;
import dev.utf8sanitiser.testkit.AllocatedBytes;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The heap one record needs to be decided: a small multiple of its size, however many errors it
 * holds. A mebibyte of 0x80 is a million errors; with an object per error it needed 54 MiB (text,
 * strict) to 111 MiB (JSON, replace).
 */
class RecordMemoryTest {
    private static final int ONE_MIB = 1 << 20;
    private static final Schema ONE_STRING =
            SchemaBuilder.record("Note").fields().requiredString("text").endRecord();

    private static byte[] continuationBytes(int n) {
        byte[] bytes = new byte[n];
        Arrays.fill(bytes, (byte) 0x80);
        return bytes;
    }

    /** A JSON document that is one string of {@code n} bytes of 0x80. */
    private static byte[] jsonString(int n) {
        byte[] doc = continuationBytes(n + 2);
        doc[0] = '"';
        doc[n + 1] = '"';
        return doc;
    }

    /** Confluent's wire format, schema id 1, a record of one string of {@code n} bytes of 0x80. */
    private static byte[] avroString(int n) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0, 0, 0, 0, 1});
        long zigzag = (long) n << 1;
        while ((zigzag & ~0x7FL) != 0) {
            out.write((int) (zigzag & 0x7F) | 0x80);
            zigzag >>>= 7;
        }
        out.write((int) zigzag);
        out.writeBytes(continuationBytes(n));
        return out.toByteArray();
    }

    private static long allocated(ValueFormat format, Policy policy, byte[] value) {
        RecordSanitiser sanitiser = new RecordSanitiser(policy, ContentPolicy.none(), format, false, List.of());
        AtomicReference<Decision<RecordParts>> decision = new AtomicReference<>();
        long bytes = AllocatedBytes.of(() -> decision.set(sanitiser.decide(null, value, new RecordHeaders())));
        int errors = decision.get() instanceof Decision.DeadLetter<RecordParts> dead
                ? dead.errors()
                : ((Decision.Changed<RecordParts>) decision.get()).errors();
        assertThat(errors).as("errors under %s", policy).isEqualTo(ONE_MIB);
        return bytes;
    }

    private static void check(String name, ValueFormat format, byte[] value, Policy... policies) {
        assumeThat(AllocatedBytes.supported()).isTrue();
        for (Policy policy : policies) {
            long bytes = allocated(format, policy, value);
            // STRICT writes nothing; REPLACE and REPAIR write 3 bytes for each of these bytes. JSON
            // adds one copy of the document (ill-formed bytes masked, for the parser).
            long allowed = (policy == Policy.STRICT ? 2L : 5L) * value.length;
            assertThat(bytes).as("%s under %s", name, policy).isLessThan(allowed);
        }
    }

    @Test
    void aMebibyteOfContinuationBytesAsText() {
        check("text", ValueFormat.TEXT, continuationBytes(ONE_MIB), Policy.values());
    }

    @Test
    void aMebibyteOfContinuationBytesInAJsonString() {
        check("json", new JsonFormat(false), jsonString(ONE_MIB), Policy.values());
    }

    /**
     * A mebibyte of NUL under each action of the NUL content rule: a million findings, counted
     * exactly, without an object each (before: 54 to 89 bytes of heap per NUL). REPLACE writes U+FFFD
     * for each, three bytes: the output, one copy of it and the first buffer.
     */
    @Test
    void aMebibyteOfNulUnderTheContentRules() {
        assumeThat(AllocatedBytes.supported()).isTrue();
        byte[] nuls = new byte[ONE_MIB];
        for (String action : new String[] {"reject", "strip", "replace"}) {
            ContentPolicy content = ContentPolicy.of(ContentRules.parse("NUL:" + action), Normalisation.NONE);
            RecordSanitiser sanitiser = new RecordSanitiser(Policy.STRICT, content, ValueFormat.TEXT, false, List.of());
            AtomicReference<Decision<RecordParts>> decision = new AtomicReference<>();
            long bytes = AllocatedBytes.of(() -> decision.set(sanitiser.decide(null, nuls, new RecordHeaders())));
            int errors = decision.get() instanceof Decision.DeadLetter<RecordParts> dead
                    ? dead.errors()
                    : ((Decision.Changed<RecordParts>) decision.get()).errors();
            assertThat(errors).as("errors under NUL:%s", action).isEqualTo(ONE_MIB);
            long allowed = (action.equals("replace") ? 8L : 2L) * nuls.length;
            assertThat(bytes).as("bytes under NUL:%s", action).isLessThan(allowed);
        }
    }

    @Test
    void aMebibyteOfContinuationBytesInAnAvroString() {
        check("avro", new AvroFormat(new MapSchemaRegistry().with(1, ONE_STRING)), avroString(ONE_MIB), Policy.STRICT);
    }

    /**
     * Fixed: the string's three bytes per byte, the walker's copy of them among its edits, and the
     * rewritten binary: 9 bytes per byte, measured.
     */
    @Test
    void aMebibyteOfContinuationBytesInAnAvroStringFixed() {
        assumeThat(AllocatedBytes.supported()).isTrue();
        byte[] value = avroString(ONE_MIB);
        for (Policy policy : new Policy[] {Policy.REPLACE, Policy.REPAIR}) {
            long bytes = allocated(new AvroFormat(new MapSchemaRegistry().with(1, ONE_STRING)), policy, value);
            assertThat(bytes).as("avro under %s", policy).isLessThan(10L * value.length);
        }
    }
}
