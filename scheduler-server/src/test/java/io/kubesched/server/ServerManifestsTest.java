package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
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
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/**
 * {@code deploy/} parses, holds what the docs promise (docs/operations.md's RBAC, plus the SchedulingPolicy verbs, and
 * no more), runs the server as the image runs it, on kube-scheduler's secure port, and carries the generated CRD
 * unchanged.
 */
class ServerManifestsTest {

  private static final Path ROOT = Path.of("..");

  /**
   * The cipher suites the image offers the API server, in its order (docs/operations.md#jvm-flags-and-sizing):
   * ChaCha20-Poly1305 first, because the quick compiler has no AES-GCM intrinsics; then the JDK's other AEAD
   * suites of TLS 1.3 and of TLS 1.2 with ECDHE.
   */
  static final List<String> TLS_CLIENT_CIPHER_SUITES =
      List.of(
          "TLS_CHACHA20_POLY1305_SHA256",
          "TLS_AES_128_GCM_SHA256",
          "TLS_AES_256_GCM_SHA384",
          "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");
  private static final Path DEPLOY = ROOT.resolve("deploy");
  /** The CRD fabric8's generator writes (scheduler-crd) and its copy here, for kubectl apply -f deploy/. */
  private static final Path GENERATED_CRD = ROOT.resolve("crds/schedulingpolicies.kubesched.io-v1.yml");
  private static final Path DEPLOYED_CRD = DEPLOY.resolve("01-crd-schedulingpolicies.yaml");
  /** The Helm chart, whose CRD, alerts and dashboard are copies of deploy/'s; ChartIT renders and applies it. */
  private static final Path CHART = ROOT.resolve("charts").resolve("kubesched");

  /** What the SchedulingPolicy controller needs beyond the RBAC of docs/operations.md. */
  private static final List<PolicyRule> CRD_RULES =
      List.of(
          rule("kubesched.io", "schedulingpolicies", "get", "list", "watch"),
          rule("kubesched.io", "schedulingpolicies/status", "get", "patch", "update"));

  /** kube-scheduler's secure port, which deploy/ serves and probes. */
  private static final int SECURE_PORT = ServingOptions.DEFAULT_SECURE_PORT;

  private final KubernetesSerialization serialization = new KubernetesSerialization();

  private static PolicyRule rule(String group, String resource, String... verbs) {
    return new PolicyRuleBuilder().withApiGroups(group).withResources(resource).withVerbs(verbs).build();
  }

  private List<HasMetadata> objects() throws IOException {
    var objects = new ArrayList<HasMetadata>();
    // kubectl apply -f deploy/ reads the files, not deploy/monitoring/ (that needs the Prometheus Operator).
    try (Stream<Path> files = Files.list(DEPLOY)) {
      for (var file : files.filter(Files::isRegularFile).sorted().toList()) {
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
            "Role",
            "RoleBinding",
            "ConfigMap",
            "PriorityClass",
            "Deployment",
            "PodDisruptionBudget",
            "Service"),
        kinds,
        "kubectl apply -f deploy/ creates them in this order");
    var namespace = only(Namespace.class).getMetadata().getName();
    for (var object : objects) {
      var clusterScoped =
          List.of("Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding", "PriorityClass");
      assertEquals(
          clusterScoped.contains(object.getKind()) ? null : namespace,
          object.getMetadata().getNamespace(),
          object.getKind() + " " + object.getMetadata().getName());
    }
  }

  /** @return the objects of kind {@code kind} in docs/operations.md's RBAC block */
  private <T extends HasMetadata> List<T> documented(Class<T> kind) throws IOException {
    var readme = Files.readString(ROOT.resolve("docs").resolve("operations.md"));
    var section = readme.indexOf("\n## RBAC\n");
    assertTrue(section > 0, "docs/operations.md has an RBAC section");
    var start = readme.indexOf("```yaml\n", section) + "```yaml\n".length();
    return parse(readme.substring(start, readme.indexOf("```", start))).stream()
        .filter(kind::isInstance)
        .map(kind::cast)
        .toList();
  }

