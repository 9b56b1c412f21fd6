package dev.utf8sanitiser.app.topology;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The faults of the sanitiser's side (see {@link FaultSuite}): instances killed, an instance
 * joining and one leaving, at-least-once, and the schema registry away. The broker stays up, so
 * these run on the fork's shared broker.
 */
@ExtendWith(SharedKafka.class)
class SanitiserFaultIT extends FaultSuite {

    @BeforeAll
    static void start(EmbeddedKafka shared) {
        startWith(shared);
    }

    @AfterAll
    static void stop() {
        stop(false);
    }

    @Test
    void hardKillsOfTheSanitiser() throws Exception {
        hardKills("kill", SHORT, 2);
    }

    @Test
    void aSecondInstanceJoinsAndTheFirstLeaves() throws Exception {
        rebalances("rebalance", SHORT, 1);
    }

    @Test
    void atLeastOnceLosesNothingAndCountsItsDuplicates() throws Exception {
        atLeastOnce("alo", SHORT, 1);
    }

    @Test
    void registryOutagesWithAvroRecords() throws Exception {
        registryOutages("registry", SHORT, 1);
    }

    @Test
    @Tag("slow")
    void longFormEveryFaultSeveralTimes() throws Exception {
        hardKills("long-kill", LONG, 5);
        rebalances("long-rebalance", LONG, 3);
        atLeastOnce("long-alo", LONG, 3);
        registryOutages("long-registry", LONG, 3);
    }
}
