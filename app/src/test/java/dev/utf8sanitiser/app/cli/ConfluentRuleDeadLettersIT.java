package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Confluent's data-contract DLQ action, whose serdes are not on Maven Central, so its records are
 * built here by hand in its documented format: the record's key, value and own headers, then {@code
 * __rule.name}, {@code __rule.mode}, {@code __rule.subject}, {@code __rule.topic} and, when the rule
 * failed with an exception, {@code __rule.exception} (its message), all UTF-8 strings, in that
 * order. The format is documented with the DLQ action in Confluent's Schema Registry "Data
 * Contracts" documentation, and written by {@code DlqAction.populateHeaders} in the client module of
 * Confluent's schema-registry repository. It names the topic only: no partition or offset.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(SharedKafka.class)
class ConfluentRuleDeadLettersIT {
    @TempDir
    Path dir;

    @Test
    void aConfluentRuleDeadLetterIsCountedInspectedAndReplayedOnce(EmbeddedKafka kafka) throws Exception {
        String in = SharedKafka.unique("rule-in");
        String dlq = in + ".rule-dlq";
        kafka.createTopics(1, in, dlq);
        List<Header> own = List.<Header>of(PlainHeader.of("trace-id", "r1"));
        byte[] key = "k4".getBytes(UTF_8);
        byte[] value = {0, 0, 0, 0, 7, 2, 'x'}; // a Confluent wire-format record, as the consumer read it
        List<Header> headers = new ArrayList<>(own);
        headers.add(PlainHeader.of("__rule.name", "checkSku"));
        headers.add(PlainHeader.of("__rule.mode", "READ"));
        headers.add(PlainHeader.of("__rule.subject", in + "-value"));
        headers.add(PlainHeader.of("__rule.topic", in));
        headers.add(PlainHeader.of("__rule.exception", "Expr failed: 'message.sku != \"\"'"));
        List<Header> written = new ArrayList<>(own);
        written.add(PlainHeader.of("__rule.name", "checkSku"));
        written.add(PlainHeader.of("__rule.mode", "WRITE"));
        written.add(PlainHeader.of("__rule.subject", in + "-value"));
        written.add(PlainHeader.of("__rule.topic", in));
        RecordMetadata at;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            at = producer.send(new ProducerRecord<>(dlq, 0, key, value, headers))
                    .get();
            // WRITE mode: the serializer's input, not bytes the topic held; never sent back there.
            producer.send(new ProducerRecord<>(dlq, 0, key, "{\"sku\":\"\"}".getBytes(UTF_8), written))
                    .get();
        }

        ForeignDeadLetters.checkWithSkips(
                kafka,
                dir,
                dlq,
                2,
                at.offset(),
                new ForeignDeadLetters.Expected(
                        "confluent-rule", "rule checkSku", in, OptionalInt.empty(), -1, key, value, own),
                1);
    }
}
