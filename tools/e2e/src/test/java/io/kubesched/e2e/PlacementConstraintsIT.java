package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.kubesched.api.FinderFunc;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.policy.plugins.Scorers;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The placement constraints pods carry themselves — pod affinity and anti-affinity, topology spread,
 * scheduling gates — honoured by {@link DefaultPolicy} on a real API server, and what the library does not
 * implement yet (ResourceClaims) refused with a message naming it. Volumes: {@link VolumesIT}.
 */
class PlacementConstraintsIT extends RealClusterTest {

  private static final String HOSTNAME = "kubernetes.io/hostname";
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final Duration REPORTED = Duration.ofSeconds(20);

  private static Node zonedNode(String name, String zone) {
    return new NodeBuilder(node(name, "4", "8Gi", "110"))
        .editMetadata()
        .withLabels(Map.of(HOSTNAME, name, ZONE, zone))
        .endMetadata()
        .build();
  }

  private Pod labelled(String name, Map<String, String> labels) {
    return new PodBuilder(pod(namespace, name, SCHEDULER, "100m", "64Mi"))
        .editMetadata()
        .withLabels(labels)
        .endMetadata()
        .build();
  }

  private static FinderFunc defaultPolicy() {
    return DefaultPolicy.builder().seed(7).build();
  }

