package dev.utf8sanitiser.registry;

import java.util.HashMap;
import java.util.Map;

/** Registry clients with quick retries, so that giving up takes a second, not a minute. */
final class FastClients {
    private FastClients() {}

    static Map<String, Object> config(String url, String... keysAndValues) {
        Map<String, Object> props = new HashMap<>();
        props.put("schema.registry.url", url);
        props.put("retries.wait.ms", "10");
        props.put("retries.max.wait.ms", "50");
        props.put("http.connect.timeout.ms", "1000");
        props.put("http.read.timeout.ms", "2000");
        props.put("sanitiser.registry.retry.timeout.ms", "1500");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    static RestSchemaRegistry client(String url, String... keysAndValues) {
        return RestSchemaRegistry.create(config(url, keysAndValues));
    }
}
