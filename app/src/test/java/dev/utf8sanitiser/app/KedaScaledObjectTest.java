package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.utf8sanitiser.config.SanitiserConfig;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s/keda: the ScaledObject parsed strictly into the part of KEDA's model it uses (KEDA
 * publishes no Java model: the records below spell its CRD's field names, and a field they do not
 * know fails), and checked against the base: it scales the Deployment, on the lag of the group and
 * topic the sanitiser's configuration reads, with only parameters KEDA's Kafka scaler takes; the
 * overlay builds on the base and leaves the replica count to the autoscaler.
 */
class KedaScaledObjectTest {
    private static final Path K8S =
            Path.of(System.getProperty("repo.dir", "..")).resolve("deploy/k8s");
    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The parameters of KEDA's Kafka scaler (keda.sh, "Apache Kafka" scaler, trigger specification). */
    private static final Set<String> KAFKA_SCALER_PARAMETERS = Set.of(
            "bootstrapServers",
            "consumerGroup",
            "topic",
            "lagThreshold",
            "activationLagThreshold",
            "offsetResetPolicy",
            "allowIdleConsumers",
            "scaleToZeroOnInvalidOffset",
            "excludePersistentLag",
            "limitToPartitionsWithLag",
            "partitionLimitation",
            "version",
            "sasl",
            "tls");

    record ScaledObject(String apiVersion, String kind, Metadata metadata, Spec spec) {}

    record Metadata(String name) {}

    record Spec(
            Target scaleTargetRef,
            int minReplicaCount,
            int maxReplicaCount,
            int pollingInterval,
            int cooldownPeriod,
            Advanced advanced,
            List<Trigger> triggers) {}

    record Target(String name) {}

    record Advanced(AutoscalerConfig horizontalPodAutoscalerConfig) {}

    record AutoscalerConfig(Behavior behavior) {}

    /** Kubernetes' HorizontalPodAutoscalerBehavior (autoscaling/v2), which KEDA passes on. */
    record Behavior(Rules scaleUp, Rules scaleDown) {}

    record Rules(int stabilizationWindowSeconds, List<Policy> policies) {}

    record Policy(String type, int value, int periodSeconds) {}

    record Trigger(String type, Map<String, String> metadata) {}

    private static ScaledObject scaledObject;
    private static Deployment deployment;
    private static PodDisruptionBudget budget;
    private static Map<String, Object> config;
    private static SanitiserConfig sanitiser;

    @BeforeAll
    static void parse() throws IOException {
        scaledObject = YAML.readValue(K8S.resolve("keda/scaledobject.yaml").toFile(), ScaledObject.class);
        deployment = YAML.readValue(K8S.resolve("deployment.yaml").toFile(), Deployment.class);
        budget = YAML.readValue(K8S.resolve("pdb.yaml").toFile(), PodDisruptionBudget.class);
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(K8S.resolve("sanitiser.properties"))) {
            properties.load(in);
        }
        sanitiser = new SanitiserConfig(properties);
        config = sanitiser.originals();
    }

    @Test
    void aMisspeltFieldFailsTheParse() {
        String misspelt = "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nspec:\n  maxReplicas: 6\n";

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> YAML.readValue(misspelt, ScaledObject.class))
                .hasMessageContaining("maxReplicas");
    }

    @Test
    void itScalesTheDeploymentOnTheLagOfWhatTheSanitiserReads() {
        assertThat(scaledObject.apiVersion()).isEqualTo("keda.sh/v1alpha1");
        assertThat(scaledObject.kind()).isEqualTo("ScaledObject");
        assertThat(scaledObject.spec().scaleTargetRef().name())
                .isEqualTo(deployment.getMetadata().getName());

        assertThat(scaledObject.spec().triggers()).hasSize(1);
        Trigger kafka = scaledObject.spec().triggers().get(0);
        assertThat(kafka.type()).isEqualTo("kafka");
        assertThat(KAFKA_SCALER_PARAMETERS).containsAll(kafka.metadata().keySet());
        assertThat(kafka.metadata())
                .containsEntry("consumerGroup", (String) config.get("application.id"))
                .containsEntry("bootstrapServers", (String) config.get("bootstrap.servers"));
        assertThat(sanitiser.inputTopics()).contains(kafka.metadata().get("topic"));
        // Kafka Streams reads a partition without a committed offset from the earliest, unless
        // consumer.auto.offset.reset says otherwise: the lag must be counted the same way.
        assertThat(config).doesNotContainKeys("auto.offset.reset", "consumer.auto.offset.reset");
        assertThat(kafka.metadata()).containsEntry("offsetResetPolicy", "earliest");

        long lag = Long.parseLong(kafka.metadata().get("lagThreshold"));
        long activation = Long.parseLong(kafka.metadata().get("activationLagThreshold"));
        assertThat(activation).isPositive().isLessThan(lag);
    }

    @Test
    void theBoundsKeepOnePodWorkingWhileTheBudgetLetsOneGo() {
        int maxUnavailable = budget.getSpec().getMaxUnavailable().getIntVal();

        assertThat(scaledObject.spec().minReplicaCount()).isGreaterThan(maxUnavailable);
        assertThat(scaledObject.spec().maxReplicaCount())
                .isGreaterThanOrEqualTo(scaledObject.spec().minReplicaCount());
        assertThat(scaledObject.spec().minReplicaCount())
                .isEqualTo(deployment.getSpec().getReplicas());
        // One stream thread a pod: the pods, not threads, are what the autoscaler counts.
        assertThat(config).containsEntry("num.stream.threads", "1");
    }

    @Test
    void everyStepIsOnePodAndScalingDownWaitsLongerThanUp() {
        Behavior behavior =
                scaledObject.spec().advanced().horizontalPodAutoscalerConfig().behavior();

        for (Rules rules : List.of(behavior.scaleUp(), behavior.scaleDown())) {
            assertThat(rules.policies()).allSatisfy(policy -> {
                assertThat(policy.type()).isEqualTo("Pods");
                assertThat(policy.value()).isEqualTo(1);
            });
        }
        assertThat(behavior.scaleDown().stabilizationWindowSeconds())
                .isGreaterThan(behavior.scaleUp().stabilizationWindowSeconds());
    }

    @Test
    void theOverlayBuildsOnTheBaseAndLeavesTheReplicasToTheAutoscaler() throws IOException {
        JsonNode overlay = YAML.readTree(K8S.resolve("keda/kustomization.yaml").toFile());
        List<String> resources = new ArrayList<>();
        overlay.get("resources").forEach(resource -> resources.add(resource.asText()));

        assertThat(resources).containsExactly("..", "scaledobject.yaml");
        assertThat(resources)
                .allSatisfy(resource ->
                        assertThat(K8S.resolve("keda").resolve(resource)).exists());
        JsonNode patch = overlay.get("patches").get(0);
        assertThat(patch.get("target").get("kind").asText()).isEqualTo("Deployment");
        assertThat(patch.get("target").get("name").asText())
                .isEqualTo(deployment.getMetadata().getName());
        JsonNode operations = YAML.readTree(patch.get("patch").asText());
        assertThat(operations).hasSize(1);
        assertThat(operations.get(0).get("op").asText()).isEqualTo("remove");
        assertThat(operations.get(0).get("path").asText()).isEqualTo("/spec/replicas");
    }
}
