package dev.utf8sanitiser.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.content.Normalisation;
import org.junit.jupiter.api.Test;

class ConfigEnumsTest {

    @Test
    void policiesHaveTheirBindingNames() {
        assertThat(Policy.values()).extracting(ConfigNames::of).containsExactly("strict", "replace", "repair");
        assertThat(ConfigNames.parse(Policy.class, "Repair")).contains(Policy.REPAIR);
        assertThat(ConfigNames.parse(Policy.class, "strikt")).isEmpty();
    }

    @Test
    void payloadFormatsHaveTheirBindingNames() {
        assertThat(PayloadFormat.values())
                .extracting(PayloadFormat::configName)
                .containsExactly("text", "json", "avro", "protobuf");
        assertThat(PayloadFormat.fromConfigName("AVRO")).contains(PayloadFormat.AVRO);
        assertThat(PayloadFormat.fromConfigName("thrift")).isEmpty();
    }

    @Test
    void normalisationsHaveTheirBindingNamesAndJdkForms() {
        assertThat(Normalisation.values())
                .extracting(ConfigNames::of)
                .containsExactly("none", "NFC", "NFD", "NFKC", "NFKD");
        assertThat(ConfigNames.parse(Normalisation.class, "nfkc")).contains(Normalisation.NFKC);
    }
}
