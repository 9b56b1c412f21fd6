package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.corrected.CorrectedUtf8;
import dev.utf8sanitiser.core.corrected.MagicNumber;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CorrectedCommandTest {
    private static final byte[] TEXT = "Grüße, 世界 😀\n".getBytes(StandardCharsets.UTF_8);

    @Test
    void encodeThenDecodeGivesBackTheInput() throws Exception {
        CliRun encoded = CliRun.of(TEXT, "corrected", "encode", "--magic");
        assertThat(encoded.exit()).isZero();
        assertThat(encoded.stdout()).isEqualTo(CorrectedUtf8.fromUtf8(TEXT, MagicNumber.LEADING));
        assertThat(encoded.stdout()).startsWith(CorrectedUtf8.magicNumber());

        CliRun decoded = CliRun.of(encoded.stdout(), "corrected", "decode");
        assertThat(decoded.exit()).isZero();
        assertThat(decoded.stdout()).isEqualTo(TEXT);
    }

    @Test
    void proposalExampleC0AfDecodesToLatinCapitalIWithDiaeresis() {
        CliRun run = CliRun.of(new byte[] {(byte) 0xC0, (byte) 0xAF}, "corrected", "decode");
        assertThat(new String(run.stdout(), StandardCharsets.UTF_8)).isEqualTo("\u00CF");
    }

    @Test
    void aC1ControlCannotBeEncodedAndNamesItsOffset() {
        byte[] input = "ab\u0085c".getBytes(StandardCharsets.UTF_8);
        CliRun run = CliRun.of(input, "corrected", "encode");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.stderr()).startsWith("-:2: C1_CONTROL ");
        assertThat(run.stdout()).isEqualTo(new byte[] {0x61, 0x62}); // what came before is written
    }

    @Test
    void illFormedUtf8CannotBeEncoded() {
        CliRun run = CliRun.of(new byte[] {0x41, (byte) 0xED, (byte) 0xA0, (byte) 0x80}, "corrected", "encode");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.stderr()).startsWith("-:1: SURROGATE ");
    }

    @Test
    void aReservedSequenceCannotBeDecoded() {
        CliRun run = CliRun.of(new byte[] {0x41, 0x42, (byte) 0xFE, 0x41}, "corrected", "decode");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.stderr()).startsWith("-:2: RESERVED_SEQUENCE ");
    }
}
