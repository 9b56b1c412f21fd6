package dev.utf8sanitiser.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three nodes: the partition's leader is SIGKILLed, another in-sync replica takes over, writes with
 * {@code acks=all} go on (two in-sync replicas are enough), the node comes back on its ports and
 * log directory and rejoins the ISR; a SIGTERMed active controller is replaced; a leader cut off
 * from the network ({@link KafkaCluster.Builder#isolatedNetwork()}, root only) is replaced while
 * it still runs, and rejoins the ISR when the network heals.
 *
 * <p>Tagged {@code slow}: three JVMs take 40 to 50 s to start on a two-core machine, and the
 * failover waits for {@code broker.session.timeout.ms}; about 80 s in all.
 */
@Tag("slow")
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class KafkaClusterIT {

    @Test
    void aKilledLeaderIsReplacedAndRejoinsTheIsrAfterARestart() throws Exception {
        long begin = System.nanoTime();
        try (KafkaCluster cluster = KafkaCluster.start(3)) {
            long started = System.nanoTime();
            assertThat(cluster.nodeIds()).containsExactly(1, 2, 3);
            assertThat(cluster.replicationFactor()).isEqualTo((short) 3);
            TopicPartition partition = new TopicPartition("failover", 0);
            cluster.createTopics(1, partition.topic());
            assertThat(cluster.isr(partition)).containsExactlyInAnyOrder(1, 2, 3);
            int leader = cluster.leader(partition).getAsInt();

            Map<String, Object> config = cluster.producerConfig();
            config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
                for (int i = 0; i < 100; i++) {
                    producer.send(record(partition, i));
                }
                producer.flush();

                long killed = System.nanoTime();
                cluster.kill(leader);
                assertThat(cluster.isRunning(leader)).isFalse();
                for (int i = 100; i < 200; i++) {
                    producer.send(record(partition, i));
                }
                producer.flush(); // throws nothing, but a failed send would show in the read below
                long failover = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
                OptionalInt next = cluster.leader(partition);
                assertThat(next).isPresent();
                assertThat(next.getAsInt()).isNotEqualTo(leader);
                assertThat(cluster.isr(partition)).doesNotContain(leader).hasSize(2);

                cluster.restart(leader);
                assertThat(KafkaCluster.await(() -> cluster.isr(partition).contains(leader), Duration.ofSeconds(60)))
                        .as("node %s back in the ISR", leader)
                        .isTrue();
                System.out.println("KafkaClusterIT: acks=all writes went on " + failover + " ms after the leader "
                        + leader + " was killed; back in the ISR " + millis(killed, System.nanoTime()) + " ms after");
            }
            assertThat(read(cluster, partition, 200)).hasSize(200);

            int controller = cluster.activeController();
            long controllerAt = System.nanoTime();
            cluster.stop(controller);
            assertThat(KafkaCluster.await(
                            () -> {
                                try {
                                    return cluster.activeController() != controller;
                                } catch (EmbeddedKafkaException e) {
                                    return false;
                                }
                            },
                            Duration.ofSeconds(30)))
                    .as("a new active controller")
                    .isTrue();
            long stopped = System.nanoTime();
            cluster.restart(controller);
            System.out.println("KafkaClusterIT: started in " + millis(begin, started) + " ms; controller " + controller
                    + " stopped and replaced in " + millis(controllerAt, stopped) + " ms, back in "
                    + millis(stopped, System.nanoTime()) + " ms");
        }
    }

    @Test
    void aLeaderCutOffFromTheNetworkIsReplacedAndRejoinsTheIsrWhenHealed() throws Exception {
        Assumptions.assumeTrue(IsolatedNetwork.available(), "network namespaces need root and iproute2");
        try (KafkaCluster cluster = KafkaCluster.builder(3).isolatedNetwork().start()) {
            assertThat(cluster.bootstrapServers()).doesNotContain("127.0.0.1");
            TopicPartition partition = new TopicPartition("partitioned", 0);
            cluster.createTopics(1, partition.topic());
            int leader = cluster.leader(partition).getAsInt();
            String leaderAddress = cluster.bootstrapServers().split(",")[leader - 1];

            Map<String, Object> config = cluster.producerConfig();
            config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 90_000);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
                for (int i = 0; i < 100; i++) {
                    producer.send(record(partition, i));
                }
                producer.flush();
                assertThat(reachable(leaderAddress)).isTrue();

                long cut = System.nanoTime();
                cluster.cutOff(leader);
                assertThat(reachable(leaderAddress))
                        .as("the cut-off node answers no connection")
                        .isFalse();
                for (int i = 100; i < 200; i++) {
                    producer.send(record(partition, i));
                }
                producer.flush();
                long failover = millis(cut, System.nanoTime());
                assertThat(cluster.isRunning(leader)).as("cut off, not stopped").isTrue();
                assertThat(cluster.leader(partition).getAsInt()).isNotEqualTo(leader);
                assertThat(cluster.isr(partition)).doesNotContain(leader).hasSize(2);

                long healed = System.nanoTime();
                cluster.reconnect(leader);
                assertThat(reachable(leaderAddress)).isTrue();
                assertThat(KafkaCluster.await(() -> cluster.isr(partition).contains(leader), Duration.ofSeconds(60)))
                        .as("node %s back in the ISR", leader)
                        .isTrue();
                System.out.println("KafkaClusterIT: acks=all writes went on " + failover + " ms after the leader "
                        + leader + " was cut off; back in the ISR " + millis(healed, System.nanoTime())
                        + " ms after the network healed");
            }
            assertThat(read(cluster, partition, 200)).hasSize(200);
        }
    }

    /** Whether a TCP connection to {@code hostPort} opens within 2 s. */
    private static boolean reachable(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(
                    new InetSocketAddress(
                            hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
                    2_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static long millis(long from, long to) {
        return TimeUnit.NANOSECONDS.toMillis(to - from);
    }

    private static ProducerRecord<byte[], byte[]> record(TopicPartition partition, int i) {
        return new ProducerRecord<>(
                partition.topic(),
                partition.partition(),
                null,
                Integer.toString(i).getBytes(StandardCharsets.UTF_8));
    }

    private static Set<String> read(KafkaCluster cluster, TopicPartition partition, int count) {
        Set<String> values = new HashSet<>();
        Map<String, Object> config = cluster.consumerConfig("reader");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return values;
    }
}
