package dev.utf8sanitiser.serdes.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.core.Outcome;
import dev.utf8sanitiser.core.Policy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

class DecisionTest {
    private static final Finding FINDING =
            new Finding(Part.VALUE, DeadLetterRule.TRUNCATED_AT_END, 1, 1, 1, new byte[] {'a', -61});

    @Test
    void aChangedRecordIsAnnotatedWithItsOutcomeAndErrorCount() {
        var changed = new Decision.Changed<>(new byte[0], Outcome.REPAIRED, 3, Optional.empty());

        List<Header> headers = changed.annotation();

        assertThat(headers).extracting(Header::key).containsExactly(HeaderNames.ACTION, HeaderNames.ERRORS);
        assertThat(headers)
                .extracting(header -> new String(header.value(), StandardCharsets.UTF_8))
                .containsExactly("repaired", "3");
    }

    @Test
    void onlyAChangeCanBeTheOutcomeOfAChangedRecord() {
        assertThatThrownBy(() -> new Decision.Changed<>(new byte[0], Outcome.PASSED, 0, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Decision.Changed<>(new byte[0], Outcome.REJECTED, 1, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachDecisionNamesItsOutcome() {
        assertThat(new Decision.Pass<byte[]>().outcome()).isEqualTo(Outcome.PASSED);
        assertThat(new Decision.DeadLetter<byte[]>(FINDING, 1).outcome()).isEqualTo(Outcome.REJECTED);
        assertThat(new Decision.Changed<>(new byte[0], Outcome.STRIPPED, 1, Optional.empty()).outcome())
                .isEqualTo(Outcome.STRIPPED);
    }

    @Test
    void mapTurnsTheFixedValueAndKeepsTheRest() {
        byte[] fixed = {'a'};
        Decision<Object> mapped =
                new Decision.Changed<>(fixed, Outcome.REPLACED, 2, Optional.of(FINDING)).map(ByteBuffer::wrap);

        assertThat(mapped)
                .isEqualTo(new Decision.Changed<Object>(
                        ((Decision.Changed<Object>) mapped).fixed(), Outcome.REPLACED, 2, Optional.of(FINDING)));
        assertThat(((Decision.Changed<Object>) mapped).fixed()).isEqualTo(ByteBuffer.wrap(fixed));

        Decision<Object> dead = new Decision.DeadLetter<byte[]>(FINDING, 4).map(ByteBuffer::wrap);
        assertThat(dead).isEqualTo(new Decision.DeadLetter<Object>(FINDING, 4));
        assertThat(new Decision.Pass<byte[]>().map(ByteBuffer::wrap)).isInstanceOf(Decision.Pass.class);
    }

    @Test
    void theWholeRecordSanitiserReportsTheSameOutcomeAsTheCore() {
        RecordSanitiser sanitiser = new RecordSanitiser(Policy.REPLACE, false, List.of());

        Decision<RecordParts> decision = sanitiser.decide(null, new byte[] {'a', (byte) 0xC3}, List.of());

        assertThat(decision.outcome()).isEqualTo(Outcome.REPLACED);
        assertThat(((Decision.Changed<RecordParts>) decision).fixed().value())
                .isEqualTo("a\uFFFD".getBytes(StandardCharsets.UTF_8));
    }
}
