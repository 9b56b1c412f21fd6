package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicTemplateInverseTest {
    @Test
    void findsTheInputARenderedNameCameFrom() {
        assertThat(TopicTemplate.parse("${topic}.clean").inputFor("orders.clean"))
                .contains("orders");
        assertThat(TopicTemplate.parse("dlq-${topic}").inputFor("dlq-a.b")).contains("a.b");
        assertThat(TopicTemplate.parse("${topic}.${topic}").inputFor("ab.ab")).contains("ab");
    }

    @Test
    void isEmptyWhenNoInputRendersAsTheName() {
        assertThat(TopicTemplate.parse("${topic}.clean").inputFor("orders.dlq")).isEmpty();
        assertThat(TopicTemplate.parse("${topic}.clean").inputFor(".clean")).isEmpty(); // empty input
        assertThat(TopicTemplate.parse("${topic}.${topic}").inputFor("ab.ac")).isEmpty();
        assertThat(TopicTemplate.parse("${topic}.${topic}").inputFor("abc.ab")).isEmpty();
        assertThat(TopicTemplate.parse("x${topic}").inputFor("x..")).isEmpty(); // '..' is no topic
    }

    @Test
    void aFixedTemplateHasNoOneInput() {
        assertThat(TopicTemplate.parse("all.clean").inputFor("all.clean")).isEmpty();
    }
}
