package dev.utf8sanitiser.connect;

import static dev.utf8sanitiser.connect.Records.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.utf8sanitiser.config.SanitiserConfigException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/** {@code transforms.<alias>.sanitizer.policy=repair} was ignored, and the policy stayed strict. */
class MisspeltKeysTest {
    @Test
    void theTransformationRefusesAKeySpeltTheAmericanWay() {
        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> new Utf8Sanitise.Value<SinkRecord>()
                        .configure(props("sanitizer.policy", "repair")));

        assertThat(e.messages())
                .containsExactly("Unknown configuration sanitizer.policy; did you mean sanitiser.policy?");
    }

    @Test
    void thePredicateToo() {
        SanitiserConfigException e =
                catchThrowableOfType(SanitiserConfigException.class, () -> new IsWellFormedUtf8<SinkRecord>()
                        .configure(props("sanitizer.normalization", "nfc")));

        assertThat(e.messages())
                .containsExactly(
                        "Unknown configuration sanitizer.normalization; did you mean sanitiser.normalisation?");
    }
}
