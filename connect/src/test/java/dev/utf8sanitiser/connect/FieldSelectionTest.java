package dev.utf8sanitiser.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FieldSelectionTest {

    @Test
    void noPathSelectsEveryStringAndNamesNoBytes() {
        FieldSelection all = FieldSelection.of(List.of());

        assertThat(all.strings()).isTrue();
        assertThat(all.named()).isFalse();
        assertThat(all.field("anything").field("below").strings()).isTrue();
        assertThat(all.field("anything").named()).isFalse();
    }

    @Test
    void aPathSelectsItsEndAndEverythingBelowButNotItsSiblings() {
        FieldSelection root = FieldSelection.of(List.of("customer.name", "lines"));

        assertThat(root.strings()).isFalse();
        assertThat(root.field("id")).isNull();
        assertThat(root.field("customer").strings()).isFalse();
        assertThat(root.field("customer").field("email")).isNull();
        assertThat(root.field("customer").field("name").strings()).isTrue();
        assertThat(root.field("customer").field("name").named()).isTrue();
        assertThat(root.field("lines").field("sku").strings()).isTrue();
        assertThat(root.field("lines").field("sku").named()).isFalse();
    }

    @Test
    void aPathBelowASelectedOneStillNamesItsBytes() {
        FieldSelection root = FieldSelection.of(List.of("customer", "customer.photo"));

        assertThat(root.field("customer").field("photo").named()).isTrue();
        assertThat(root.field("customer").field("logo").named()).isFalse();
        assertThat(root.field("customer").field("logo").strings()).isTrue();
    }
}
