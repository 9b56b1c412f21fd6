package dev.utf8sanitiser.serdes.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** docs/dlq.md's examples of {@code __utf8.field}, spelt step by step. */
class FieldPathSpellingTest {

    @Test
    void spellsTheExamplesOfTheContract() {
        assertThat(new FieldPathSpelling().field("customer").field("name")).hasToString("customer.name");
        assertThat(new FieldPathSpelling().field("lines").index(3).field("sku")).hasToString("lines[3].sku");
        assertThat(new FieldPathSpelling().field("tags").mapValue("color")).hasToString("tags{color}");
        assertThat(new FieldPathSpelling().field("tags").mapKey()).hasToString("tags{}");
    }

    @Test
    void aPathThatStartsInsideAnArrayOrMapHasNoLeadingDot() {
        assertThat(new FieldPathSpelling().index(0).field("a")).hasToString("[0].a");
        assertThat(new FieldPathSpelling().mapValue("k").field("a")).hasToString("{k}.a");
        assertThat(new FieldPathSpelling().isEmpty()).isTrue();
        assertThat(new FieldPathSpelling()).hasToString("");
    }
}
