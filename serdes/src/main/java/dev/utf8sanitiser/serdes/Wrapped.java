package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.registry.SchemaRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;

/**
 * The set-up a {@link SanitisingSerializer} and a {@link SanitisingDeserializer} share: the
 * serializer or deserializer they wrap ({@code W}), configured with theirs or, for one a client
 * created by name, taken from the serde {@code sanitiser.serde.inner} names; and the {@link
 * Sanitisation} configured beside it. Closing closes both.
 */
final class Wrapped<T, W> {
    /** How {@code W} is configured (Kafka's {@code configure(configs, isKey)}). */
    @FunctionalInterface
    interface Configure<W> {
        void configure(W inner, Map<String, ?> configs, boolean isKey);
    }

    private final Optional<SchemaRegistry> registry;
    private final Function<Serde<T>, W> fromSerde;
    private final Configure<W> configure;
    private final Consumer<W> close;
    /** Absent until {@link #configure} when the client created the sanitising one by name. */
    private Optional<W> inner;

    private Optional<Sanitisation> sanitisation = Optional.empty();

    /**
     * @param inner the wrapped serializer or deserializer; empty: the one of {@code
     *     sanitiser.serde.inner}, made when configured
     * @param registry a registry of the caller's, which stays the caller's to close
     * @param fromSerde the serializer or the deserializer of a serde
     */
    Wrapped(
            Optional<W> inner,
            Optional<SchemaRegistry> registry,
            Function<Serde<T>, W> fromSerde,
            Configure<W> configure,
            Consumer<W> close) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.fromSerde = fromSerde;
        this.configure = configure;
        this.close = close;
    }

    void configure(Map<String, ?> configs, boolean isKey) {
        if (inner.isEmpty()) {
            inner = Optional.of(fromSerde.apply(Sanitisation.innerSerde(configs, isKey)));
        } else {
            configure.configure(inner.get(), configs, isKey);
        }
        sanitisation = Optional.of(Sanitisation.configure(configs, isKey, registry));
    }

    /** The wrapped one, once configured. */
    W inner() {
        configured();
        return inner.orElseThrow();
    }

    /** The sanitisation, once configured. */
    Sanitisation sanitisation() {
        return configured();
    }

    private Sanitisation configured() {
        return sanitisation.orElseThrow(() -> new IllegalStateException("configure() was not called"));
    }

    void close() {
        inner.ifPresent(close);
        sanitisation.ifPresent(Sanitisation::close);
    }
}
