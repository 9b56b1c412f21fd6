package dev.utf8sanitiser.app.dlq;

import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * One record of a dead-letter topic: where it is, what it holds, and its annotation read back.
 *
 * @param annotation the annotation block at the end of the headers ({@link DeadLetterHeaders#read});
 *     empty for a record the sanitiser did not write, whatever {@code __utf8.*} headers it has
 * @param foreign what another tool's dead-letter queue wrote at the end of the headers ({@link
 *     ForeignHeaders}); empty when the sanitiser's annotation is there, or no known tool's block
 */
public record DeadLetter(
        String topic,
        int partition,
        long offset,
        long timestamp,
        byte[] key,
        byte[] value,
        List<Header> headers,
        Optional<DeadLetterHeaders> annotation,
        Optional<Foreign> foreign) {

    public DeadLetter {
        headers = List.copyOf(headers);
        if (annotation.isPresent()) {
            foreign = Optional.empty();
        }
    }

    /** A record with the foreign annotation its headers carry, when the sanitiser's is not there. */
    public DeadLetter(
            String topic,
            int partition,
            long offset,
            long timestamp,
            byte[] key,
            byte[] value,
            List<Header> headers,
            Optional<DeadLetterHeaders> annotation) {
        this(
                topic,
                partition,
                offset,
                timestamp,
                key,
                value,
                headers,
                annotation,
                annotation.isPresent() ? Optional.empty() : ForeignHeaders.read(List.copyOf(headers)));
    }

    public static DeadLetter of(ConsumerRecord<byte[], byte[]> record) {
        List<Header> headers = List.of(record.headers().toArray());
        return new DeadLetter(
                record.topic(),
                record.partition(),
                record.offset(),
                record.timestamp(),
                record.key(),
                record.value(),
                headers,
                DeadLetterHeaders.read(headers));
    }

    /** The foreign annotation when it was read whole; empty when there is none or it was refused. */
    public Optional<Foreign.Annotated> foreignAnnotation() {
        return foreign.filter(Foreign.Annotated.class::isInstance).map(Foreign.Annotated.class::cast);
    }

    /**
     * The record's own headers, byte-exact and in their order: without the sanitiser's annotation
     * or the foreign block read; all of them otherwise.
     */
    public List<Header> ownHeaders() {
        if (annotation.isPresent()) {
            return DeadLetterHeaders.original(headers);
        }
        return foreignAnnotation()
                .map(f -> List.copyOf(headers.subList(0, f.blockStart())))
                .orElse(headers);
    }

    /** {@code topic-partition@offset}, as the filters and the other tools spell a record's place. */
    public String coordinates() {
        return topic + "-" + partition + "@" + offset;
    }

    /**
     * The bytes of the part the annotation describes ({@code value}, {@code key}, {@code
     * header:NAME} among the record's own headers), or empty when the record does not hold it.
     */
    public Optional<byte[]> describedPart() {
        String part = annotation.map(DeadLetterHeaders::part).orElse("value");
        if (part.equals("value")) {
            return Optional.ofNullable(value);
        }
        if (part.equals("key")) {
            return Optional.ofNullable(key);
        }
        String name = part.startsWith("header:") ? part.substring("header:".length()) : part;
        byte[] found = null;
        for (Header header : DeadLetterHeaders.original(headers)) {
            if (header.key().equals(name)) {
                found = header.value();
                break;
            }
        }
        return Optional.ofNullable(found);
    }
}
