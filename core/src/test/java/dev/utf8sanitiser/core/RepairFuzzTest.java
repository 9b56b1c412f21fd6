package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of {@link Policy#REPAIR}: its output is always
 * well-formed by {@link ReferenceUtf8} (Table 3-7), a second pass changes nothing, and without a
 * C0 or ED byte, the only leads its two repairs start with (docs/rules.md), it is {@link
 * Policy#REPLACE}.
 */
class RepairFuzzTest {

    @FuzzTest
    void repairedIsWellFormedAndStable(byte[] input) {
        Sanitised repaired = Utf8Sanitiser.sanitise(input, Policy.REPAIR);
        byte[] output = repaired.output();
        assertThat(ReferenceUtf8.isWellFormed(output)).isTrue();
        assertThat(repaired.inputWellFormed()).isEqualTo(ReferenceUtf8.isWellFormed(input));

        Sanitised again = Utf8Sanitiser.sanitise(output, Policy.REPAIR);
        assertThat(again.outcome()).isEqualTo(Outcome.PASSED);
        assertThat(again.output()).isEqualTo(output);

        if (!contains(input, 0xC0) && !contains(input, 0xED)) {
            assertThat(repaired.repairs()).isEmpty();
            assertThat(output).isEqualTo(Utf8Replacement.replace(input));
        }
    }

    private static boolean contains(byte[] bytes, int value) {
        for (byte b : bytes) {
            if ((b & 0xFF) == value) {
                return true;
            }
        }
        return false;
    }
}
