package dev.utf8sanitiser.app.transactions;

import dev.utf8sanitiser.config.OwnTopics;
import dev.utf8sanitiser.config.SanitiserConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;

/** What the hanging-transaction checks need to know of a sanitiser's configuration. */
public final class SanitiserTopics {
    /** Kafka Streams' {@code transaction.timeout.ms} under exactly-once, unless configured. */
    static final Duration STREAMS_TRANSACTION_TIMEOUT = Duration.ofSeconds(10);

    private SanitiserTopics() {}

    /** The existing output and dead-letter topics of {@code config}, the only topics it writes. */
    public static List<String> written(Admin admin, SanitiserConfig config)
            throws ExecutionException, InterruptedException {
        OwnTopics own = OwnTopics.of(config);
        return admin.listTopics().names().get().stream()
                .filter(topic -> own.writer(topic).isPresent())
                .sorted()
                .collect(Collectors.toList());
    }

    /**
     * How long the sanitiser's transactions may last: {@code producer.transaction.timeout.ms} or
     * {@code transaction.timeout.ms} as configured, else Kafka Streams' own 10 s.
     */
    public static Duration transactionTimeout(Map<String, Object> streamsProperties) {
        Object value = streamsProperties.get("producer.transaction.timeout.ms");
        if (value == null) {
            value = streamsProperties.get("transaction.timeout.ms");
        }
        return value == null
                ? STREAMS_TRANSACTION_TIMEOUT
                : Duration.ofMillis(Long.parseLong(value.toString().trim()));
    }
}