  /**
   * deploy/ grants exactly what docs/operations.md lists, and nothing more: the ClusterRole's rules are the
   * documented ones plus the SchedulingPolicy rules (in any order, none twice), the Lease rights are the documented
   * Role's rules, in the Lease's namespace and for its name only, and each role is bound to the service account
   * alone. {@link #every_manifest_parses_and_names_its_namespace} keeps out any other role or binding.
   */
  @Test
  void the_rbac_is_the_documented_rbac_plus_the_scheduling_policy_verbs() throws IOException {
    var expected = new ArrayList<>(documented(ClusterRole.class).get(0).getRules());
    expected.addAll(CRD_RULES);
    var granted = only(ClusterRole.class).getRules();
    assertEquals(Set.copyOf(expected), Set.copyOf(granted), "the ClusterRole's rules");
    assertEquals(expected.size(), granted.size(), "no rule twice");
    assertTrue(
        granted.stream().noneMatch(r -> r.getResources().contains("leases")), "no lease right cluster-wide");

    var documentedRole = documented(Role.class).get(0);
    var role = only(Role.class);
    var election = deployedOptions().leaderElection().orElseThrow();
    assertEquals(election.leaseNamespace(), role.getMetadata().getNamespace(), "the Role is in the Lease's namespace");
    var lease = election.leaseName().orElseThrow();
    assertEquals(
        documentedRole.getRules().stream().map(r -> withNames(r, lease)).toList(),
        role.getRules(),
        "the documented Lease rules, for the Lease " + lease);
    assertTrue(
        role.getRules().stream()
            .allMatch(r -> r.getVerbs().equals(List.of("create")) || r.getResourceNames().equals(List.of(lease))),
        "every right but create is on the named Lease only");

    var account = only(ServiceAccount.class);
    var binding = only(ClusterRoleBinding.class);
    assertEquals(only(ClusterRole.class).getMetadata().getName(), binding.getRoleRef().getName());
    assertBindsOnly(account, binding.getSubjects());
    var roleBinding = only(RoleBinding.class);
    assertEquals("Role", roleBinding.getRoleRef().getKind());
    assertEquals(role.getMetadata().getName(), roleBinding.getRoleRef().getName());
    assertEquals(role.getMetadata().getNamespace(), roleBinding.getMetadata().getNamespace());
    assertBindsOnly(account, roleBinding.getSubjects());
  }

  /** @return {@code rule} with its resource names, if it has any, replaced by {@code name} */
  private static PolicyRule withNames(PolicyRule rule, String name) {
    return rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
        ? rule
        : new PolicyRuleBuilder(rule).withResourceNames(name).build();
  }

  private static void assertBindsOnly(ServiceAccount account, List<Subject> subjects) {
    assertEquals(1, subjects.size());
    assertEquals("ServiceAccount", subjects.get(0).getKind());
    assertEquals(account.getMetadata().getName(), subjects.get(0).getName());
    assertEquals(account.getMetadata().getNamespace(), subjects.get(0).getNamespace());
  }

  /** @return the server's options from deploy/'s ConfigMap */
  private Options deployedOptions() throws IOException {
    var setup = SchedulerSetup.of(SchedulerConfiguration.parse(deployedConfigText(), "deploy/03-config.yaml"), "deploy");
    return ServerOptions.options(setup, new Options.Connection.InCluster(), SchedulerMetrics.NONE);
  }

  /** @return the configuration file the Deployment's container reads: the ConfigMap's key mounted at --config */
  private String deployedConfigText() throws IOException {
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
    return configMap.getData().get(configPath.getFileName().toString());
  }

  @Test
  void the_config_map_holds_a_configuration_the_server_accepts_with_leader_election() throws IOException {
    var config = SchedulerConfiguration.parse(deployedConfigText(), "deploy/03-config.yaml");
    assertEquals(2, SchedulerSetup.of(config, "deploy").profiles().size(), "two profiles");
    var election = deployedOptions().leaderElection().orElseThrow(() -> new AssertionError("leader election is on"));
    assertEquals(only(ConfigMap.class).getMetadata().getNamespace(), election.leaseNamespace());
    assertEquals(Optional.of("kubesched"), election.leaseName());
  }

