package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.NAMESPACE;
import static io.kubesched.facade.FakeClusterFixture.SCHEDULER;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.fakeOptions;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.nodeOf;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static io.kubesched.facade.FakeClusterFixture.recordNodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.SchedulerException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The whole library, through the facade, against the embedded fake cluster. */
class ControllerOnFakeClusterTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private Client client;
  private final FakeClusterFixture.Recorder recorder = new FakeClusterFixture.Recorder();

  @BeforeEach
  void connect() {
    client = Client.create(fakeOptions());
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  @Test
  void fills_every_node_exactly_binding_each_pod_once() {
    var kube = client.kubernetesClient();
    for (int i = 0; i < 10; i++) {
      create(kube, node("node-" + i, "2", "8Gi", "110"));
    }
    // Every node holds exactly 20 of these pods: any decision that misses an earlier one overcommits.
    var nodesSeen = new ConcurrentHashMap<String, Set<String>>();
    var policy = firstFit();
    var undercounted = new AtomicInteger();
    var decided = new AtomicInteger();
    FinderFunc checkingPolicy =
        (pod, nodes) -> {
          // The contract: every earlier decision is in nodes(), whether its binding is still in
          // flight, done but not yet watched, or watched.
          int placed = nodes.stream().mapToInt(node -> node.pods().size()).sum();
          if (placed != decided.get()) {
            undercounted.incrementAndGet();
          }
          var decision = policy.find(pod, nodes);
          if (decision instanceof Decision.Bind) {
            decided.incrementAndGet();
          }
          return decision;
        };
    try (var watch = kube.pods().inNamespace(NAMESPACE).watch(recordNodes(nodesSeen));
        var controller = client.newPodController(checkingPolicy, recorder)) {
      controller.start();
      for (int i = 0; i < 200; i++) {
        create(kube, pod("pod-" + i, SCHEDULER, "100m", "64Mi"));
      }
      eventually(WAIT, "all 200 pods are bound", () -> recorder.bound.size() == 200);
      eventually(WAIT, "the watch shows all 200 bound", () -> nodesSeen.size() == 200);

      for (int i = 0; i < 200; i++) {
        assertEquals(1, recorder.bound.get("pod-" + i).size(), "pod-" + i + " bound more than once");
        assertEquals(1, nodesSeen.get("pod-" + i).size(), "pod-" + i + " moved between nodes");
      }
      for (var node : controller.nodes()) {
        assertEquals(2000, node.requested().milliCpu(), node.name() + " is not exactly full");
        assertEquals(20, node.pods().size(), node.name());
      }
      assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
      assertEquals(0, undercounted.get(), "decisions that did not see every earlier binding");
    }
  }

  @Test
  void leaves_pods_for_other_schedulers_alone() {
    var kube = client.kubernetesClient();
    create(kube, node("node-0", "4", "8Gi", "110"));
    create(kube, pod("theirs", "someone-else", "100m", "64Mi"));
    create(kube, pod("default-one", "default-scheduler", "100m", "64Mi"));
    try (var controller = client.newPodController(firstFit(), recorder)) {
      controller.start();
      create(kube, pod("ours", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "our pod is bound", () -> !nodeOf(kube, "ours").isEmpty());
      // Pods are taken in the order they arrive: theirs would have been bound before ours.
      create(kube, pod("ours-2", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "our second pod is bound", () -> !nodeOf(kube, "ours-2").isEmpty());
    }
    assertEquals("", nodeOf(kube, "theirs"));
    assertEquals("", nodeOf(kube, "default-one"));
    assertEquals(Set.of("ours", "ours-2"), recorder.bound.keySet());
  }

  @Test
  void keeps_an_unschedulable_pod_pending_until_a_node_it_fits_on_is_added() {
    var kube = client.kubernetesClient();
    create(kube, node("small", "1", "2Gi", "110"));
    try (var controller = client.newPodController(firstFit(), recorder)) {
      controller.start();
      create(kube, pod("big", SCHEDULER, "2", "1Gi"));
      eventually(WAIT, "the pod is reported unschedulable", () -> recorder.unschedulable.containsKey("big"));
      assertEquals("0/1 nodes are available: 1 Insufficient cpu.", recorder.unschedulable.get("big"));
      assertEquals("", nodeOf(kube, "big"));

      create(kube, node("large", "4", "8Gi", "110"));
      eventually(WAIT, "the pod is bound to the new node", () -> nodeOf(kube, "big").equals("large"));
    }
  }

  @Test
  void reports_a_pod_with_a_malformed_quantity_and_goes_on_with_the_others() {
    var kube = client.kubernetesClient();
    create(kube, node("node-0", "4", "8Gi", "110"));
    try (var controller = client.newPodController(firstFit(), recorder)) {
      controller.start();
      create(kube, pod("before", SCHEDULER, "100m", "64Mi"));
      create(kube, pod("broken", SCHEDULER, "12x", "64Mi"));
      create(kube, pod("after", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "the good pods are bound", () -> recorder.bound.keySet().equals(Set.of("before", "after")));
      eventually(WAIT, "the broken pod is reported", () -> recorder.failed.containsKey("default/broken"));
    }
    var error = assertInstanceOf(MalformedObjectException.class, recorder.failed.get("default/broken"));
    assertEquals("pod default/broken", error.object());
    assertEquals("spec.containers[app].resources.requests[cpu]", error.field());
    assertEquals("12x", error.value());
    assertEquals("", nodeOf(kube, "broken"));
  }

  @Test
  void reports_a_policy_that_throws_or_names_an_unknown_node_and_goes_on() {
    var kube = client.kubernetesClient();
    create(kube, node("node-0", "4", "8Gi", "110"));
    var policy = firstFit();
    try (var controller =
        client.newPodController(
            (pod, nodes) -> {
              switch (pod.name()) {
                case "boom" -> throw new IllegalStateException("policy bug");
                case "nowhere" -> {
                  return Decision.bind("no-such-node");
                }
                default -> {
                  return policy.find(pod, nodes);
                }
              }
            },
            recorder)) {
      controller.start();
      create(kube, pod("boom", SCHEDULER, "100m", "64Mi"));
      create(kube, pod("nowhere", SCHEDULER, "100m", "64Mi"));
      create(kube, pod("fine", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "the good pod is bound", () -> recorder.bound.containsKey("fine"));
      eventually(
          WAIT,
          "both bad decisions are reported",
          () -> recorder.failed.containsKey("default/boom") && recorder.failed.containsKey("default/nowhere"));
    }
    assertTrue(recorder.failed.get("default/boom").getMessage().contains("policy bug"));
    assertTrue(recorder.failed.get("default/nowhere").getMessage().contains("'no-such-node'"));
    assertInstanceOf(SchedulerException.class, recorder.failed.get("default/nowhere"));
    assertEquals("", nodeOf(kube, "boom"));
    assertEquals("", nodeOf(kube, "nowhere"));
  }

  @Test
  void lists_nodes_with_the_pods_bound_to_them() {
    var kube = client.kubernetesClient();
    create(kube, node("node-0", "4", "8Gi", "110"));
    try (var controller = client.newPodController(firstFit(), recorder)) {
      controller.start();
      create(kube, pod("a", SCHEDULER, "250m", "64Mi"));
      create(kube, pod("b", SCHEDULER, "500m", "64Mi"));
      eventually(WAIT, "both pods are bound", () -> recorder.bound.size() == 2);
    }
    eventually(WAIT, "the API shows both bound", () -> client.listNodeInfos().get(0).pods().size() == 2);
    var node = client.listNodeInfos().get(0);
    assertEquals("node-0", node.name());
    assertEquals(750, node.requested().milliCpu());
    assertEquals(4000, node.allocatable().milliCpu());
  }
}
