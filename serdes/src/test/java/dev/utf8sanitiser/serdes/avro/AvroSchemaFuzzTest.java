package dev.utf8sanitiser.serdes.avro;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import org.apache.avro.Schema;

/**
 * Coverage-guided fuzzing (docs/reliability.md) of the Avro walker on schemas the input chooses
 * ({@link RandomAvro}: recursive ones, ones that hold types with no finite value, unions, arrays,
 * maps, fixed, enums, records without fields) and binary for them: what the sanitiser passes or
 * fixes, Avro's own readers read back completely on a 512 KB stack, and it decides every record
 * ({@link AvroReadBackTest#check}). The input's first byte picks how: the schema from the bytes
 * after it, then binary written by following it (even) or the bytes left as they are (odd).
 */
class AvroSchemaFuzzTest {
    @FuzzTest
    void whatTheSanitiserPassesOrFixesAvroReadsBack(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int[] used = {1};
        RandomAvro.Choices choices = RandomAvro.Choices.of(Arrays.copyOfRange(input, 1, input.length), used);
        Schema schema = RandomAvro.schema(choices);
        byte[] binary = (input[0] & 1) == 0
                ? RandomAvro.value(schema, choices)
                : Arrays.copyOfRange(input, Math.min(used[0], input.length), input.length);
        AvroReadBackTest.check(schema, binary);
    }
}
