package dev.utf8sanitiser.core;

import static dev.utf8sanitiser.core.Hex.bytes;
import static dev.utf8sanitiser.core.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RepairTest {

    @Test
    void everySurrogatePairInCesu8BecomesItsFourByteForm() {
        // All 2^20 pairs; the JDK's encoder of the same code point is the oracle.
        byte[] cesu = new byte[6];
        for (int high = 0xD800; high <= 0xDBFF; high++) {
            for (int low = 0xDC00; low <= 0xDFFF; low++) {
                threeBytes(high, cesu, 0);
                threeBytes(low, cesu, 3);
                Sanitised result = Utf8Sanitiser.sanitise(cesu, Policy.REPAIR);
                byte[] expected = new String(new char[] {(char) high, (char) low}).getBytes(StandardCharsets.UTF_8);
                if (!Arrays.equals(result.output(), expected)
                        || !result.errors().isEmpty()
                        || result.repairs().size() != 1) {
                    throw new AssertionError(hex(cesu) + " repaired to " + hex(result.output()));
                }
            }
        }
    }

    @Test
    void repairIsReportedWithOffsetKindAndCodePoint() {
        Sanitised result = Utf8Sanitiser.sanitise(bytes("41 ED A0 BD ED B8 80 42 C0 80"), Policy.REPAIR);
        assertThat(result.repairs())
                .containsExactly(
                        new Repair(1, 6, Repair.Kind.CESU8_SURROGATE_PAIR, 0x1F600),
                        new Repair(8, 2, Repair.Kind.MODIFIED_UTF8_NUL, 0));
        assertThat(hex(result.output())).isEqualTo("41 F0 9F 98 80 42 00");
        assertThat(result.errors()).isEmpty();
        assertThat(result.outcome()).isEqualTo(Outcome.REPAIRED);
    }

    /** Overlong forms other than C0 80 are the attack Corrigendum #1 closes: never decoded. */
    @ParameterizedTest(name = "{0} stays broken")
    @CsvSource({
        "C0 AF,          '/' as 2 bytes",
        "E0 80 AF,       '/' as 3 bytes",
        "F0 80 80 AF,    '/' as 4 bytes",
        "C1 9C,          '\\' as 2 bytes",
        "E0 80 80,       NUL as 3 bytes",
        "F0 80 80 80,    NUL as 4 bytes",
        "C0 AE C0 AE C0 AF, '../' as 2-byte forms",
    })
    void repairNeverDecodesAnyOtherOverlongForm(String overlong, String what) {
        byte[] input = bytes(overlong);
        Sanitised result = Utf8Sanitiser.sanitise(input, Policy.REPAIR);
        assertThat(result.repairs()).isEmpty();
        assertThat(result.output()).isEqualTo(Utf8Replacement.replace(input));
        assertThat(new String(result.output(), StandardCharsets.UTF_8)).doesNotContain("/", "\\", ".", "\0");
    }

    @Test
    void everyTwoByteInputRepairsOnlyC080() {
        byte[] b = new byte[2];
        for (int v = 0; v < 1 << 16; v++) {
            b[0] = (byte) (v >>> 8);
            b[1] = (byte) v;
            byte[] repaired = Utf8Sanitiser.sanitise(b, Policy.REPAIR).output();
            byte[] expected = v == 0xC080 ? new byte[] {0} : Utf8Replacement.replace(b);
            assertThat(repaired).as(hex(b)).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "ED A0 80,                 a lone high surrogate",
        "ED B0 80,                 a lone low surrogate",
        "ED B0 80 ED A0 80,        a pair in the wrong order",
        "ED A0 80 ED A0 80,        two high surrogates",
        "ED A0 80 41 ED B0 80,     halves apart",
        "ED A0 80 ED B0,           a pair cut at the end",
    })
    void onlyWholePairsInOrderAreRepaired(String input, String what) {
        Sanitised result = Utf8Sanitiser.sanitise(bytes(input), Policy.REPAIR);
        assertThat(result.repairs()).isEmpty();
        assertThat(result.output()).isEqualTo(Utf8Replacement.replace(bytes(input)));
        assertThat(result.outcome()).isEqualTo(Outcome.REPLACED);
    }

    @Test
    void strictChangesNothingAndReportsEveryError() {
        byte[] input = bytes("41 C0 80 ED A0 80");
        Sanitised result = Utf8Sanitiser.sanitise(input, Policy.STRICT);
        assertThat(result.output()).isSameAs(input);
        assertThat(result.errors()).isEqualTo(Utf8Validator.errors(input));
        assertThat(result.replacements()).isZero();
        assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
    }

    @Provide
    Arbitrary<byte[]> withCesu() {
        // Damaged UTF-8 with CESU-8 pairs and C0 80 mixed in, whole or cut.
        Arbitrary<byte[]> pair = net.jqwik.api.Arbitraries.integers()
                .between(0x10000, 0x10FFFF)
                .map(cp -> {
                    char[] units = Character.toChars(cp);
                    byte[] b = new byte[6];
                    threeBytes(units[0], b, 0);
                    threeBytes(units[1], b, 3);
                    return b;
                });
        Arbitrary<byte[]> cutPair = pair.flatMap(
                b -> net.jqwik.api.Arbitraries.integers().between(1, 5).map(n -> Arrays.copyOf(b, n)));
        Arbitrary<byte[]> nul = net.jqwik.api.Arbitraries.just(new byte[] {(byte) 0xC0, (byte) 0x80});
        return net.jqwik.api.Arbitraries.oneOf(Utf8Inputs.damagedUtf8(), pair, cutPair, nul)
                .list()
                .ofMaxSize(8)
                .map(parts -> {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    parts.forEach(out::writeBytes);
                    return out.toByteArray();
                });
    }

    @Property(tries = 2000)
    void repairedOutputIsWellFormedAndStable(@ForAll("withCesu") byte[] input) {
        Sanitised result = Utf8Sanitiser.sanitise(input, Policy.REPAIR);
        assertThat(Utf8Validator.isWellFormed(result.output())).isTrue();
        assertThat(Utf8Sanitiser.sanitise(result.output(), Policy.REPAIR).output())
                .isSameAs(result.output());
        assertThat(result.replacements()).isEqualTo(result.errors().size());
    }

    @Property(tries = 2000)
    void streamingEqualsOneShotForEveryPolicy(@ForAll("withCesu") byte[] input, @ForAll long seed) throws IOException {
        for (Policy policy : new Policy[] {Policy.REPLACE, Policy.REPAIR}) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            SanitisingOutputStream out = new SanitisingOutputStream(sink, policy);
            for (int[] chunk : StreamingPropertiesTest.randomCuts(input.length, seed)) {
                out.write(input, chunk[0], chunk[1]);
            }
            out.close();
            Sanitised oneShot = Utf8Sanitiser.sanitise(input, policy);
            assertThat(sink.toByteArray()).as(policy.name()).isEqualTo(oneShot.output());
            assertThat(out.replacements()).isEqualTo(oneShot.replacements());
            assertThat(out.repairs()).isEqualTo(oneShot.repairs().size());
        }
        List<Utf8Error> streamed = new ArrayList<>();
        Utf8StreamValidator validator = new Utf8StreamValidator(streamed::add);
        for (int[] chunk : StreamingPropertiesTest.randomCuts(input.length, seed)) {
            validator.update(input, chunk[0], chunk[1]);
        }
        validator.finish();
        assertThat(streamed)
                .isEqualTo(Utf8Sanitiser.sanitise(input, Policy.STRICT).errors());
    }

    @Test
    void aPairCutAcrossChunksIsStillRepaired() throws IOException {
        byte[] pair = bytes("ED A0 BD ED B8 80");
        for (int cut = 1; cut < 6; cut++) {
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (SanitisingOutputStream out = new SanitisingOutputStream(sink, Policy.REPAIR)) {
                out.write(pair, 0, cut);
                out.write(pair, cut, 6 - cut);
            }
            assertThat(hex(sink.toByteArray())).as("cut at %d", cut).isEqualTo("F0 9F 98 80");
        }
    }

    private static void threeBytes(int unit, byte[] b, int at) {
        b[at] = (byte) (0xE0 | unit >>> 12);
        b[at + 1] = (byte) (0x80 | unit >>> 6 & 0x3F);
        b[at + 2] = (byte) (0x80 | unit & 0x3F);
    }
}
