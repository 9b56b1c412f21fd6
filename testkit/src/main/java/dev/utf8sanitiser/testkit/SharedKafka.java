package dev.utf8sanitiser.testkit;

import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that gives every test class of a test run (one JVM: a Surefire or Failsafe
 * fork) the same {@link EmbeddedKafka}, started by the first class that asks for it and closed when
 * the run ends. A broker takes 5 to 15 s to start on a two-core machine; a module's integration
 * tests start it once.
 *
 * <pre>{@code
 * @ExtendWith(SharedKafka.class)
 * class SomeIT {
 *     private static EmbeddedKafka kafka;
 *
 *     @BeforeAll
 *     static void broker(EmbeddedKafka shared) {
 *         kafka = shared;
 *     }
 *
 *     @Test
 *     void something() {
 *         String in = SharedKafka.unique("in");   // "in-7": no other test sees its records
 *         kafka.createTopics(in);
 *     }
 * }
 * }</pre>
 *
 * <p>The broker is an {@link EmbeddedKafka} with the defaults, kept in the root {@link
 * ExtensionContext.Store} as a {@link ExtensionContext.Store.CloseableResource}, so JUnit closes it
 * after the last test of the run. It refuses {@link EmbeddedKafka#stopBroker}, {@link
 * EmbeddedKafka#restart} and {@link EmbeddedKafka#close}: a test that bounces, kills or reconfigures
 * its broker starts one of its own.
 *
 * <p>Tests on the shared broker name their topics, application ids, consumer groups and
 * transactional ids with {@link #unique}, so that no test reads another's records, offsets or
 * metrics, whatever order the classes run in.
 */
public final class SharedKafka implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedKafka.class);

    private static final AtomicLong NEXT = new AtomicLong();

    /** Characters Kafka allows in a topic name (and that are safe in the other ids). */
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");

    /** Resolves a parameter of type {@link EmbeddedKafka}: the shared broker. */
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == EmbeddedKafka.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return broker(context);
    }

    /** The run's broker, started on the first call. */
    public static EmbeddedKafka broker(ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(Broker.class, key -> new Broker(EmbeddedKafka.start()), Broker.class)
                .kafka();
    }

    /**
     * {@code prefix} and a number no other call in this JVM returns, such as {@code "orders-12"}:
     * a topic name, application id, group id or transactional id of one test. The prefix keeps
     * logs readable; Kafka's topic characters only.
     */
    public static String unique(String prefix) {
        if (!LEGAL.matcher(prefix).matches()) {
            throw new IllegalArgumentException("not a name Kafka takes for a topic: " + prefix);
        }
        return prefix + "-" + NEXT.incrementAndGet();
    }

    /** The store's handle on the broker: JUnit closes it when the root context closes. */
    private record Broker(EmbeddedKafka kafka) implements ExtensionContext.Store.CloseableResource {
        Broker {
            kafka.share();
        }

        @Override
        public void close() {
            kafka.closeShared();
        }
    }
}
