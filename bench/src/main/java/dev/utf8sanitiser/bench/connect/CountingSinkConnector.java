package dev.utf8sanitiser.bench.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * A sink that only counts: ConnectBenchmark's sink, so that what is measured is the worker (its
 * consumer, converter and transformation chain) and not a sink's own work. Kafka's
 * FileStreamSinkConnector would write and flush every record to a file, an I/O cost per record
 * larger than the transformation's; this sink reads each value's length and nothing else.
 *
 * <p>It reports once, when it has seen the record at {@code last.offset}, by writing one line to
 * {@code result.file}: see {@link CountingSinkTask}. One task, one partition.
 */
public final class CountingSinkConnector extends SinkConnector {
    static final String RESULT_FILE = "result.file";
    static final String LAST_OFFSET = "last.offset";

    static final ConfigDef CONFIG = new ConfigDef()
            .define(RESULT_FILE, ConfigDef.Type.STRING, ConfigDef.Importance.HIGH, "Where the task writes its result.")
            .define(
                    LAST_OFFSET,
                    ConfigDef.Type.LONG,
                    ConfigDef.Importance.HIGH,
                    "The offset of the input topic's last record: the task reports when it has seen it.");

    private Map<String, String> props = Map.of();

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return CountingSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        configs.add(props);
        return configs;
    }

    @Override
    public void stop() {
        // nothing to release
    }

    @Override
    public ConfigDef config() {
        return CONFIG;
    }

    @Override
    public String version() {
        return "1";
    }
}
