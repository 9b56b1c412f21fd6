package dev.utf8sanitiser.serdes.avro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The benchmarks' entry to the fast scan answers as the walker's own scan does. */
class ScanProbeTest {
    private static final SchemaWalker ORDER = SchemaWalker.of(AvroData.ORDER);

    @Test
    void scansAValidOrderAndLeavesACutOneToTheWalker() {
        byte[] bytes = AvroData.write(
                AvroData.ORDER, AvroData.random(AvroData.ORDER, new Random(7), AvroData::wellFormed, 0), false);
        ScanProbe probe = new ScanProbe();

        assertThat(probe.scan(ORDER, bytes, 0, bytes.length)).isTrue();
        assertThat(probe.view()).hasSameSizeAs(bytes);
        assertThat(probe.scan(ORDER, Arrays.copyOf(bytes, bytes.length - 1), 0, bytes.length - 1))
                .isFalse();
    }
}
