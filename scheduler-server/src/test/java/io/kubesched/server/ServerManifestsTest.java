package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/} parses, holds what the docs promise (docs/operations.md's RBAC, plus the SchedulingPolicy verbs), runs
 * the server as the image runs it, and carries the generated CRD unchanged.
 */
class ServerManifestsTest {

  private static final Path ROOT = Path.of("..");
  private static final Path DEPLOY = ROOT.resolve("deploy");
  /** The CRD fabric8's generator writes (scheduler-crd) and its copy here, for kubectl apply -f deploy/. */
  private static final Path GENERATED_CRD = ROOT.resolve("crds/schedulingpolicies.kubesched.io-v1.yml");
  private static final Path DEPLOYED_CRD = DEPLOY.resolve("01-crd-schedulingpolicies.yaml");

  /** What the SchedulingPolicy controller needs beyond the RBAC of docs/operations.md. */
  private static final List<PolicyRule> CRD_RULES =
      List.of(
          rule("kubesched.io", "schedulingpolicies", "get", "list", "watch"),
          rule("kubesched.io", "schedulingpolicies/status", "get", "patch", "update"));

  /** What the server's HTTPS endpoints need beyond that: the reviews of their callers' tokens and access. */
  private static final List<PolicyRule> SERVING_RULES =
      List.of(
          rule("authentication.k8s.io", "tokenreviews", "create"),
          rule("authorization.k8s.io", "subjectaccessreviews", "create"));

  private final KubernetesSerialization serialization = new KubernetesSerialization();

  private static PolicyRule rule(String group, String resource, String... verbs) {
    return new PolicyRuleBuilder().withApiGroups(group).withResources(resource).withVerbs(verbs).build();
  }

  private List<HasMetadata> objects() throws IOException {
    var objects = new ArrayList<HasMetadata>();
    try (Stream<Path> files = Files.list(DEPLOY)) {
      for (var file : files.sorted().toList()) {
        objects.addAll(parse(Files.readString(file)));
      }
    }
    return objects;
  }

  private List<HasMetadata> parse(String yaml) {
    Object parsed = serialization.unmarshal(yaml);
    if (parsed instanceof List<?> list) {
      return list.stream().map(HasMetadata.class::cast).toList();
    }
    return List.of((HasMetadata) parsed);
  }

  private <T extends HasMetadata> T only(Class<T> kind) throws IOException {
    var found = objects().stream().filter(kind::isInstance).map(kind::cast).toList();
    assertEquals(1, found.size(), () -> "one " + kind.getSimpleName() + " in deploy/");
    return found.get(0);
  }

  @Test
  void every_manifest_parses_and_names_its_namespace() throws IOException {
    var objects = objects();
    var kinds = objects.stream().map(HasMetadata::getKind).toList();
    assertEquals(
        List.of(
            "Namespace",
            "CustomResourceDefinition",
            "ServiceAccount",
            "ClusterRole",
            "ClusterRoleBinding",
            "ConfigMap",
            "Deployment"),
        kinds,
        "kubectl apply -f deploy/ creates them in this order");
    var namespace = only(Namespace.class).getMetadata().getName();
    for (var object : objects) {
      var clusterScoped = List.of("Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding");
      assertEquals(
          clusterScoped.contains(object.getKind()) ? null : namespace,
          object.getMetadata().getNamespace(),
          object.getKind() + " " + object.getMetadata().getName());
    }
  }

  @Test
  void the_cluster_role_is_the_documented_rbac_plus_the_scheduling_policy_verbs() throws IOException {
    var readme = Files.readString(ROOT.resolve("docs").resolve("operations.md"));
    var section = readme.indexOf("\n## RBAC\n");
    assertTrue(section > 0, "docs/operations.md has an RBAC section");
    var start = readme.indexOf("```yaml\n", section) + "```yaml\n".length();
    var documented =
        parse(readme.substring(start, readme.indexOf("```", start))).stream()
            .filter(ClusterRole.class::isInstance)
            .map(ClusterRole.class::cast)
            .findFirst()
            .orElseThrow();
    var expected = new ArrayList<>(documented.getRules());
    expected.addAll(CRD_RULES);
    expected.addAll(SERVING_RULES);
    assertEquals(expected, only(ClusterRole.class).getRules());

    var binding = only(ClusterRoleBinding.class);
    var account = only(ServiceAccount.class);
    assertEquals(only(ClusterRole.class).getMetadata().getName(), binding.getRoleRef().getName());
    assertEquals(1, binding.getSubjects().size());
    assertEquals("ServiceAccount", binding.getSubjects().get(0).getKind());
    assertEquals(account.getMetadata().getName(), binding.getSubjects().get(0).getName());
    assertEquals(account.getMetadata().getNamespace(), binding.getSubjects().get(0).getNamespace());
  }

  @Test
  void the_config_map_holds_a_configuration_the_server_accepts_with_leader_election() throws IOException {
    var deployment = only(Deployment.class);
    var container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    var configArg =
        container.getArgs().stream().filter(a -> a.startsWith("--config=")).findFirst().orElseThrow();
    var configPath = Path.of(configArg.substring("--config=".length()));
    var mount =
        container.getVolumeMounts().stream()
            .filter(m -> configPath.startsWith(m.getMountPath()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("the config file is mounted"));
    var volume =
        deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(v -> v.getName().equals(mount.getName()))
            .findFirst()
            .orElseThrow();
    var configMap = only(ConfigMap.class);
    assertEquals(configMap.getMetadata().getName(), volume.getConfigMap().getName());
    var text = configMap.getData().get(configPath.getFileName().toString());

    var config = SchedulerConfiguration.parse(text, "deploy/03-config.yaml");
    assertEquals(2, SchedulerSetup.of(config, "deploy").profiles().size(), "two profiles");
    var options =
        ServerOptions.options(SchedulerSetup.of(config, "deploy"), new Options.Connection.InCluster(), SchedulerMetrics.NONE);
    var election = options.leaderElection().orElseThrow(() -> new AssertionError("leader election is on"));
    assertEquals(configMap.getMetadata().getNamespace(), election.leaseNamespace());
    assertEquals(Optional.of("kubesched"), election.leaseName());
  }

  @Test
  void the_deployment_runs_two_locked_down_replicas_with_probes_on_the_endpoints() throws IOException {
    var deployment = only(Deployment.class);
    assertEquals(2, deployment.getSpec().getReplicas());
    var pod = deployment.getSpec().getTemplate().getSpec();
    assertEquals(only(ServiceAccount.class).getMetadata().getName(), pod.getServiceAccountName());
    assertTrue(pod.getSecurityContext().getRunAsNonRoot());
    var container = pod.getContainers().get(0);
    assertFalse(container.getSecurityContext().getAllowPrivilegeEscalation());
    assertTrue(container.getSecurityContext().getReadOnlyRootFilesystem());
    assertEquals(List.of("ALL"), container.getSecurityContext().getCapabilities().getDrop());
    assertTrue(container.getResources().getRequests().containsKey("cpu"));
    assertTrue(container.getResources().getRequests().containsKey("memory"));
    assertEquals("/healthz", container.getLivenessProbe().getHttpGet().getPath());
    assertEquals("/readyz", container.getReadinessProbe().getHttpGet().getPath());
    var port = container.getPorts().get(0);
    assertEquals(ServingOptions.DEFAULT_SECURE_PORT, port.getContainerPort());
    assertEquals(port.getName(), container.getLivenessProbe().getHttpGet().getPort().getStrVal());
    assertTrue(
        container.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/tmp")),
        "a writable /tmp beside the read-only root");
  }

  /**
   * The image's JVM flags (scheduler-server's pom, docs/operations.md#jvm-flags-and-sizing): Jib's {@code jvmFlags} and the offline
   * image's own entrypoint list the same ones, the heap is sized from the container's memory limit and not
   * fixed, and the Deployment sets that limit without overriding the flags.
   */
  @Test
  void both_images_size_the_heap_from_the_deployments_memory_limit() throws IOException {
    var pom = Files.readString(Path.of("pom.xml"));
    var jibFlags = flagProperties(between(pom, "<jvmFlags>", "</jvmFlags>"));
    var entrypointFlags = flagProperties(between(pom, "<entrypoint>", "</entrypoint>"));
    assertEquals(jibFlags, entrypointFlags);
    var flags = jibFlags.stream().map(name -> between(pom, "<" + name + ">", "</" + name + ">")).toList();
    assertEquals(
        List.of(
            "-XX:MaxRAMPercentage=75",
            "-XX:+UseSerialGC",
            "-XX:NewRatio=3",
            "-XX:TieredStopAtLevel=1",
            "-XX:+ExitOnOutOfMemoryError",
            "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2"),
        flags);

    var container = only(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertTrue(container.getResources().getLimits().containsKey("memory"), "a memory limit to size the heap from");
    assertTrue(
        container.getEnv() == null
            || container.getEnv().stream()
                .noneMatch(env -> List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS").contains(env.getName())),
        "no JAVA_TOOL_OPTIONS or JDK_JAVA_OPTIONS beside the image's flags");
  }

  private static String between(String text, String start, String end) {
    int from = text.indexOf(start);
    int to = text.indexOf(end, from + start.length());
    assertTrue(from >= 0 && to > from, () -> "pom.xml has " + start + "..." + end);
    return text.substring(from + start.length(), to);
  }

  /** @return the names of the {@code server.jvm.*} properties {@code block} refers to, in order */
  private static List<String> flagProperties(String block) {
    return Pattern.compile("\\$\\{(server\\.jvm\\.[a-z]+)}").matcher(block).results()
        .map(match -> match.group(1))
        .toList();
  }

  @Test
  void the_crd_is_the_generated_one_unchanged() throws IOException {
    assertEquals(Files.readString(GENERATED_CRD), Files.readString(DEPLOYED_CRD));
    var crd = only(CustomResourceDefinition.class);
    assertEquals("kubesched.io", crd.getSpec().getGroup());
    assertEquals("Cluster", crd.getSpec().getScope());
  }
}
