package dev.utf8sanitiser.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.utf8sanitiser.config.ConfigProblem;
import dev.utf8sanitiser.config.EnvironmentOverrides;
import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s parsed strictly into fabric8's typed Kubernetes model (a field the model does not know
 * fails, however deep) and checked against the code: the probes ask for paths the health server
 * serves on the port the configuration opens, every key of the ConfigMap's properties is a real key
 * that passes the configuration's own validation, every variable set from the Secret is one the
 * environment overrides take, and the grace period outlasts the shutdown timeout.
 */
class KubernetesManifestsTest {
    private static final Path K8S =
            Path.of(System.getProperty("repo.dir", "..")).resolve("deploy/k8s");
    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private static JsonNode kustomization;
    private static Deployment deployment;
    private static Service service;
    private static PodDisruptionBudget budget;
    private static SanitiserConfig config;

    @BeforeAll
    static void parse() throws IOException {
        kustomization = YAML.readTree(K8S.resolve("kustomization.yaml").toFile());
        deployment = strictly(K8S.resolve("deployment.yaml"), Deployment.class);
        service = strictly(K8S.resolve("service.yaml"), Service.class);
        budget = strictly(K8S.resolve("pdb.yaml"), PodDisruptionBudget.class);
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(K8S.resolve("sanitiser.properties"))) {
            properties.load(in);
        }
        config = new SanitiserConfig(properties);
    }

    /** The manifest as its typed model, with nothing left over in any {@code additionalProperties}. */
    private static <T> T strictly(Path file, Class<T> type) throws IOException {
        T parsed = YAML.readValue(file.toFile(), type);
        List<String> unknown = new ArrayList<>();
        unknownFields(parsed, type.getSimpleName(), unknown, new IdentityHashMap<>());
        assertThat(unknown)
                .as("fields %s does not know in %s", type.getSimpleName(), file)
                .isEmpty();
        return parsed;
    }

    private static void unknownFields(Object node, String path, List<String> unknown, Map<Object, Boolean> seen) {
        if (node == null || seen.put(node, true) != null) {
            return;
        }
        if (node instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                unknownFields(item, path + "[" + i++ + "]", unknown, seen);
            }
            return;
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> unknownFields(v, path + "." + k, unknown, seen));
            return;
        }
        if (!node.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method getter : node.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            String name = getter.getName();
            if (!name.startsWith("get") && !name.startsWith("is")) {
                continue;
            }
            Object value;
            try {
                value = getter.invoke(node);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
            if (name.equals("getAdditionalProperties")) {
                ((Map<?, ?>) value).keySet().forEach(key -> unknown.add(path + "." + key));
            } else {
                unknownFields(value, path + "." + name, unknown, seen);
            }
        }
    }

    private static Container container() {
        return deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    }

    @Test
    void aMisspeltFieldIsFoundHoweverDeep() throws IOException {
        Path bad = Files.createTempFile("deployment", ".yaml");
        Files.writeString(
                bad, Files.readString(K8S.resolve("deployment.yaml")).replace("readinessProbe:", "readinesProbe:"));
        List<String> unknown = new ArrayList<>();

        unknownFields(YAML.readValue(bad.toFile(), Deployment.class), "Deployment", unknown, new IdentityHashMap<>());

        assertThat(unknown).singleElement().asString().endsWith(".readinesProbe");
    }

    @Test
    void kustomizeBuildsFromFilesThatExistAndNamesWhatTheDeploymentUses() {
        for (JsonNode resource : kustomization.get("resources")) {
            assertThat(K8S.resolve(resource.asText())).exists();
        }
        JsonNode generated = kustomization.get("configMapGenerator").get(0);
        generated.get("files").forEach(f -> assertThat(K8S.resolve(f.asText())).exists());
        List<String> volumes = deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getConfigMap() != null)
                .map(v -> v.getConfigMap().getName())
                .toList();
        assertThat(volumes).containsExactly(generated.get("name").asText());
        assertThat(container().getImage())
                .isEqualTo(kustomization.get("images").get(0).get("name").asText());
    }

    @Test
    void theConfigMapHoldsOnlyRealKeysThatPassValidation() {
        Map<String, Object> props = new HashMap<>(config.originals());

        List<ConfigProblem> problems = SanitiserConfig.validate(props, Requirement.all());

        assertThat(problems).isEmpty();
        assertThat(config.inputTopics()).isNotEmpty();
    }

    @Test
    void theContainerReadsTheMountedFile() {
        List<String> args = container().getArgs();
        String file = args.get(args.indexOf("--config") + 1);
        String mount = container().getVolumeMounts().stream()
                .filter(m -> m.getName().equals("config"))
                .findFirst()
                .orElseThrow()
                .getMountPath();

        assertThat(args.get(0)).isEqualTo("run");
        assertThat(file).isEqualTo(mount + "/sanitiser.properties");
    }

    @Test
    void theProbesAskForPathsTheHealthServerServesOnThePortTheConfigurationOpens() {
        int port = container().getPorts().stream()
                .filter(p -> p.getName().equals("http"))
                .findFirst()
                .orElseThrow()
                .getContainerPort();
        assertThat(config.httpPort()).hasValue(port);

        Map<String, Probe> probes = Map.of(
                "startup", container().getStartupProbe(),
                "liveness", container().getLivenessProbe(),
                "readiness", container().getReadinessProbe());
        probes.forEach((kind, probe) -> {
            HTTPGetAction get = probe.getHttpGet();
            assertThat(get).as(kind).isNotNull();
            assertThat(get.getPort().getStrVal()).as(kind).isEqualTo("http");
            assertThat(get.getPath())
                    .as(kind)
                    .isIn(HealthServer.LIVE, HealthServer.READY)
                    .isEqualTo(kind.equals("readiness") ? HealthServer.READY : HealthServer.LIVE);
        });
        assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry("prometheus.io/path", HealthServer.METRICS)
                .containsEntry("prometheus.io/port", String.valueOf(port));
    }

    @Test
    void theGracePeriodOutlastsTheShutdownTimeout() {
        long grace = deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();

        assertThat(grace * 1000).isGreaterThan(config.shutdownTimeout().toMillis() + 10_000);
    }

    @Test
    void everyVariableFromTheSecretIsAnOverrideTheConfigurationTakes() {
        Map<String, String> environment = new HashMap<>();
        for (EnvVar env : container().getEnv()) {
            assertThat(env.getValueFrom().getSecretKeyRef().getName()).isEqualTo("utf8-sanitiser-credentials");
            environment.put(env.getName(), "value");
        }

        EnvironmentOverrides overrides = EnvironmentOverrides.from(environment);

        assertThat(overrides.problems()).isEmpty();
        assertThat(overrides.properties())
                .containsOnlyKeys("sasl.jaas.config", "basic.auth.user.info", "sanitiser.console.token");
        assertThat(Set.of("basic.auth.user.info", "sanitiser.console.token"))
                .allSatisfy(key -> assertThat(SanitiserConfig.definedKeys()).contains(key));
    }

    @Test
    void theServiceAndTheBudgetSelectThePods() {
        Map<String, String> labels =
                deployment.getSpec().getTemplate().getMetadata().getLabels();

        assertThat(labels).containsAllEntriesOf(service.getSpec().getSelector());
        assertThat(labels).containsAllEntriesOf(budget.getSpec().getSelector().getMatchLabels());
        assertThat(labels)
                .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(service.getSpec().getPorts().get(0).getTargetPort().getStrVal())
                .isEqualTo("http");
        List<String> volumeNames = deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
                .map(Volume::getName)
                .toList();
        assertThat(container().getVolumeMounts())
                .allSatisfy(m -> assertThat(volumeNames).contains(m.getName()));
    }
}
