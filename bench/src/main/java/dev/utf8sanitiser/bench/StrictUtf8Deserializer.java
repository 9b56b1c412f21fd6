package dev.utf8sanitiser.bench;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The strict text deserializer users of plain Kafka Streams are told to write: the JDK's UTF-8
 * decoder with {@link CodingErrorAction#REPORT}, a {@link SerializationException} on ill-formed
 * input, so that the deserialization exception handler (and with it Kafka Streams' dead-letter
 * queue) takes the record. {@link Topo#STREAMS_DLQ}'s source. A decoder per call: one
 * deserializer serves every task of the application, and a decoder keeps state.
 */
final class StrictUtf8Deserializer implements Deserializer<String> {
    @Override
    public String deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            return decoder.decode(ByteBuffer.wrap(data)).toString();
        } catch (CharacterCodingException e) {
            throw new SerializationException("ill-formed UTF-8 in a record of " + topic, e);
        }
    }
}