  @Test
  void required_anti_affinity_on_hostname_puts_one_pod_per_node_and_leaves_the_rest_unschedulable() {
    for (int i = 0; i < 4; i++) {
      createReady(zonedNode("node-" + i, "zone-" + (i % 2)));
    }
    var term =
        new PodAffinityTermBuilder()
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build())
            .withTopologyKey(HOSTNAME)
            .build();
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      for (int i = 0; i < 6; i++) {
        create(
            admin,
            new PodBuilder(labelled("web-" + i, Map.of("app", "web")))
                .editSpec()
                .withNewAffinity()
                .withNewPodAntiAffinity()
                .withRequiredDuringSchedulingIgnoredDuringExecution(term)
                .endPodAntiAffinity()
                .endAffinity()
                .endSpec()
                .build());
      }
      eventually(WAIT, "four pods bound and two reported", () -> bound("web-").size() == 4 && unschedulable("web-") == 2);
    }
    var nodes = bound("web-");
    assertEquals(4, Map.copyOf(countByNode(nodes)).size(), "never two on one node: " + nodes);
    var pending = pods("web-").stream().filter(p -> nodeOf(p).isEmpty()).toList();
    assertEquals(2, pending.size());
    for (var pod : pending) {
      eventually(REPORTED, "PodScheduled=False for " + pod, () -> podScheduled(pod).isPresent());
      assertEquals(
          "0/4 nodes are available: 4 node(s) didn't match pod anti-affinity rules."
              + " preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.",
          podScheduled(pod).orElseThrow().getMessage());
      eventually(
          REPORTED,
          "a FailedScheduling event for " + pod,
          () -> eventsAbout(pod).stream().anyMatch(e -> "FailedScheduling".equals(e.getReason())));
    }
  }

  @Test
  void required_affinity_follows_the_first_pod_of_the_group_into_its_zone() {
    for (int i = 0; i < 4; i++) {
      createReady(zonedNode("node-" + i, "zone-" + (i % 2)));
    }
    var term =
        new PodAffinityTermBuilder()
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "cache")).build())
            .withTopologyKey(ZONE)
            .build();
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      for (int i = 0; i < 5; i++) {
        create(
            admin,
            new PodBuilder(labelled("cache-" + i, Map.of("app", "cache")))
                .editSpec()
                .withNewAffinity()
                .withNewPodAffinity()
                .withRequiredDuringSchedulingIgnoredDuringExecution(term)
                .endPodAffinity()
                .endAffinity()
                .endSpec()
                .build());
      }
      eventually(WAIT, "all five bound", () -> bound("cache-").size() == 5);
    }
    var zones = bound("cache-").values().stream().map(n -> n.endsWith("0") || n.endsWith("2") ? "zone-0" : "zone-1").distinct().toList();
    assertEquals(1, zones.size(), "all in one zone: " + bound("cache-"));
  }

  @Test
  void zone_spread_with_max_skew_1_is_exact() {
    createReady(zonedNode("node-a1", "a"));
    createReady(zonedNode("node-a2", "a"));
    createReady(zonedNode("node-a3", "a"));
    createReady(zonedNode("node-b1", "b"));
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      for (int i = 0; i < 6; i++) {
        create(admin, spread("spread-" + i, 1, null));
        int placed = i + 1;
        eventually(WAIT, placed + " bound", () -> bound("spread-").size() == placed);
        var byZone = countByZone(bound("spread-"));
        int a = byZone.getOrDefault("a", 0);
        int b = byZone.getOrDefault("b", 0);
        assertTrue(Math.abs(a - b) <= 1, "skew above 1 after " + placed + " pods: " + byZone);
      }
    }
  }

  @Test
  void min_domains_above_the_zones_there_are_keeps_each_zone_at_one_pod() {
    createReady(zonedNode("node-a1", "a"));
    createReady(zonedNode("node-a2", "a"));
    createReady(zonedNode("node-b1", "b"));
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      for (int i = 0; i < 4; i++) {
        create(admin, spread("min-" + i, 1, 3));
      }
      eventually(WAIT, "two bound and two reported", () -> bound("min-").size() == 2 && unschedulable("min-") == 2);
    }
    assertEquals(Map.of("a", 1, "b", 1), countByZone(bound("min-")));
    var pending = pods("min-").stream().filter(p -> nodeOf(p).isEmpty()).findFirst().orElseThrow();
    eventually(REPORTED, "PodScheduled=False", () -> podScheduled(pending).isPresent());
    assertEquals(
        "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints."
            + " preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
        podScheduled(pending).orElseThrow().getMessage());
  }

  @Test
  void a_gated_pod_is_untouched_until_its_last_gate_is_removed_and_then_bound() throws InterruptedException {
    createReady(zonedNode("node-0", "a"));
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      create(
          admin,
          new PodBuilder(pod(namespace, "gated", SCHEDULER, "100m", "64Mi"))
              .editSpec()
              .addNewSchedulingGate("example.com/quota")
              .addNewSchedulingGate("example.com/data")
              .endSpec()
              .build());
      create(admin, pod(namespace, "free", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "the ungated pod bound", () -> !nodeOf("free").isEmpty());
      Thread.sleep(2_000); // no assertion on timing: only that nothing happens to the gated pod meanwhile
      assertEquals("", nodeOf("gated"));
      // The API server itself marks a gated pod PodScheduled=False/SchedulingGated; the scheduler adds nothing.
      podScheduled("gated").ifPresent(c -> assertEquals("SchedulingGated", c.getReason(), "condition: " + c));
      assertTrue(eventsAbout("gated").isEmpty(), "events about the gated pod: " + eventsAbout("gated"));
      assertTrue(recorder.events.stream().noneMatch(e -> e.endsWith(" gated")), "attempted: " + recorder.events);

      removeGate("gated", "example.com/quota");
      Thread.sleep(1_000);
      assertEquals("", nodeOf("gated"), "bound with one gate left");
      removeGate("gated", "example.com/data");
      eventually(WAIT, "the pod bound once its gates are gone", () -> "node-0".equals(nodeOf("gated")));
    }
  }

  @Test
  void pods_of_a_service_are_spread_by_the_system_default_constraints() {
    for (int i = 0; i < 3; i++) {
      createReady(zonedNode("node-" + i, "zone-" + i));
    }
    admin.services().inNamespace(namespace).resource(
        new ServiceBuilder().withNewMetadata().withName("svc").endMetadata()
            .withNewSpec().withSelector(Map.of("app", "svc")).addNewPort().withPort(80).endPort().endSpec()
            .build()).create();
    // Bin-packing where nothing else counts: without the Service's default spreading all would share a node.
    var packing =
        DefaultPolicy.builder()
            .removeScorer("NodeResourcesLeastAllocated")
            .scorer(Scorers.mostAllocated(), 1)
            .seed(7)
            .build();
    try (var controller = client.newPodController(packing, recorder)) {
      controller.start();
      for (int i = 0; i < 6; i++) {
        create(admin, labelled("svc-" + i, Map.of("app", "svc")));
        int placed = i + 1;
        eventually(WAIT, placed + " bound", () -> bound("svc-").size() == placed);
      }
      for (int i = 0; i < 3; i++) {
        create(admin, labelled("packed-" + i, Map.of("app", "packed")));
        int placed = i + 1;
        eventually(WAIT, placed + " bound", () -> bound("packed-").size() == placed);
      }
    }
    assertEquals(Map.of("node-0", 2, "node-1", 2, "node-2", 2), countByNode(bound("svc-")));
    assertEquals(1, countByNode(bound("packed-")).size(), "without a Service they pack: " + bound("packed-"));
  }

  @Test
  void a_pod_with_a_resource_claim_is_refused_with_a_message_naming_the_feature() {
    createReady(zonedNode("node-0", "a"));
    try (var controller = client.newPodController(defaultPolicy(), recorder)) {
      controller.start();
      create(
          admin,
          new PodBuilder(pod(namespace, "gpu", SCHEDULER, "100m", "64Mi"))
              .editSpec()
              .addNewResourceClaim()
              .withName("gpu")
              .withResourceClaimName("gpu-claim")
              .endResourceClaim()
              .endSpec()
              .build());
      eventually(REPORTED, "PodScheduled=False", () -> podScheduled("gpu").isPresent());
    }
    var message = podScheduled("gpu").orElseThrow().getMessage();
    assertTrue(message.contains("resource claim") || message.contains("ResourceClaim"), message);
    assertEquals("", nodeOf("gpu"));
  }

  private Pod spread(String name, int maxSkew, Integer minDomains) {
    var constraint =
        new TopologySpreadConstraintBuilder()
            .withMaxSkew(maxSkew)
            .withTopologyKey(ZONE)
            .withWhenUnsatisfiable("DoNotSchedule")
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "spread")).build())
            .withMinDomains(minDomains)
            .build();
    return new PodBuilder(labelled(name, Map.of("app", "spread")))
        .editSpec()
        .withTopologySpreadConstraints(constraint)
        .endSpec()
        .build();
  }

  private void removeGate(String pod, String gate) {
    admin.pods().inNamespace(namespace).withName(pod).edit(
        p -> new PodBuilder(p).editSpec()
            .withSchedulingGates(p.getSpec().getSchedulingGates().stream().filter(g -> !gate.equals(g.getName())).toList())
            .endSpec().build());
  }

  /** @return pod name to node, of the pods named {@code prefix…} that are bound */
  private Map<String, String> bound(String prefix) {
    var bound = new TreeMap<String, String>();
    for (var pod : admin.pods().inNamespace(namespace).list().getItems()) {
      var node = pod.getSpec().getNodeName();
      if (pod.getMetadata().getName().startsWith(prefix) && node != null && !node.isEmpty()) {
        bound.put(pod.getMetadata().getName(), node);
      }
    }
    return bound;
  }

  private int unschedulable(String prefix) {
    return (int) recorder.unschedulable.keySet().stream().filter(name -> name.startsWith(prefix)).count();
  }

  private static Map<String, Integer> countByNode(Map<String, String> bound) {
    var counts = new HashMap<String, Integer>();
    bound.values().forEach(node -> counts.merge(node, 1, Integer::sum));
    return counts;
  }

  private Map<String, Integer> countByZone(Map<String, String> bound) {
    var counts = new HashMap<String, Integer>();
    bound.values().forEach(
        node -> counts.merge(admin.nodes().withName(node).get().getMetadata().getLabels().get(ZONE), 1, Integer::sum));
    return counts;
  }
}
