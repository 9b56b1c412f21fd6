package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Input that is all ill-formed has an error per byte. A capped report keeps the first errors and
 * counts the rest exactly, and the heap a call needs is its output, not an object per error.
 */
class BoundedReportTest {
    private static final int ONE_MIB = 1 << 20;

    private static byte[] allContinuationBytes() {
        byte[] bad = new byte[ONE_MIB];
        Arrays.fill(bad, (byte) 0x80);
        return bad;
    }

    @Test
    void aCappedReportListsTheFirstErrorsAndCountsEveryOne() {
        Random random = new Random(11);
        for (int n = 0; n < 2_000; n++) {
            byte[] input = new byte[random.nextInt(40)];
            random.nextBytes(input);
            if (random.nextBoolean()) {
                input = cesuAndNul(random, input);
            }
            for (Policy policy : Policy.values()) {
                Sanitised full = Utf8Sanitiser.sanitise(input, policy);
                for (int cap : new int[] {0, 1, 3}) {
                    Sanitised capped = Utf8Sanitiser.sanitise(input, 0, input.length, policy, cap);
                    assertThat(capped.output()).isEqualTo(full.output());
                    assertThat(capped.errorCount()).isEqualTo(full.errors().size());
                    assertThat(capped.repairCount()).isEqualTo(full.repairs().size());
                    assertThat(capped.errors())
                            .isEqualTo(full.errors()
                                    .subList(0, Math.min(cap, full.errors().size())));
                    assertThat(capped.repairs())
                            .isEqualTo(full.repairs()
                                    .subList(0, Math.min(cap, full.repairs().size())));
                    assertThat(capped.outcome()).isEqualTo(full.outcome());
                    assertThat(capped.replacements()).isEqualTo(full.replacements());
                    assertThat(capped.complete())
                            .isEqualTo(capped.errors().size() == full.errors().size()
                                    && capped.repairs().size() == full.repairs().size());
                }
            }
        }
    }

    /** Random bytes with CESU-8 pairs and Modified UTF-8 NULs spliced in, for REPAIR. */
    private static byte[] cesuAndNul(Random random, byte[] input) {
        List<Byte> out = new ArrayList<>();
        for (byte b : input) {
            out.add(b);
            if (random.nextInt(8) == 0) {
                for (int x : new int[] {0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}) {
                    out.add((byte) x);
                }
            } else if (random.nextInt(8) == 0) {
                out.add((byte) 0xC0);
                out.add((byte) 0x80);
            }
        }
        byte[] bytes = new byte[out.size()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = out.get(i);
        }
        return bytes;
    }

    @Test
    void theFullReportStillListsEveryError() {
        byte[] bad = allContinuationBytes();
        Sanitised full = Utf8Sanitiser.sanitise(bad, Policy.STRICT);
        assertThat(full.errors()).hasSize(ONE_MIB);
        assertThat(full.errorCount()).isEqualTo(ONE_MIB);
        assertThat(full.complete()).isTrue();
    }

    @Test
    void judgingAMebibyteOfContinuationBytesAllocatesAlmostNothing() {
        assumeThat(AllocatedBytes.supported()).isTrue();
        byte[] bad = allContinuationBytes();
        Sanitised[] result = new Sanitised[1];

        long allocated =
                AllocatedBytes.of(() -> result[0] = Utf8Sanitiser.sanitise(bad, 0, bad.length, Policy.STRICT, 1));

        assertThat(result[0].errorCount()).isEqualTo(ONE_MIB);
        assertThat(result[0].errors()).containsExactly(new Utf8Error(0, 1, Rule.UNEXPECTED_CONTINUATION));
        assertThat(allocated).as("bytes allocated").isLessThan(64 * 1024);
    }

    @Test
    void replacingAMebibyteOfContinuationBytesAllocatesTheOutputOnly() {
        assumeThat(AllocatedBytes.supported()).isTrue();
        byte[] bad = allContinuationBytes();
        byte[][] output = new byte[1][];

        long allocated = AllocatedBytes.of(() -> output[0] = Utf8Replacement.replace(bad));

        assertThat(output[0]).hasSize(3 * ONE_MIB);
        assertThat(output[0][3 * ONE_MIB - 1]).isEqualTo((byte) 0xBD);
        // The output is 3 MiB; anything beyond it is bookkeeping, which must not grow with the errors.
        assertThat(allocated - output[0].length)
                .as("bytes allocated besides the output")
                .isLessThan(64 * 1024);
    }

    @Test
    void forEachIllFormedReportsWhatForEachErrorReports() {
        Random random = new Random(5);
        for (int n = 0; n < 500; n++) {
            byte[] input = new byte[random.nextInt(60)];
            random.nextBytes(input);
            List<Utf8Error> seen = new ArrayList<>();
            Utf8Validator.forEachIllFormed(
                    input, 0, input.length, (offset, length, rule) -> seen.add(new Utf8Error(offset, length, rule)));
            assertThat(seen).isEqualTo(Utf8Validator.errors(input));
        }
    }
}
