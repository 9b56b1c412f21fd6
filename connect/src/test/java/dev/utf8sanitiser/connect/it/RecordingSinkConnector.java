package dev.utf8sanitiser.connect.it;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * A sink that writes down exactly what it received (see {@link RecordingSinkTask}), so that a test
 * can see what the transformations before it let through: the test kit's monitorable sink, for a
 * worker in another JVM. Runs from the worker's class path, not from {@code plugin.path}.
 */
public class RecordingSinkConnector extends SinkConnector {
    static final String FILE_CONFIG = "file";

    private Map<String, String> props;

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return RecordingSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return Collections.singletonList(props);
    }

    @Override
    public void stop() {}

    @Override
    public ConfigDef config() {
        return new ConfigDef().define(FILE_CONFIG, ConfigDef.Type.STRING, ConfigDef.Importance.HIGH, "Where to write");
    }

    @Override
    public String version() {
        return "test";
    }
}
