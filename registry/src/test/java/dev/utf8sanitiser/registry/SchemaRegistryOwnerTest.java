package dev.utf8sanitiser.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one owner of a host's registry client: opened once, checked once, rechecked after a failure. */
class SchemaRegistryOwnerTest {
    // Nothing listens here; no test below sends a request.
    private static final SanitiserConfig CONFIG =
            new SanitiserConfig(FastClients.config("http://127.0.0.1:9"), Set.of());

    @Test
    void opensAndChecksTheClientOnceAndHandsOutTheSameOne() {
        List<RestSchemaRegistry> checked = new ArrayList<>();
        try (SchemaRegistryOwner owner = new SchemaRegistryOwner(CONFIG, checked::add)) {
            assertThat(checked).isEmpty(); // nothing opened before it is needed

            SchemaRegistry first = owner.get();

            assertThat(owner.get()).isSameAs(first);
            assertThat(checked).containsExactly((RestSchemaRegistry) first);
        }
    }

    @Test
    void aFailedCheckReachesTheCallerAndTheNextCallOpensAFreshClient() {
        List<RestSchemaRegistry> checked = new ArrayList<>();
        try (SchemaRegistryOwner owner = new SchemaRegistryOwner(CONFIG, client -> {
            checked.add(client);
            if (checked.size() == 1) {
                throw new RegistryMisconfiguredException("wrong URL");
            }
        })) {
            assertThatThrownBy(owner::get).isInstanceOf(RegistryMisconfiguredException.class);

            SchemaRegistry second = owner.get();

            assertThat(checked).hasSize(2);
            assertThat(second).isSameAs(checked.get(1)).isNotSameAs(checked.get(0));
        }
    }

    @Test
    void afterCloseTheNextCallOpensANewClient() {
        SchemaRegistryOwner owner = SchemaRegistryOwner.unchecked(CONFIG);
        SchemaRegistry first = owner.get();

        owner.close();

        assertThat(owner.get()).isNotSameAs(first);
        owner.close();
    }
}
