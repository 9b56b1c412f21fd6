package com.example.orders;

import dev.utf8sanitiser.serdes.SanitisingSerde;
import dev.utf8sanitiser.streams.IllFormedTextExceptionHandler;
import dev.utf8sanitiser.streams.SanitisedStreams;
import dev.utf8sanitiser.streams.StreamsSanitiser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * A team's own Kafka Streams application that uses the sanitiser as a library, both ways
 * (docs/library.md):
 *
 * <ul>
 *   <li>{@code orders} are read as bytes and sanitised by the sanitiser's processor: well-formed
 *       (or, under {@code replace}, fixed) records go to {@code orders.clean}, refused ones
 *       byte-exact and annotated to {@code orders.dlq};
 *   <li>{@code payments} are read with a sanitising serde into Strings, which the application
 *       upper-cases into {@code payments.upper}; a record the serde refuses goes, through the
 *       sanitiser's deserialization exception handler, to Kafka Streams' own dead-letter topic
 *       {@code payments.dlq}.
 * </ul>
 *
 * Run with a properties file: {@code bootstrap.servers}, {@code application.id}, and any of the
 * sanitiser's keys ({@code sanitiser.policy}, ...).
 */
public final class OrdersApp {
    public static final String ORDERS = "orders";
    public static final String ORDERS_CLEAN = "orders.clean";
    public static final String ORDERS_DLQ = "orders.dlq";
    public static final String PAYMENTS = "payments";
    public static final String PAYMENTS_UPPER = "payments.upper";
    public static final String PAYMENTS_DLQ = "payments.dlq";

    private OrdersApp() {}

    /** The application's properties: the user's, plus what the handler route needs. */
    public static Map<String, Object> properties(Map<String, Object> user) {
        Map<String, Object> properties = new HashMap<>(user);
        properties.putIfAbsent(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        properties.put(
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                IllFormedTextExceptionHandler.class.getName());
        properties.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, PAYMENTS_DLQ);
        return properties;
    }

    /** Both routes in one topology. */
    public static Topology topology(Map<String, Object> properties, StreamsSanitiser sanitiser) {
        StreamsBuilder builder = new StreamsBuilder();
        Serde<byte[]> bytes = Serdes.ByteArray();

        SanitisedStreams orders = sanitiser.sanitise(builder.stream(ORDERS, Consumed.with(bytes, bytes)));
        orders.output().to(ORDERS_CLEAN, Produced.with(bytes, bytes));
        orders.deadLetters().to(ORDERS_DLQ, Produced.with(bytes, bytes));

        // Serdes given to the DSL are the caller's to configure, as with Confluent's.
        Serde<String> payments = new SanitisingSerde<>(Serdes.String());
        payments.configure(properties, false);
        builder.stream(PAYMENTS, Consumed.with(Serdes.String(), payments))
                .mapValues(value -> value.toUpperCase(Locale.ROOT))
                .to(PAYMENTS_UPPER, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: OrdersApp FILE.properties");
            System.exit(2);
        }
        Properties file = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            file.load(in);
        }
        Map<String, Object> user = new HashMap<>();
        file.forEach((key, value) -> user.put(key.toString(), value));
        Map<String, Object> properties = properties(user);
        StreamsSanitiser sanitiser = StreamsSanitiser.create(properties);
        KafkaStreams streams = new KafkaStreams(topology(properties, sanitiser), new StreamsConfig(properties));
        CountDownLatch closed = new CountDownLatch(1);
        // Close in this order: the application, then the sanitiser's registry client it used.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close(Duration.ofSeconds(30));
            sanitiser.close();
            closed.countDown();
        }));
        streams.start();
        closed.await();
    }
}
