package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static io.kubesched.facade.FakeClusterFixture.recordNodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingConstants;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SchedulingIT extends RealClusterTest {

  @Test
  void binds_many_pods_to_nodes_that_fit_none_twice_and_leaves_other_schedulers_pods_alone() {
    for (int i = 0; i < 5; i++) {
      create(admin, node("node-" + i, "2", "8Gi", "110"));
    }
    create(admin, pod(namespace, "theirs", "someone-else", "100m", "64Mi"));
    create(admin, pod(namespace, "default-scheduled", SchedulingConstants.KUBE_SCHEDULER_NAME, "100m", "64Mi"));
    var nodesSeen = new ConcurrentHashMap<String, Set<String>>();
    try (var watch = admin.pods().inNamespace(namespace).watch(recordNodes(nodesSeen));
        var controller = client.newPodController(firstFit(), recorder)) {
      controller.start();
      // 5 nodes x 2 CPU hold exactly 100 pods of 100m: a decision that misses an earlier one overcommits.
      for (int i = 0; i < 100; i++) {
        create(admin, pod(namespace, "pod-" + i, SCHEDULER, "100m", "64Mi"));
      }
      eventually(WAIT, "all 100 pods are bound", () -> recorder.bound.size() == 100);
      eventually(WAIT, "the watch shows all 100 bound", () -> nodesSeen.size() == 100);
      eventually(
          WAIT,
          "every node is full in the scheduler's view",
          () -> controller.nodes().stream().allMatch(n -> n.requested().milliCpu() == 2000));
    }
    for (int i = 0; i < 100; i++) {
      assertEquals(1, recorder.bound.get("pod-" + i).size(), "pod-" + i + " bound more than once");
      assertEquals(1, nodesSeen.get("pod-" + i).size(), "pod-" + i + " was seen on two nodes");
    }
    var perNode = admin.pods().inNamespace(namespace).list().getItems().stream()
        .filter(p -> p.getSpec().getNodeName() != null)
        .collect(Collectors.groupingBy(p -> p.getSpec().getNodeName(), Collectors.counting()));
    assertEquals(Map.of("node-0", 20L, "node-1", 20L, "node-2", 20L, "node-3", 20L, "node-4", 20L), perNode);
    assertEquals("", nodeOf("theirs"));
    assertEquals("", nodeOf("default-scheduled"));
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }

  @Test
  void the_field_selectors_filter_on_the_server() {
    create(admin, node("node-0", "4", "8Gi", "110"));
    create(admin, pod(namespace, "pending-ours", SCHEDULER, "100m", "64Mi"));
    create(admin, pod(namespace, "pending-theirs", "someone-else", "100m", "64Mi"));
    createBound("running", "Running");
    createBound("succeeded", "Succeeded");
    createBound("failed", "Failed");

    var pods = admin.pods().inNamespace(namespace);
    assertEquals(
        Set.of("pending-ours", "pending-theirs", "running"),
        names(pods.withoutField(SchedulingConstants.FIELD_PHASE, "Succeeded")
            .withoutField(SchedulingConstants.FIELD_PHASE, "Failed").list().getItems()));
    assertEquals(
        Set.of("pending-ours"),
        names(pods.withField(SchedulingConstants.FIELD_SCHEDULER_NAME, SCHEDULER).list().getItems()));
    assertEquals(
        Set.of("pending-ours", "pending-theirs"),
        names(pods.withField(SchedulingConstants.FIELD_NODE_NAME, "").list().getItems()));

    // The scheduler's own view, built from those selectors: finished pods take nothing on their node.
    NodeInfo node = client.listNodeInfos().get(0);
    assertEquals(Set.of("running"), node.pods().stream().map(PodInfo::name).collect(Collectors.toSet()));
    assertEquals(100, node.requested().milliCpu());
  }

  private void createBound(String name, String phase) {
    var pod = new PodBuilder(pod(namespace, name, "someone-else", "100m", "64Mi"))
        .editSpec().withNodeName("node-0").endSpec()
        .build();
    create(admin, pod);
    var current = admin.pods().inNamespace(namespace).withName(name).get();
    admin.pods().inNamespace(namespace).resource(
            new PodBuilder(current).editOrNewStatus().withPhase(phase).endStatus().build())
        .updateStatus();
  }

  private static Set<String> names(List<Pod> pods) {
    var names = new HashSet<String>();
    pods.forEach(p -> names.add(p.getMetadata().getName()));
    return names;
  }
}
