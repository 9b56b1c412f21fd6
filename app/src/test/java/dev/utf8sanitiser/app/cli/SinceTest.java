package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class SinceTest {
    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    @Test
    void readsShortDurationsIsoDurationsAndInstants() {
        assertThat(Since.parse("90s", NOW)).isEqualTo(Instant.parse("2026-11-24T11:58:30Z"));
        assertThat(Since.parse("15m", NOW)).isEqualTo(Instant.parse("2026-11-24T11:45:00Z"));
        assertThat(Since.parse("2h", NOW)).isEqualTo(Instant.parse("2026-11-24T10:00:00Z"));
        assertThat(Since.parse("7d", NOW)).isEqualTo(Instant.parse("2026-11-17T12:00:00Z"));
        assertThat(Since.parse("PT30M", NOW)).isEqualTo(Instant.parse("2026-11-24T11:30:00Z"));
        assertThat(Since.parse("2026-11-24T10:00:00Z", NOW)).isEqualTo(Instant.parse("2026-11-24T10:00:00Z"));
    }

    @Test
    void somethingElseSaysWhatIsAccepted() {
        assertThatThrownBy(() -> Since.parse("yesterday", NOW))
                .hasMessage("--since yesterday is neither a duration (90s, 15m, 2h, 7d, PT2H) nor an instant"
                        + " (2026-11-24T10:00:00Z)");
    }
}
