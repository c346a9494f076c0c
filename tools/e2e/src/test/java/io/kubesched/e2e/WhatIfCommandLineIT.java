package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code kubesched-server simulate} (issue 47, item 3) on the real API server, run as the jar is run, as an identity
 * that may only get, list and watch (every write it tried would be refused): its capacity answer is what
 * kube-scheduler then places, its drain answer is what the Eviction API and kube-scheduler then do, and its
 * placements under a candidate configuration are what a scheduler with that configuration then does. (No kubelet
 * runs: pods stay in phase Pending unless a test sets their status.)
 */
class WhatIfCommandLineIT extends RealClusterTest {

  private static final String READER = "whatif-reader";
  private static final String CONFIG = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

  private Path dir;
  private Path kubeconfig;

  @BeforeEach
  void reader() throws IOException {
    dir = Files.createDirectories(Path.of("target", "whatif-cli-it", namespace).toAbsolutePath());
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder()
        .withNewMetadata().withName(READER).endMetadata()
        .withRules(new PolicyRuleBuilder().withApiGroups("*").withResources("*").withVerbs("get", "list", "watch")
            .build())
        .build()).serverSideApply();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder()
        .withNewMetadata().withName(READER + "-" + namespace).endMetadata()
        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", READER)
        .addNewSubject().withKind("ServiceAccount").withName(READER).withNamespace(namespace).endSubject()
        .build()).serverSideApply();
    var token = SecureServingFixture.token(admin, namespace, READER);
    kubeconfig = dir.resolve("reader.kubeconfig");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters: [{name: e2e, cluster: {server: "%s", insecure-skip-tls-verify: true}}]
        users: [{name: reader, user: {token: "%s"}}]
        contexts: [{name: e2e, context: {cluster: e2e, user: reader}}]
        current-context: e2e
        """.formatted(admin.getConfiguration().getMasterUrl(), token));
    var reader = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
        .withConfig(io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(kubeconfig))).build();
    try (reader) {
      var forbidden = org.junit.jupiter.api.Assertions.assertThrows(
          io.fabric8.kubernetes.client.KubernetesClientException.class,
          () -> reader.resource(pod(namespace, "probe", "nobody", "1m", "1Mi")).create());
      assertEquals(403, forbidden.getCode(), "the reader may not write");
    }
  }

  @AfterEach
  void unbind() {
    admin.rbac().clusterRoleBindings().withName(READER + "-" + namespace).delete();
  }

  @Test
  void capacity_on_the_command_line_is_what_kube_scheduler_then_places() throws Exception {
    createReady(FakeClusterFixture.node("node-a", "2", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "1500m", "8Gi", "110"));
    create(admin, new PodBuilder(pod(namespace, "filler", "other-scheduler", "300m", "1Gi"))
        .editSpec().withNodeName("node-a").endSpec().build());
    var template = dir.resolve("copy.yaml");
    Files.writeString(template, Serialization.asYaml(pod(namespace, "copy", KubeSchedulerProcess.NAME, "400m", "128Mi")));

    var answer = simulateJson("capacity", "--pod", template.toString());

    assertEquals(7, answer.get("count").asInt(), answer.toString());
    assertEquals(4, answer.get("perNode").get("node-a").asInt(), answer.toString());
    assertEquals(3, answer.get("perNode").get("node-b").asInt(), answer.toString());
    var stopReason = answer.get("stopReason").asString();
    try (var kubeScheduler = KubeSchedulerProcess.startFor(cluster, "kube-scheduler-what-if-cli")) {
      for (int i = 1; i <= 9; i++) {
        create(admin, pod(namespace, "copy-" + i, KubeSchedulerProcess.NAME, "400m", "128Mi"));
      }
      eventually(WAIT, "every copy is bound or found no node", () -> pods("copy-").stream()
          .allMatch(n -> !nodeOf(n).isEmpty() || podScheduled(n).map(c -> "False".equals(c.getStatus())).orElse(false)));
      assertEquals(7, pods("copy-").stream().filter(n -> !nodeOf(n).isEmpty()).count());
      var unplaced = pods("copy-").stream().filter(n -> nodeOf(n).isEmpty()).toList();
      var message = podScheduled(unplaced.get(0)).orElseThrow().getMessage();
      assertTrue(message.startsWith(stopReason.split(" preemption:")[0]), message + " vs " + stopReason);
    }
  }

  /**
   * node-b holds mover (owned, no budget) and guarded (owned, under a PodDisruptionBudget that allows no
   * disruption); node-a has room for mover only. The answer: mover goes to node-a, guarded cannot move for its
   * budget. Then for real: the Eviction API refuses guarded and evicts mover, and kube-scheduler places mover's
   * replacement on node-a once node-b is cordoned.
   */
  @Test
  void drain_on_the_command_line_is_what_the_eviction_api_and_kube_scheduler_then_do() throws Exception {
    createReady(FakeClusterFixture.node("node-a", "1", "8Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "2", "8Gi", "110"));
    var owner = admin.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder()
        .withNewMetadata().withName("owner").withNamespace(namespace).endMetadata().build()).create();
    for (var name : List.of("mover", "guarded")) {
      create(admin, new PodBuilder(pod(namespace, name, "other-scheduler", "600m", "128Mi"))
          .editMetadata().addToLabels("app", name).addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap")
          .withName("owner").withUid(owner.getMetadata().getUid()).withController(true).endOwnerReference()
          .endMetadata()
          .editSpec().withNodeName("node-b").endSpec().build());
    }
    // Running and ready, as on a node with a kubelet: the Eviction API lets a pod not yet running past its budget.
    admin.pods().inNamespace(namespace).withName("guarded").editStatus(p -> new PodBuilder(p).editOrNewStatus()
        .withPhase("Running").addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build());
    admin.policy().v1().podDisruptionBudget().inNamespace(namespace).resource(new PodDisruptionBudgetBuilder()
        .withNewMetadata().withName("guard").withNamespace(namespace).endMetadata()
        .withNewSpec().withMinAvailable(new IntOrString(1)).withNewSelector().addToMatchLabels("app", "guarded")
        .endSelector().endSpec().build()).create();
    eventually(WAIT, "the disruption controller counts guarded as healthy", () -> {
      var status = admin.policy().v1().podDisruptionBudget().inNamespace(namespace).withName("guard").get().getStatus();
      return status != null && status.getCurrentHealthy() != null && status.getCurrentHealthy() == 1;
    });

    var answer = simulateJson("drain", "node-b");

    assertFalse(answer.get("drainable").asBoolean(), answer.toString());
    var moves = new java.util.HashMap<String, JsonNode>();
    answer.get("moves").forEach(m -> moves.put(m.get("pod").asString(), m));
    assertEquals("node-a", moves.get(namespace + "/mover").get("to").asString(), answer.toString());
    assertTrue(moves.get(namespace + "/guarded").get("to").isNull(), answer.toString());
    assertTrue(moves.get(namespace + "/guarded").get("reason").asString().contains("guard"), answer.toString());

    admin.nodes().withName("node-b").edit(n -> new io.fabric8.kubernetes.api.model.NodeBuilder(n)
        .editOrNewSpec().withUnschedulable(true).endSpec().build());
    assertFalse(evict("guarded"), "the budget refuses guarded's eviction");
    assertTrue(evict("mover"), "mover is evicted");
    try (var kubeScheduler = KubeSchedulerProcess.startFor(cluster, "kube-scheduler-what-if-drain")) {
      create(admin, new PodBuilder(pod(namespace, "mover-2", KubeSchedulerProcess.NAME, "600m", "128Mi")).build());
      eventually(WAIT, "mover's replacement is bound", () -> !nodeOf("mover-2").isEmpty());
      assertEquals("node-a", nodeOf("mover-2"));
    }
  }

  /**
   * Two nodes whose CPU and memory are in the same proportion (so that balanced allocation scores them alike): the
   * default profile spreads two pods onto the larger node, a candidate scoring most allocated packs them onto the
   * smaller. The command line sets the two side by side; then a controller with the candidate configuration places
   * the pods where the candidate column said.
   */
  @Test
  void a_candidate_policy_on_the_command_line_is_what_a_scheduler_with_it_then_does() throws Exception {
    createReady(FakeClusterFixture.node("node-a", "8", "16Gi", "110"));
    createReady(FakeClusterFixture.node("node-b", "2", "4Gi", "110"));
    var current = Files.writeString(dir.resolve("current.yaml"), CONFIG + "profiles: [{schedulerName: " + SCHEDULER
        + "}]\n");
    var candidate = Files.writeString(dir.resolve("candidate.yaml"), CONFIG + "profiles:\n- schedulerName: "
        + SCHEDULER + "\n  pluginConfig:\n  - name: NodeResourcesFit\n"
        + "    args: {scoringStrategy: {type: MostAllocated}}\n");
    var pods = List.of(pod(namespace, "batch-1", SCHEDULER, "500m", "1Gi"),
        pod(namespace, "batch-2", SCHEDULER, "500m", "1Gi"));
    var batch = dir.resolve("batch.yaml");
    Files.writeString(batch, String.join("\n---\n",
        pods.stream().map(p -> Serialization.asYaml(p).replaceFirst("^---\n", "")).toList()));

    var answer = simulateJson("pods", "--no-pending", "-f", batch.toString(), "--config", current.toString(),
        "--candidate-config", candidate.toString());

    var simulated = new java.util.TreeMap<String, String>();
    answer.get("candidate").get("pods").forEach(p -> simulated.put(p.get("pod").asString(), p.get("node").asString()));
    var spread = new java.util.TreeMap<String, String>();
    answer.get("current").get("pods").forEach(p -> spread.put(p.get("pod").asString(), p.get("node").asString()));
    assertEquals(java.util.Map.of(namespace + "/batch-1", "node-a", namespace + "/batch-2", "node-a"), spread,
        answer.toString());
    assertEquals(java.util.Map.of(namespace + "/batch-1", "node-b", namespace + "/batch-2", "node-b"), simulated,
        answer.toString());
    assertEquals(2, answer.get("differences").size(), answer.toString());
    var profiles = SchedulerSetup.of(SchedulerConfiguration.read(candidate), "candidate").profiles();
    try (var controller = client.newPodController(profiles, recorder)) {
      controller.start();
      for (var pod : pods) {
        create(admin, pod);
        var name = pod.getMetadata().getName();
        eventually(WAIT, name + " is bound", () -> !nodeOf(name).isEmpty());
      }
      for (var pod : pods) {
        var name = pod.getMetadata().getName();
        assertEquals(simulated.get(namespace + "/" + name), nodeOf(name), name);
      }
    }
  }

  private boolean evict(String name) {
    return admin.pods().inNamespace(namespace).withName(name).evict(new io.fabric8.kubernetes.api.model.policy.v1
        .EvictionBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withDeleteOptions(new io.fabric8.kubernetes.api.model.DeleteOptionsBuilder().withGracePeriodSeconds(0L).build())
        .build());
  }

  /** Runs {@code kubesched-server simulate ARGS -o json} as the reader, and reads its answer. */
  private JsonNode simulateJson(String... args) throws IOException, InterruptedException {
    var jar = Path.of(System.getProperty("kubesched.serverJar", "../../scheduler-server/target/kubesched-server.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: build scheduler-server first");
    var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        jar.toString(), "simulate"));
    command.addAll(List.of(args));
    command.addAll(List.of("--kubeconfig", kubeconfig.toString(), "-o", "json"));
    var out = dir.resolve(args[0] + ".json");
    var err = dir.resolve(args[0] + ".err");
    var process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(process.waitFor(2, TimeUnit.MINUTES), "simulate did not exit");
    assertEquals(0, process.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
    return JsonMapper.builder().build().readTree(Files.readString(out, StandardCharsets.UTF_8));
  }
}