  @Test
  void the_deployment_runs_two_locked_down_replicas_with_https_probes_on_the_endpoints() throws IOException {
    var deployment = only(Deployment.class);
    assertEquals(2, deployment.getSpec().getReplicas());
    var pod = deployment.getSpec().getTemplate().getSpec();
    assertEquals(only(ServiceAccount.class).getMetadata().getName(), pod.getServiceAccountName());
    assertEquals(only(PriorityClass.class).getMetadata().getName(), pod.getPriorityClassName());
    assertTrue(only(PriorityClass.class).getValue() < 2_000_000_000, "below the system classes");
    assertTrue(pod.getSecurityContext().getRunAsNonRoot());
    var container = pod.getContainers().get(0);
    assertFalse(container.getSecurityContext().getAllowPrivilegeEscalation());
    assertTrue(container.getSecurityContext().getReadOnlyRootFilesystem());
    assertEquals(List.of("ALL"), container.getSecurityContext().getCapabilities().getDrop());
    assertTrue(container.getResources().getRequests().containsKey("cpu"));
    assertTrue(container.getResources().getRequests().containsKey("memory"));
    var port = container.getPorts().get(0);
    assertEquals(SECURE_PORT, port.getContainerPort());
    assertEquals("https", port.getName());
    assertTrue(container.getArgs().contains("--secure-port=" + SECURE_PORT), container.getArgs().toString());
    for (var probe : List.of(
        Map.entry("/healthz", container.getStartupProbe()),
        Map.entry("/healthz", container.getLivenessProbe()),
        Map.entry("/readyz", container.getReadinessProbe()))) {
      var get = probe.getValue().getHttpGet();
      assertEquals(probe.getKey(), get.getPath());
      assertEquals("HTTPS", get.getScheme());
      assertEquals(port.getName(), get.getPort().getStrVal());
    }
    assertTrue(
        container.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/tmp")),
        "a writable /tmp beside the read-only root");
  }

