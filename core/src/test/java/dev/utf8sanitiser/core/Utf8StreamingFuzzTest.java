package dev.utf8sanitiser.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of the streaming forms: the fuzzer chooses the
 * cuts as well as the bytes, and {@link Utf8StreamValidator} and {@link SanitisingOutputStream}
 * under every policy must answer as the one-shot forms do on the whole input.
 */
class Utf8StreamingFuzzTest {
    /** Enough cuts to split the held-back tail of a CESU-8 pair several ways. */
    private static final int MAX_CUTS = 16;

    @FuzzTest
    void streamingEqualsOneShotHoweverCut(FuzzedDataProvider data) throws IOException {
        int[] cuts = new int[data.consumeInt(0, MAX_CUTS)];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = data.consumeInt(0, Integer.MAX_VALUE);
        }
        byte[] input = data.consumeRemainingAsBytes();
        List<int[]> chunks = chunks(input.length, cuts);

        List<Utf8Error> streamed = new ArrayList<>();
        Utf8StreamValidator validator = new Utf8StreamValidator(streamed::add);
        for (int[] chunk : chunks) {
            validator.update(input, chunk[0], chunk[1]);
        }
        validator.finish();
        List<Utf8Error> expected = Utf8Validator.errors(input);
        assertThat(streamed).isEqualTo(expected);
        assertThat(validator.errorCount()).isEqualTo(expected.size());
        assertThat(validator.bytesSeen()).isEqualTo(input.length);

        for (Policy policy : new Policy[] {Policy.REPLACE, Policy.REPAIR}) {
            Sanitised oneShot = Utf8Sanitiser.sanitise(input, policy);
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (SanitisingOutputStream out = new SanitisingOutputStream(sink, policy)) {
                for (int[] chunk : chunks) {
                    out.write(input, chunk[0], chunk[1]);
                }
                out.finish();
                assertThat(out.replacements()).as(policy.name()).isEqualTo(oneShot.errorCount());
                assertThat(out.repairs()).as(policy.name()).isEqualTo(oneShot.repairCount());
                assertThat(out.bytesIn()).isEqualTo(input.length);
            }
            assertThat(sink.toByteArray()).as(policy.name()).isEqualTo(oneShot.output());
        }
    }

    /** {offset, length} pieces of {@code [0, length)}, cut at each of {@code cuts} modulo the length. */
    private static List<int[]> chunks(int length, int[] cuts) {
        boolean[] cutAt = new boolean[length + 1];
        for (int cut : cuts) {
            cutAt[length == 0 ? 0 : cut % length] = true;
        }
        List<int[]> chunks = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= length; i++) {
            if (cutAt[i] || i == length) {
                chunks.add(new int[] {start, i - start});
                start = i;
            }
        }
        return chunks;
    }
}
