package dev.utf8sanitiser.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * {@link SharedKafka}: the test classes of a run get one broker, which no test can stop, and which
 * is closed when the run ends. The run here is a JUnit launcher started by this test, over two
 * small test classes of its own (nested, so that Failsafe does not run them by themselves).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedKafkaIT {

    /** What the classes of the inner run saw: every broker they were given. */
    static final List<EmbeddedKafka> SEEN = new CopyOnWriteArrayList<>();

    @Test
    void theClassesOfARunShareOneBrokerThatIsClosedWhenTheRunEnds() {
        SEEN.clear();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(FirstUser.class), selectClass(SecondUser.class))
                .build();
        LauncherFactory.create().execute(request, listener);

        TestExecutionSummary summary = listener.getSummary();
        List<Throwable> failures = new ArrayList<>();
        summary.getFailures().forEach(f -> failures.add(f.getException()));
        assertThat(failures).as("failures of the inner run").isEmpty();
        assertThat(summary.getTestsSucceededCount()).isEqualTo(3);

        assertThat(SEEN).hasSize(3);
        EmbeddedKafka kafka = SEEN.get(0);
        assertThat(SEEN).allMatch(seen -> seen == kafka, "the same broker");
        Path directory = kafka.directory();
        assertThat(ProcessHandle.of(kafka.pid()))
                .as("the broker's JVM after the run")
                .isEmpty();
        assertThat(directory).as("its directory after the run").doesNotExist();
    }

    @Test
    void uniqueNamesAreUniqueAndKeepTheirPrefix() {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            names.add(SharedKafka.unique("orders.in_x"));
        }
        assertThat(names).hasSize(1_000).allMatch(name -> name.matches("orders\\.in_x-[0-9]+"));
        assertThatThrownBy(() -> SharedKafka.unique("two words")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SharedKafka.unique("")).isInstanceOf(IllegalArgumentException.class);
    }

    @ExtendWith(SharedKafka.class)
    static class FirstUser {
        private static EmbeddedKafka kafka;

        @BeforeAll
        static void broker(EmbeddedKafka shared) {
            kafka = shared;
            SEEN.add(shared);
        }

        @Test
        void theBrokerRunsAndTakesTopics(EmbeddedKafka shared) {
            SEEN.add(shared);
            assertThat(shared).isSameAs(kafka);
            assertThat(shared.isShared()).isTrue();
            assertThat(shared.isRunning()).isTrue();
            shared.createTopics(SharedKafka.unique("first"));
        }

        @Test
        void noTestCanStopRestartOrCloseIt() {
            assertThatThrownBy(() -> kafka.stopBroker(false))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("shared");
            assertThatThrownBy(() -> kafka.stopBroker(true)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(kafka::restart).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(kafka::close).isInstanceOf(IllegalStateException.class);
            assertThat(kafka.isRunning()).isTrue();
            kafka.createTopics(SharedKafka.unique("still-up"));
        }
    }

    @ExtendWith(SharedKafka.class)
    static class SecondUser {
        @Test
        void getsTheSameBroker(EmbeddedKafka shared) {
            SEEN.add(shared);
            assertThat(shared.isRunning()).isTrue();
            shared.createTopics(SharedKafka.unique("second"));
        }
    }
}