  @Test
  void a_budget_keeps_one_replica_and_a_service_reaches_every_replicas_https_port() throws IOException {
    var podLabels = only(Deployment.class).getSpec().getTemplate().getMetadata().getLabels();
    var budget = only(PodDisruptionBudget.class);
    assertEquals(1, budget.getSpec().getMinAvailable().getIntVal());
    assertTrue(podLabels.entrySet().containsAll(budget.getSpec().getSelector().getMatchLabels().entrySet()));
    var service = only(Service.class);
    assertTrue(podLabels.entrySet().containsAll(service.getSpec().getSelector().entrySet()));
    var port = service.getSpec().getPorts().get(0);
    assertEquals("https", port.getName());
    assertEquals(SECURE_PORT, port.getPort());
    assertEquals("https", port.getTargetPort().getStrVal());
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
            "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2",
            "-Djdk.tls.client.cipherSuites=" + String.join(",", TLS_CLIENT_CIPHER_SUITES)),
        flags);

    var container = only(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertTrue(container.getResources().getLimits().containsKey("memory"), "a memory limit to size the heap from");
    assertTrue(
        container.getEnv() == null
            || container.getEnv().stream()
                .noneMatch(env -> List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS").contains(env.getName())),
        "no JAVA_TOOL_OPTIONS or JDK_JAVA_OPTIONS beside the image's flags");
  }

  /**
   * The JDK drops a cipher suite it does not know from {@code jdk.tls.client.cipherSuites} without a word, so
   * each of the image's must be one this JDK supports, and enabled by default (none weaker than its defaults).
   */
  @Test
  void the_images_cipher_suites_are_ones_the_jdk_enables_by_default() throws Exception {
    var defaults = List.of(SSLContext.getDefault().getDefaultSSLParameters().getCipherSuites());
    for (var suite : TLS_CLIENT_CIPHER_SUITES) {
      assertTrue(defaults.contains(suite), () -> suite + " is not among the JDK's default cipher suites " + defaults);
    }
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

  /** deploy/monitoring/'s objects, in file order. */
  private List<HasMetadata> monitoring() throws IOException {
    var objects = new ArrayList<HasMetadata>();
    try (Stream<Path> files = Files.list(DEPLOY.resolve("monitoring"))) {
      for (var file : files.sorted().toList()) {
        objects.addAll(parse(Files.readString(file)));
      }
    }
    return objects;
  }

  private static HasMetadata ofKind(List<HasMetadata> objects, String kind) {
    var found = objects.stream().filter(o -> o.getKind().equals(kind)).toList();
    assertEquals(1, found.size(), () -> "one " + kind + " in deploy/monitoring/");
    return found.get(0);
  }

  /**
   * The series the server serves (kube-scheduler's names, docs/operations.md), and {@code up}, which Prometheus
   * adds: what the dashboard and the alerts may query.
   */
  private static final Set<String> SERVED_SERIES =
      Set.of(
          "up",
          "scheduler_schedule_attempts_total",
          "scheduler_pending_pods",
          "scheduler_scheduling_attempt_duration_seconds_bucket",
          "scheduler_pod_scheduling_sli_duration_seconds_bucket",
          "scheduler_framework_extension_point_duration_seconds_bucket",
          "scheduler_preemption_attempts_total",
          "scheduler_preemption_victims_sum",
          "scheduler_preemption_victims_count",
          "scheduler_queue_incoming_pods_total",
          "rest_client_requests_total",
          "process_resident_memory_bytes",
          "process_cpu_seconds_total",
          "jvm_memory_used_bytes",
          "leader_election_master_status",
          "kubesched_build_info");

  private static final Pattern SELECTED_SERIES = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{");

  /**
   * deploy/monitoring/ scrapes deploy/'s Service over HTTPS with a bearer token, grants the scraper get on /metrics
   * and nothing else, and carries the chart's alerts and dashboard unchanged; every series they query is one the
   * server serves, each scoped to the scrape job.
   */
  @Test
  void the_monitoring_objects_scrape_the_service_and_match_the_charts() throws IOException {
    var objects = monitoring();
    assertEquals(
        List.of("ClusterRole", "ClusterRoleBinding", "ServiceMonitor", "PrometheusRule", "ConfigMap"),
        objects.stream().map(HasMetadata::getKind).toList());
    var reader = (ClusterRole) ofKind(objects, "ClusterRole");
    assertEquals(
        List.of(new PolicyRuleBuilder().withNonResourceURLs("/metrics").withVerbs("get").build()), reader.getRules());
    var readerBinding = (ClusterRoleBinding) ofKind(objects, "ClusterRoleBinding");
    assertEquals(reader.getMetadata().getName(), readerBinding.getRoleRef().getName());

    var service = only(Service.class);
    var monitor = (GenericKubernetesResource) ofKind(objects, "ServiceMonitor");
    var spec = (Map<?, ?>) monitor.getAdditionalProperties().get("spec");
    assertEquals(service.getMetadata().getNamespace(), monitor.getMetadata().getNamespace());
    assertTrue(
        service.getMetadata().getLabels().entrySet().containsAll(
            ((Map<?, ?>) ((Map<?, ?>) spec.get("selector")).get("matchLabels")).entrySet()),
        "the ServiceMonitor selects deploy/'s Service");
    var endpoint = (Map<?, ?>) ((List<?>) spec.get("endpoints")).get(0);
    assertEquals(service.getSpec().getPorts().get(0).getName(), endpoint.get("port"));
    assertEquals("https", endpoint.get("scheme"));
    assertEquals("/var/run/secrets/kubernetes.io/serviceaccount/token", endpoint.get("bearerTokenFile"));
    assertEquals(Map.of("insecureSkipVerify", true), endpoint.get("tlsConfig"));

    var rule = (GenericKubernetesResource) ofKind(objects, "PrometheusRule");
    var chartRules = serialization.unmarshal(Files.readString(CHART.resolve("files/prometheus-rules.yaml")), Map.class);
    assertEquals(chartRules, rule.getAdditionalProperties().get("spec"), "the chart's alerts");
    var dashboard = (ConfigMap) ofKind(objects, "ConfigMap");
    var chartDashboard = Files.readString(CHART.resolve("dashboards/kubesched.json"));
    assertEquals(chartDashboard.strip(), dashboard.getData().get("kubesched.json").strip(), "the chart's dashboard");

    var queries = new ArrayList<String>();
    for (var group : (List<?>) chartRules.get("groups")) {
      for (var alert : (List<?>) ((Map<?, ?>) group).get("rules")) {
        queries.add((String) ((Map<?, ?>) alert).get("expr"));
      }
    }
    for (var panel : (List<?>) serialization.unmarshal(chartDashboard, Map.class).get("panels")) {
      var targets = (List<?>) ((Map<?, ?>) panel).get("targets");
      for (var target : targets == null ? List.of() : targets) {
        queries.add((String) ((Map<?, ?>) target).get("expr"));
      }
    }
    assertTrue(queries.size() > 20, "the alerts' and the dashboard's queries: " + queries.size());
    for (var query : queries) {
      var selected = SELECTED_SERIES.matcher(query).results().toList();
      assertFalse(selected.isEmpty(), query);
      for (var series : selected) {
        assertTrue(SERVED_SERIES.contains(series.group(1)), () -> series.group(1) + " is not served: " + query);
        assertTrue(
            query.startsWith("job=", series.end()),
            () -> series.group(1) + " is not scoped to the job: " + query);
      }
    }
  }

  @Test
  void the_crd_is_the_generated_one_unchanged() throws IOException {
    assertEquals(Files.readString(GENERATED_CRD), Files.readString(DEPLOYED_CRD));
    assertEquals(
        Files.readString(GENERATED_CRD), Files.readString(CHART.resolve("files/schedulingpolicies.kubesched.io-v1.yml")));
    var crd = only(CustomResourceDefinition.class);
    assertEquals("kubesched.io", crd.getSpec().getGroup());
    assertEquals("Cluster", crd.getSpec().getScope());
  }
}
