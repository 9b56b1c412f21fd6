package dev.utf8sanitiser.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The records list on a real broker with a few thousand dead letters in three partitions: paging
 * through all of them yields each once, in order; a filtered selection is replayed exactly once,
 * and the list then marks it replayed; an export streams the selection.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@ExtendWith(SharedKafka.class)
class ConsoleRecordsIT {
    private static final int RECORDS = 3_000;
    private static final String DLQ = SharedKafka.unique("records") + ".dlq";
    private static final String TARGET = SharedKafka.unique("records-replayed");
    private static final String TOKEN = "records-it-token";
    private static final Pattern PLACE = Pattern.compile("data-place=\"(\\d+@\\d+)\"");
    private static final Pattern NEXT = Pattern.compile("rel=\"next\" id=\"next-page\" href=\"([^\"]+)\"");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static EmbeddedKafka kafka;
    private static Console console;
    private static ConsoleServer server;
    private static String base;
    private static final List<String> ALL = new ArrayList<>();
    private static final Set<String> SURROGATES_OF_1 = new HashSet<>();

    @BeforeAll
    static void deadLetterAFewThousandRecords(EmbeddedKafka shared) throws Exception {
        kafka = shared;
        kafka.createTopics(3, DLQ);
        kafka.createTopics(1, TARGET);
        long start = Instant.now().minus(Duration.ofHours(1)).toEpochMilli();
        List<List<String>> byPartition = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        List<Boolean> surrogate = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (int i = 0; i < RECORDS; i++) {
                int p = i % 3;
                DeadLetterRule rule = i % 5 == 0 ? DeadLetterRule.SURROGATE : DeadLetterRule.INVALID_BYTE;
                DeadLetter d = PagerTest.letter(p, i, start + i, rule, "customer-" + i, "00-trace-" + i + "-01");
                sent.add(producer.send(new ProducerRecord<>(DLQ, p, d.timestamp(), d.key(), d.value(), d.headers())));
                surrogate.add(rule == DeadLetterRule.SURROGATE);
            }
            for (int i = 0; i < RECORDS; i++) {
                RecordMetadata at = sent.get(i).get();
                String place = at.partition() + "@" + at.offset();
                byPartition.get(at.partition()).add(place);
                if (at.partition() == 1 && surrogate.get(i)) {
                    SURROGATES_OF_1.add(place);
                }
            }
        }
        byPartition.forEach(b -> b.sort(Comparator.comparingLong(place -> Long.parseLong(place.split("@")[1]))));
        byPartition.forEach(ALL::addAll);
        SanitiserConfig settings = new SanitiserConfig(Map.of(
                "application.id",
                "console-records-it",
                "bootstrap.servers",
                kafka.bootstrapServers(),
                "sanitiser.input.topics",
                "orders",
                "sanitiser.console.token",
                TOKEN));
        Properties client = new Properties();
        client.put("bootstrap.servers", kafka.bootstrapServers());
        console = Console.open(settings, client, List.of(DLQ), Clock.systemUTC());
        server = ConsoleServer.serve(console, 0);
        base = "http://127.0.0.1:" + server.address().getPort();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (console != null) {
            console.close();
        }
    }

    @Test
    void pagingThroughEveryRecordYieldsEachOnceInOrder() throws Exception {
        List<String> paged = pageThrough("/console/records?topic=" + DLQ + "&size=200");

        assertThat(paged).hasSize(RECORDS).containsExactlyElementsOf(ALL);
    }

    @Test
    void aFilteredSelectionIsReplayedExactlyOnceAndThenShownAsReplayed() throws Exception {
        String filter = "topic=" + DLQ + "&rule=SURROGATE&partition=1";
        List<String> chosen = pageThrough("/console/records?" + filter + "&size=37");
        assertThat(chosen).hasSize(SURROGATES_OF_1.size()).containsExactlyInAnyOrderElementsOf(SURROGATES_OF_1);

        HttpResponse<String> replay = post(filter + "&scope=filter&policy=as-is&to=" + TARGET + "&token=" + TOKEN);
        HttpResponse<String> again = post(filter + "&scope=filter&policy=as-is&to=" + TARGET + "&token=" + TOKEN);

        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);
        assertThat(replay.body()).contains("Sent " + chosen.size() + " of " + chosen.size() + " chosen records");
        assertThat(again.body()).contains("Sent 0 of " + chosen.size()).contains(chosen.size() + " replayed before");
        List<String> replayed = read(TARGET).stream()
                .map(r ->
                        new String(
                                        r.headers()
                                                .lastHeader(HeaderNames.REPLAY_PARTITION)
                                                .value(),
                                        StandardCharsets.UTF_8) + "@"
                                + new String(
                                        r.headers()
                                                .lastHeader(HeaderNames.REPLAY_OFFSET)
                                                .value(),
                                        StandardCharsets.UTF_8))
                .toList();
        assertThat(replayed).hasSize(chosen.size()).containsExactlyInAnyOrderElementsOf(chosen);

        String page = get("/console/records?" + filter + "&size=200").body();
        assertThat(page.split("<td class=\"replayed\">to " + TARGET + "</td>", -1))
                .hasSize(chosen.size() + 1);
    }

    @Test
    void anExportStreamsTheSelectionWithItsTraceContextAndWithoutThePayload() throws Exception {
        HttpResponse<String> export =
                get("/console/export?topic=" + DLQ + "&rule=SURROGATE&partition=1&encoding=base64");

        assertThat(export.statusCode()).isEqualTo(200);
        assertThat(export.headers().firstValue("Content-Type")).contains("application/x-ndjson");
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : export.body().split("\n")) {
            lines.add(json.readTree(line));
        }
        assertThat(lines).hasSize(SURROGATES_OF_1.size() + 1);
        assertThat(lines.get(lines.size() - 1).path("end").asText()).isEqualTo("complete");
        JsonNode first = lines.get(0);
        assertThat(first.path("annotation").path("rule").asText()).isEqualTo("SURROGATE");
        assertThat(first.path("value").path("length").asInt()).isEqualTo(2);
        assertThat(first.path("value").has("base64"))
                .as("payload hidden by default")
                .isFalse();
        assertThat(first.path("headers").path(0).path("name").asText()).isEqualTo("traceparent");
        assertThat(first.path("headers").path(0).path("value").path("base64").asText())
                .isNotEmpty();
    }

    private static List<String> pageThrough(String first) throws Exception {
        List<String> places = new ArrayList<>();
        Optional<String> next = Optional.of(first);
        int pages = 0;
        while (next.isPresent()) {
            HttpResponse<String> page = get(next.get());
            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
            Matcher m = PLACE.matcher(page.body());
            while (m.find()) {
                places.add(m.group(1));
            }
            Matcher n = NEXT.matcher(page.body());
            next = n.find() ? Optional.of(n.group(1).replace("&amp;", "&")) : Optional.empty();
            assertThat(++pages).isLessThan(500);
        }
        return places;
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String form) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(base + "/console/replay"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(String topic) {
        Map<String, Object> config = kafka.consumerConfig(TARGET + "-reader");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        TopicPartition partition = new TopicPartition(topic, 0);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            while (consumer.position(partition) < end) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
