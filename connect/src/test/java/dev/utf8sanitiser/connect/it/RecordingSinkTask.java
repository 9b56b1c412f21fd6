package dev.utf8sanitiser.connect.it;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * Appends one line per record: topic, partition, offset, key, value, then each header as {@code
 * name=value}, separated by tabs, every key, value and header value in Base64 of its bytes (a
 * string as UTF-8). {@link ReceivedRecord} reads the lines back.
 */
public class RecordingSinkTask extends SinkTask {
    private Path file;

    @Override
    public void start(Map<String, String> props) {
        file = Path.of(props.get(RecordingSinkConnector.FILE_CONFIG));
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        StringBuilder lines = new StringBuilder();
        for (SinkRecord record : records) {
            lines.append(record.topic())
                    .append('\t')
                    .append(record.kafkaPartition())
                    .append('\t')
                    .append(record.kafkaOffset())
                    .append('\t')
                    .append(base64(record.key()))
                    .append('\t')
                    .append(base64(record.value()));
            for (Header header : record.headers()) {
                lines.append('\t').append(header.key()).append('=').append(base64(header.value()));
            }
            lines.append('\n');
        }
        try {
            Files.writeString(file, lines, UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String base64(Object value) {
        if (value == null) {
            return "-";
        }
        byte[] bytes;
        if (value instanceof byte[] b) {
            bytes = b;
        } else if (value instanceof ByteBuffer buffer) {
            bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
        } else {
            bytes = value.toString().getBytes(UTF_8);
        }
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Override
    public void stop() {}

    @Override
    public String version() {
        return "test";
    }
}
