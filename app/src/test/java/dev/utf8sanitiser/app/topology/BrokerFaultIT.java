package dev.utf8sanitiser.app.topology;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The faults of the broker's side (see {@link FaultSuite}): the broker bounced by SIGTERM and by
 * SIGKILL, and the sanitiser stopped while the broker is away. They stop the broker, so they run
 * on one of their own.
 */
class BrokerFaultIT extends FaultSuite {

    @BeforeAll
    static void start() {
        startWith(EmbeddedKafka.start());
    }

    @AfterAll
    static void stop() {
        stop(true);
    }

    @Test
    void brokerBouncedBySigtermAndBySigkill() throws Exception {
        brokerBounces("bounce", SHORT, 1);
    }

    @Test
    void sanitiserStoppedWhileTheBrokerIsDown() throws Exception {
        stopWhileBrokerDown("stop-down", SHORT, 1);
    }

    @Test
    @Tag("slow")
    void longFormEveryFaultSeveralTimes() throws Exception {
        brokerBounces("long-bounce", LONG, 3);
        stopWhileBrokerDown("long-stop-down", LONG, 2);
    }
}
