import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The part of {@code kafka-topics.sh} the compose stack uses ({@code --bootstrap-server B --create
 * [--if-not-exists] --topic T [--partitions N] [--replication-factor R]}), for the stand-in Kafka
 * image: Kafka's own TopicCommand lives in kafka-tools, which the application jar does not carry.
 */
public class Topics {
    public static void main(String[] args) throws Exception {
        Properties client = new Properties();
        List<String> topics = new ArrayList<>();
        int partitions = 1;
        short replicas = 1;
        boolean ifNotExists = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bootstrap-server" -> client.put("bootstrap.servers", args[++i]);
                case "--topic" -> topics.add(args[++i]);
                case "--partitions" -> partitions = Integer.parseInt(args[++i]);
                case "--replication-factor" -> replicas = Short.parseShort(args[++i]);
                case "--if-not-exists" -> ifNotExists = true;
                case "--create" -> {}
                default -> throw new IllegalArgumentException("not supported by the stand-in: " + args[i]);
            }
        }
        try (Admin admin = Admin.create(client)) {
            for (String topic : topics) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, partitions, replicas))).all().get();
                    System.out.println("Created topic " + topic + ".");
                } catch (ExecutionException e) {
                    if (!(ifNotExists && e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }
}
