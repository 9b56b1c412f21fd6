package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestTest {
    private static final List<String> RULES = List.of("SURROGATE", "TRUNCATED", "TRUNCATED_AT_END", "NUL");

    @Test
    void aTypoGetsTheNameItMostLikelyMeant() {
        assertThat(Nearest.to("SURROGATES", RULES, 3)).contains("SURROGATE");
        assertThat(Nearest.to("TRUNCATED_AT_EN", RULES, 3)).contains("TRUNCATED_AT_END");
        assertThat(Nearest.to("TRUNCATE", RULES, 3)).contains("TRUNCATED");
    }

    @Test
    void nothingIsNearerThanTheLimit() {
        assertThat(Nearest.to("NON_SHORTEST_FORM", RULES, 3)).isEmpty();
        assertThat(Nearest.to("NULL", RULES, 0)).isEmpty();
        assertThat(Nearest.to("NUL", RULES, 0)).contains("NUL");
    }
}
