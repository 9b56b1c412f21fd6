package dev.utf8sanitiser.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HtmlTest {
    @Test
    void markupCharactersBecomeEntitiesInTextAndAttributes() {
        String page = new Html()
                .raw("<p")
                .attr("title", "\"><script>x</script>")
                .raw(">")
                .text("<img src=x onerror='alert(1)'> & more")
                .raw("</p>")
                .toString();

        assertThat(page)
                .isEqualTo("<p title=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\">"
                        + "&lt;img src=x onerror=&#39;alert(1)&#39;&gt; &amp; more</p>");
    }

    @Test
    void controlAndBidiCharactersAreSpeltNotShown() {
        assertThat(Html.escape("a\u202Eb\u0000c\u001B[2Jd\u2028")).isEqualTo("a\\u202Eb\\u0000c\\u001B[2Jd\\u2028");
    }

    @Property
    void escapedTextHoldsNoMarkupCharacter(@ForAll String s) {
        assertThat(Html.escape(s)).doesNotContain("<", ">", "\"", "'").satisfies(e -> assertThat(
                        e.replaceAll("&(amp|lt|gt|quot|#39);", ""))
                .doesNotContain("&"));
    }

    @Test
    void urlsEncodeTheirValuesAndLeaveOutEmptyOnes() {
        String url = Html.url("/console/replay", "topic", "a&b=c", "rule", "", "source", "orders-1@5");

        assertThat(url).isEqualTo("/console/replay?topic=a%26b%3Dc&source=orders-1%405");
        assertThat(ConsoleHandler.fields(URI.create(url).getRawQuery()))
                .containsEntry("topic", "a&b=c")
                .containsEntry("source", "orders-1@5")
                .doesNotContainKey("rule");
    }
}
