package dev.utf8sanitiser.connect.it;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** One line of a {@link RecordingSinkTask} file: a record as the sink received it. */
record ReceivedRecord(String topic, int partition, long offset, byte[] key, byte[] value, Map<String, String> headers) {

    static ReceivedRecord parse(String line) {
        String[] fields = line.split("\t");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 5; i < fields.length; i++) {
            int equals = fields[i].indexOf('=');
            headers.put(fields[i].substring(0, equals), new String(decode(fields[i].substring(equals + 1)), UTF_8));
        }
        return new ReceivedRecord(
                fields[0],
                Integer.parseInt(fields[1]),
                Long.parseLong(fields[2]),
                decode(fields[3]),
                decode(fields[4]),
                headers);
    }

    private static byte[] decode(String field) {
        return field.equals("-") ? null : Base64.getDecoder().decode(field);
    }
}
