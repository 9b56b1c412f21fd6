package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TopicTemplateTest {

    @ParameterizedTest(name = "{0} renders {1} as {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "${topic}.clean       | orders | orders.clean",
                "${topic}.dlq         | orders | orders.dlq",
                "clean-${topic}       | orders | clean-orders",
                "${topic}             | orders | orders",
                "${topic}.${topic}    | a      | a.a",
                "sanitiser.dlq        | orders | sanitiser.dlq",
            })
    void rendersTheInputTopicInPlaceOfEachPlaceholder(String template, String input, String expected) {
        assertThat(TopicTemplate.parse(template).render(input)).isEqualTo(expected);
    }

    @Test
    void aTemplateWithoutPlaceholderIsAFixedName() {
        TopicTemplate fixed = TopicTemplate.parse("all.dlq");

        assertThat(fixed.isFixed()).isTrue();
        assertThat(fixed.render("orders")).isEqualTo("all.dlq");
        assertThat(fixed.render("payments")).isEqualTo("all.dlq");
        assertThat(TopicTemplate.parse("${topic}.dlq").isFixed()).isFalse();
    }

    @Test
    void onlyTheBarePlaceholderIsTheIdentity() {
        assertThat(TopicTemplate.parse("${topic}").isIdentity()).isTrue();
        assertThat(TopicTemplate.parse("${topic}.clean").isIdentity()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"${partition}.dlq", "${TOPIC}.dlq", "${topic.dlq", "${}", "x.${env:HOME}"})
    void rejectsAnyPlaceholderButTopic(String template) {
        assertThatThrownBy(() -> TopicTemplate.parse(template))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown placeholder")
                .hasMessageContaining("${topic} is the only placeholder");
    }

    @ParameterizedTest
    @ValueSource(strings = {"$topic.dlq", "{topic}.dlq", "${topic} dlq", "${topic}/dlq", "dlq!", "${topic}.ünï"})
    void rejectsCharactersNoTopicNameMayHold(String template) {
        assertThatThrownBy(() -> TopicTemplate.parse(template))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot appear in a topic name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", ".."})
    void rejectsFixedNamesKafkaRejects(String template) {
        assertThatThrownBy(() -> TopicTemplate.parse(template)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsNamesLongerThanKafkaAllows() {
        assertThat(TopicTemplate.parse("a".repeat(249)).render("x")).hasSize(249);
        assertThatThrownBy(() -> TopicTemplate.parse("a".repeat(250))).hasMessageContaining("at most 249");
        assertThatThrownBy(() -> TopicTemplate.parse("${topic}" + "a".repeat(249)))
                .hasMessageContaining("longer than 249");
    }

    @Test
    void refusesToRenderANameLongerThanKafkaAllows() {
        TopicTemplate template = TopicTemplate.parse("${topic}.clean");

        assertThat(template.render("a".repeat(243))).hasSize(249);
        assertThatThrownBy(() -> template.render("a".repeat(244)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("250 characters");
    }

    @Test
    void equalsByTemplateText() {
        assertThat(TopicTemplate.parse("${topic}.dlq"))
                .isEqualTo(TopicTemplate.parse("${topic}.dlq"))
                .hasSameHashCodeAs(TopicTemplate.parse("${topic}.dlq"))
                .isNotEqualTo(TopicTemplate.parse("${topic}.clean"))
                .hasToString("${topic}.dlq");
    }

    @Property
    void rendersPrefixTopicSuffix(
            @ForAll("names") String prefix, @ForAll("names") String suffix, @ForAll("names") String topic) {
        TopicTemplate template = TopicTemplate.parse(prefix + TopicTemplate.PLACEHOLDER + suffix);

        assertThat(template.render(topic)).isEqualTo(prefix + topic + suffix);
        assertThat(TopicNames.problem(template.render(topic))).isEmpty();
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings()
                .withCharRange('a', 'z')
                .withCharRange('A', 'Z')
                .withCharRange('0', '9')
                .withChars('.', '_', '-')
                .ofMinLength(2)
                .ofMaxLength(60)
                .filter(s -> !s.equals(".."));
    }
}
