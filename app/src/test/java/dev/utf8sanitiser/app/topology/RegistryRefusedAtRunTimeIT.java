package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.framing.WireFormat;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import dev.utf8sanitiser.testkit.TestSchemaRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A registry that refuses the credentials once the sanitiser runs (they were revoked): the client
 * reports it at once, without retrying, and under the default {@code sanitiser.on.fatal.error} the
 * application stops. The record is neither delivered nor dead-lettered, and its offset is not
 * committed, so it is read again after the credentials are fixed.
 */
@ExtendWith(SharedKafka.class)
class RegistryRefusedAtRunTimeIT {
    @Test
    void refusedCredentialsStopTheApplicationWithoutDroppingOrDeadLetteringTheRecord(EmbeddedKafka kafka)
            throws Exception {
        try (TestSchemaRegistry registry = TestSchemaRegistry.start()) {
            String in = SharedKafka.unique("orders-refused");
            String applicationId = in + "-app";
            kafka.createTopics(1, in);
            Schema schema =
                    SchemaBuilder.record("Order").fields().requiredString("id").endRecord();
            int id = registry.register(in + "-value", schema.toString());
            byte[] value = concat(WireFormat.prefix(id), new byte[] {0x04, 'a', '1'});
            Map<String, Object> props = new HashMap<>();
            props.put("sanitiser.input.topics", in);
            props.put("sanitiser.payload.format", "avro");
            props.put("sanitiser.http.port", "-1");
            props.put("schema.registry.url", registry.url());
            props.put("application.id", applicationId);
            props.put("bootstrap.servers", kafka.bootstrapServers());
            props.put("replication.factor", "1");
            props.put("commit.interval.ms", "200");
            props.put("consumer.auto.offset.reset", "earliest");

            try (SanitiserApplication app = SanitiserApplication.start(new SanitiserConfig(props), false)) {
                registry.failNext(Integer.MAX_VALUE, 401);
                registry.clearRequests();
                try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
                    producer.send(new ProducerRecord<>(in, value)).get();
                }
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (!app.isStopped() && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }

                assertThat(app.isStopped()).as("stopped by itself").isTrue();
                assertThat(app.failed()).isTrue();
            }
            assertThat(registry.requests())
                    .as("refused credentials are not retried")
                    .containsExactly("GET /schemas/ids/" + id);
            Map<String, Object> uncommitted = kafka.consumerConfig(applicationId + "-verifier");
            uncommitted.put("isolation.level", "read_uncommitted");
            List<ConsumerRecord<byte[], byte[]>> written = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(uncommitted)) {
                consumer.subscribe(List.of(in + ".clean", in + ".dlq"));
                long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                while (System.nanoTime() < until) {
                    consumer.poll(Duration.ofMillis(200)).forEach(written::add);
                }
            }
            assertThat(written).as("neither delivered nor dead-lettered").isEmpty();
            try (Admin admin = Admin.create(kafka.adminConfig())) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(applicationId)
                        .partitionsToOffsetAndMetadata()
                        .get();
                OffsetAndMetadata offset = committed.get(new TopicPartition(in, 0));
                assertThat(offset == null ? 0 : offset.offset())
                        .as("the record will be read again")
                        .isZero();
            }
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
