package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.SanitiserConfigFile;
import dev.utf8sanitiser.app.transactions.HangingTransaction;
import dev.utf8sanitiser.app.transactions.HangingTransactionFinder;
import dev.utf8sanitiser.config.SanitiserConfigLoader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction left open on an output partition (begun, sent, never committed nor aborted, with a
 * long {@code transaction.timeout.ms}, as a commit marker lost in a broker bounce leaves one) stops
 * {@code read_committed} readers; the detector names it in {@code /health} and the metric, {@code
 * transactions find-hanging} lists it, {@code abort} without {@code --yes} leaves it, and with
 * {@code --yes} releases the readers.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
// Runs with no other test class beside it (the "timing" tag, app/pom.xml): it waits out the monitor's threshold.
@Tag("timing")
@ExtendWith(SharedKafka.class)
class HangingTransactionIT {
    private static final String IN = SharedKafka.unique("hang-in");
    private static final String CLEAN = IN + ".clean";

    @TempDir
    Path dir;

    @Test
    void aHangingTransactionIsReportedFoundAndAbortedAndTheReadersGoOn(EmbeddedKafka kafka) throws Exception {
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            kafka.createTopics(2, IN, CLEAN, IN + ".dlq");
            TopicPartition stuck = new TopicPartition(CLEAN, 0);

            Map<String, Object> hangingConfig = kafka.producerConfig();
            hangingConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, IN + "-left-open");
            hangingConfig.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 600_000);
            KafkaProducer<byte[], byte[]> hanging = new KafkaProducer<>(hangingConfig);
            try {
                hanging.initTransactions();
                hanging.beginTransaction();
                hanging.send(new ProducerRecord<>(CLEAN, 0, bytes("open"), bytes("never committed")))
                        .get();
                commit(kafka, "after", "committed after it");

                // Stalled: the committed record behind the open transaction is not delivered.
                assertThat(readCommitted(kafka, stuck, 1, Duration.ofSeconds(3)))
                        .isEmpty();

                // A transaction younger than the threshold is not hanging; one older is.
                assertThat(new HangingTransactionFinder(admin, Duration.ofMinutes(5), Clock.systemUTC())
                                .find(List.of(CLEAN)))
                        .isEmpty();
                List<HangingTransaction> found = new HangingTransactionFinder(
                                admin, Duration.ofMinutes(5), Clock.offset(Clock.systemUTC(), Duration.ofMinutes(6)))
                        .find(List.of(CLEAN, IN + ".dlq"));
                assertThat(found).hasSize(1);
                HangingTransaction transaction = found.get(0);
                assertThat(transaction.partition()).isEqualTo(stuck);
                assertThat(transaction.startOffset()).isZero();
                assertThat(transaction.lastStableOffset()).isZero();
                // The open record, the committed one and its commit marker.
                assertThat(transaction.highWatermark()).isEqualTo(3);
                long producerId = transaction.producerId();

                Path config = writeConfig(kafka);
                try (SanitiserApplication app = SanitiserApplication.start(
                        SanitiserConfigLoader.fromSystemEnvironment().load(config), false)) {
                    String health = awaitHealth(app.healthPort(), body -> body.startsWith("DEGRADED"));
                    assertThat(health)
                            .contains("partition " + stuck)
                            .contains("producer id " + producerId)
                            .contains("open since offset 0");
                    assertThat(get(app.healthPort(), "/metrics").body())
                            .contains("utf8_sanitiser_hanging_transactions 1.0");

                    CliRun found1 = CliRun.of("transactions", "find-hanging", "--config", config.toString());
                    assertThat(found1.exit()).as(found1.stderr()).isEqualTo(ExitCode.ILL_FORMED);
                    assertThat(found1.stdoutText()).contains(CLEAN + "\t0\t" + producerId + "\t");

                    String[] abort = {
                        "transactions",
                        "abort",
                        "--config",
                        config.toString(),
                        "--topic",
                        CLEAN,
                        "--partition",
                        "0",
                        "--producer-id",
                        Long.toString(producerId)
                    };
                    CliRun dryRun = CliRun.of(abort);
                    assertThat(dryRun.exit()).as(dryRun.stderr()).isZero();
                    assertThat(dryRun.stdoutText())
                            .startsWith("Would abort")
                            .contains("Nothing done")
                            // The coordinator's view: this producer's transaction is alive (600 s timeout).
                            .contains("transactional id " + IN + "-left-open is Ongoing and still lists the partition");
                    assertThat(readCommitted(kafka, stuck, 1, Duration.ofSeconds(2)))
                            .isEmpty();

                    String[] abortYes = Arrays.copyOf(abort, abort.length + 1);
                    abortYes[abort.length] = "--yes";
                    CliRun aborted = CliRun.of(abortYes);
                    assertThat(aborted.exit()).as(aborted.stderr()).isZero();
                    assertThat(aborted.stdoutText()).startsWith("Aborted");

                    assertThat(readCommitted(kafka, stuck, 1, Duration.ofSeconds(30)))
                            .containsExactly("committed after it");
                    assertThat(awaitHealth(app.healthPort(), body -> body.startsWith("UP")))
                            .doesNotContain("hanging");
                    assertThat(get(app.healthPort(), "/metrics").body())
                            .contains("utf8_sanitiser_hanging_transactions 0.0");
                    CliRun none = CliRun.of("transactions", "find-hanging", "--config", config.toString());
                    assertThat(none.exit()).as(none.stderr()).isZero();
                    assertThat(none.stdoutText()).startsWith("No hanging transaction");
                    CliRun again = CliRun.of(abortYes);
                    assertThat(again.exit()).isEqualTo(ExitCode.USAGE_OR_UNREADABLE);
                    assertThat(again.stderr()).contains("has no open transaction on " + stuck);
                }
            } finally {
                hanging.close(Duration.ZERO);
            }
        }
    }

    private Path writeConfig(EmbeddedKafka kafka) throws IOException {
        // The transaction timeout is the detector's threshold; it checks every half of it (1 s at least).
        return SanitiserConfigFile.write(
                dir, kafka, IN, "sanitiser.http.port=0", "producer.transaction.timeout.ms=2000");
    }

    private static void commit(EmbeddedKafka kafka, String key, String value) {
        Map<String, Object> config = kafka.producerConfig();
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, IN + "-committing");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(CLEAN, 0, bytes(key), bytes(value)));
            producer.commitTransaction();
        }
    }

    private static List<String> readCommitted(EmbeddedKafka kafka, TopicPartition partition, int count, Duration wait) {
        Map<String, Object> config = kafka.consumerConfig("unused");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + wait.toNanos();
            while (values.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(record.value(), UTF_8));
                }
            }
        }
        return values;
    }

    private static String awaitHealth(int port, Predicate<String> until) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String body = "";
        while (System.nanoTime() < deadline) {
            body = get(port, "/health").body();
            if (until.test(body)) {
                return body;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("/health never became what was expected; last: " + body);
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }
}
