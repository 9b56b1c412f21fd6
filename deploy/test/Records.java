import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The deploy tests' Kafka client, run from outside the containers with the application jar on the
 * class path ({@code java -cp app.jar deploy/test/Records.java ...}):
 *
 * <pre>
 *   Records.java create BOOTSTRAP TOPIC...          topics of one partition
 *   Records.java produce BOOTSTRAP TOPIC GOOD BAD   GOOD well-formed values, BAD with C0 AF (overlong '/')
 *   Records.java produce-avro BOOTSTRAP TOPIC REGISTRY GOOD BAD
 *                                                   the same as Avro records of one string field, in the
 *                                                   Confluent wire format, the schema registered at REGISTRY
 *   Records.java count BOOTSTRAP TOPIC EXPECTED SECONDS
 *                                                   waits until TOPIC holds EXPECTED committed records;
 *                                                   exit 1 if it holds more, or fewer in time
 * </pre>
 */
public class Records {
    public static void main(String[] args) throws Exception {
        Properties client = new Properties();
        client.put("bootstrap.servers", args[1]);
        switch (args[0]) {
            case "create" -> {
                try (Admin admin = Admin.create(client)) {
                    List<NewTopic> topics = new ArrayList<>();
                    for (int i = 2; i < args.length; i++) {
                        topics.add(new NewTopic(args[i], 1, (short) 1));
                    }
                    admin.createTopics(topics).all().get();
                }
            }
            case "produce" -> {
                client.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
                client.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
                try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(client)) {
                    int good = Integer.parseInt(args[3]);
                    int bad = Integer.parseInt(args[4]);
                    for (int i = 0; i < good + bad; i++) {
                        byte[] value = i < good
                                ? ("order " + i + ": caf\u00e9").getBytes(StandardCharsets.UTF_8)
                                : new byte[] {'/', 'x', (byte) 0xC0, (byte) 0xAF, 'e', 't', 'c'};
                        producer.send(new ProducerRecord<>(args[2], ("k" + i).getBytes(StandardCharsets.UTF_8), value))
                                .get();
                    }
                }
            }
            case "produce-avro" -> {
                client.put("key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
                client.put("value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
                int id = register(args[3], args[2] + "-value");
                try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(client)) {
                    int good = Integer.parseInt(args[4]);
                    int bad = Integer.parseInt(args[5]);
                    for (int i = 0; i < good + bad; i++) {
                        byte[] note = i < good
                                ? ("payment " + i + ": 12 \u20ac").getBytes(StandardCharsets.UTF_8)
                                : new byte[] {'/', 'x', (byte) 0xC0, (byte) 0xAF};
                        producer.send(new ProducerRecord<>(args[2], ("k" + i).getBytes(StandardCharsets.UTF_8), avro(id, note)))
                                .get();
                    }
                }
            }
            case "count" -> System.exit(count(client, args[2], Long.parseLong(args[3]), Long.parseLong(args[4])));
            default -> throw new IllegalArgumentException("create, produce or count");
        }
    }

    /** Registers {@code {"type":"record","name":"Payment","fields":[{"name":"note","type":"string"}]}}. */
    private static int register(String registry, String subject) throws Exception {
        String schema = "{\"type\":\"record\",\"name\":\"Payment\",\"fields\":[{\"name\":\"note\",\"type\":\"string\"}]}";
        String body = "{\"schema\":\"" + schema.replace("\"", "\\\"") + "\"}";
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(registry + "/subjects/" + subject + "/versions"))
                                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("registry said " + response.statusCode() + ": " + response.body());
        }
        return Integer.parseInt(response.body().replaceAll("[^0-9]", ""));
    }

    /** Magic byte 0, the schema id (4 bytes, big-endian), then the record: the string's zig-zag length and bytes. */
    private static byte[] avro(int id, byte[] note) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(0);
        out.writeBytes(java.nio.ByteBuffer.allocate(4).putInt(id).array());
        long n = (long) note.length << 1; // zig-zag of a non-negative length
        while ((n & ~0x7FL) != 0) {
            out.write((int) ((n & 0x7F) | 0x80));
            n >>>= 7;
        }
        out.write((int) n);
        out.writeBytes(note);
        return out.toByteArray();
    }

    private static int count(Properties client, String topic, long expected, long seconds) throws Exception {
        client.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        client.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        client.put("isolation.level", "read_committed");
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        long found = 0;
        while (System.nanoTime() < deadline) {
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(client)) {
                if (consumer.listTopics().containsKey(topic)) {
                    List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                            .map(p -> new TopicPartition(topic, p.partition()))
                            .toList();
                    consumer.assign(partitions);
                    consumer.seekToBeginning(partitions);
                    Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
                    found = 0;
                    while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                            found++;
                        }
                    }
                    if (found >= expected) {
                        System.out.println(topic + ": " + found + " records");
                        return found == expected ? 0 : 1;
                    }
                }
            }
            Thread.sleep(1000);
        }
        System.out.println(topic + ": " + found + " records, expected " + expected);
        return 1;
    }
}
