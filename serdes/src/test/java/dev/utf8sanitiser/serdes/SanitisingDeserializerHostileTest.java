package dev.utf8sanitiser.serdes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.serdes.avro.MapSchemaRegistry;
import dev.utf8sanitiser.serdes.avro.SchemaWalker;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

/** A consumer's deserializer meets a hostile record on whatever thread polls: a verdict, not a crash. */
class SanitisingDeserializerHostileTest {
    private static final Schema LIST = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Node\",\"fields\":["
                    + "{\"name\":\"v\",\"type\":\"string\"},{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}");

    /** A list of {@code nodes} nodes, the last one's string ill-formed. */
    private static byte[] list(int nodes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(WireFormat.prefix(1));
        for (int i = 0; i < nodes - 1; i++) {
            out.write(0); // v = ""
            out.write(2); // next: branch 1, another node
        }
        out.writeBytes(new byte[] {2, (byte) 0xFF, 0}); // v = FF, next = null
        return out.toByteArray();
    }

    @Test
    void aDeepRecordIsRefusedWithTheDocumentedExceptionOnASmallStack() throws Exception {
        try (Deserializer<byte[]> strict = new SanitisingDeserializer<>(
                Serdes.ByteArray().deserializer(), Optional.of(new MapSchemaRegistry().with(1, LIST)))) {
            strict.configure(Map.of("sanitiser.payload.format", "avro"), false);

            for (int nodes : new int[] {1_000, 1_800, 2_000, 3_000, 100_000}) {
                byte[] value = list(nodes);
                assertThatThrownBy(() -> SmallStack.call(() -> strict.deserialize("orders", value)))
                        .as("%d nodes", nodes)
                        .isInstanceOfSatisfying(IllFormedTextException.class, e -> {
                            assertThat(e.rule())
                                    .isEqualTo(nodes <= SchemaWalker.MAX_DEPTH ? "INVALID_BYTE" : "MALFORMED_AVRO");
                            assertThat(e.getMessage()).hasSizeLessThan(1024);
                        });
            }
        }
    }
}
