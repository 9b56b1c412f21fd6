package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultAccountingTest {
    @Test
    void countsLostAndDuplicatedKeyByKeyAgainstTheInputReadBack() {
        // Key 3 was written twice by the writer: one copy downstream is one lost, not a duplicate.
        FaultAccounting accounting = FaultAccounting.of(Map.of(1, 1, 2, 1, 3, 2, 4, 1), Map.of(1, 1, 3, 1, 4, 2), 0, 0);

        assertThat(accounting.lost).isEqualTo(2);
        assertThat(accounting.lostKeys).containsExactly(2, 3);
        assertThat(accounting.duplicated).isEqualTo(1);
        assertThat(accounting.inputDuplicates).isEqualTo(1);
    }

    @Test
    void namesTheTwentyLowestLostKeys() {
        Map<Integer, Integer> input = new HashMap<>();
        for (int key = 0; key < 50; key++) {
            input.put(key, 1);
        }

        FaultAccounting accounting = FaultAccounting.of(input, Map.of(), 0, 0);

        assertThat(accounting.lost).isEqualTo(50);
        assertThat(accounting.lostKeys)
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
    }
}
