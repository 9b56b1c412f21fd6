package dev.utf8sanitiser.app.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SelectionTest {

    @Test
    void parsesATopicAPartitionAndARecord() {
        assertThat(Selection.Source.parse("orders"))
                .isEqualTo(new Selection.Source("orders", OptionalInt.empty(), OptionalLong.empty()));
        assertThat(Selection.Source.parse("orders-3"))
                .isEqualTo(new Selection.Source("orders", OptionalInt.of(3), OptionalLong.empty()));
        assertThat(Selection.Source.parse("my-orders-3@42"))
                .isEqualTo(new Selection.Source("my-orders", OptionalInt.of(3), OptionalLong.of(42)));
    }

    @Test
    void anOffsetNeedsAPartition() {
        assertThatThrownBy(() -> Selection.Source.parse("orders@42"))
                .hasMessageContaining("an offset needs a partition");
    }
}
