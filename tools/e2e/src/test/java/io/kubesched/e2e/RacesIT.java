package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.firstFit;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.PodInfo;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Things that happen to a pod or node while the scheduler is deciding. */
class RacesIT extends RealClusterTest {

  private final Map<String, Integer> decisions = new ConcurrentHashMap<>();

  /** The first-fit policy, counting its decisions per pod; {@code hook} may decide a pod first. */
  private FinderFunc counting(Function<PodInfo, Optional<Decision>> hook) {
    var policy = firstFit();
    return (pod, nodes) -> {
      decisions.merge(pod.name(), 1, Integer::sum);
      return hook.apply(pod).orElseGet(() -> policy.find(pod, nodes));
    };
  }

  @Test
  void a_pod_bound_by_someone_else_between_decision_and_bind_stays_there_without_an_error_or_retry()
      throws InterruptedException {
    create(admin, node("node-a", "4", "8Gi", "110"));
    create(admin, node("node-b", "4", "8Gi", "110"));
    Function<PodInfo, Optional<Decision>> bindElsewhereFirst =
        pod -> {
          if (!pod.name().equals("contested")) {
            return Optional.empty();
          }
          admin.bindings().inNamespace(namespace).resource(
                  new BindingBuilder()
                      .withNewMetadata().withName("contested").withNamespace(namespace).endMetadata()
                      .withNewTarget().withKind("Node").withApiVersion("v1").withName("node-b").endTarget()
                      .build())
              .create();
          return Optional.of(Decision.bind("node-a"));
        };
    try (var controller = client.newPodController(counting(bindElsewhereFirst), recorder)) {
      controller.start();
      create(admin, pod(namespace, "contested", SCHEDULER, "100m", "64Mi"));
      create(admin, pod(namespace, "after", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "the next pod is bound", () -> recorder.bound.containsKey("after"));
      Thread.sleep(3000); // long past the backoff: a retry would have happened by now
    }
    assertEquals("node-b", nodeOf("contested"));
    assertEquals(1, decisions.get("contested"), "the contested pod was decided again");
    assertFalse(recorder.bound.containsKey("contested"));
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }

  @Test
  void a_pod_deleted_before_its_bind_is_dropped_without_an_error_or_retry() throws InterruptedException {
    create(admin, node("node-a", "4", "8Gi", "110"));
    Function<PodInfo, Optional<Decision>> deleteFirst =
        pod -> {
          if (!pod.name().equals("doomed")) {
            return Optional.empty();
          }
          admin.pods().inNamespace(namespace).withName("doomed").withGracePeriod(0).delete();
          return Optional.of(Decision.bind("node-a"));
        };
    try (var controller = client.newPodController(counting(deleteFirst), recorder)) {
      controller.start();
      create(admin, pod(namespace, "doomed", SCHEDULER, "100m", "64Mi"));
      create(admin, pod(namespace, "after", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "the next pod is bound", () -> recorder.bound.containsKey("after"));
      Thread.sleep(3000);
    }
    assertNull(admin.pods().inNamespace(namespace).withName("doomed").get());
    assertEquals(1, decisions.get("doomed"));
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }

  @Test
  void pods_queued_when_their_node_is_deleted_go_to_a_node_added_later() {
    create(admin, node("small", "1", "8Gi", "110"));
    create(admin, new NodeBuilder(node("big", "8", "8Gi", "110")).editOrNewSpec().withUnschedulable(true).endSpec().build());
    try (var controller = client.newPodController(counting(pod -> Optional.empty()), recorder)) {
      controller.start();
      for (int i = 0; i < 5; i++) {
        create(admin, pod(namespace, "big-" + i, SCHEDULER, "2", "64Mi"));
      }
      eventually(WAIT, "all five wait", () -> recorder.unschedulable.size() == 5);
      admin.nodes().withName("big").delete();
      eventually(WAIT, "the scheduler no longer sees the deleted node",
          () -> controller.nodes().stream().noneMatch(n -> n.name().equals("big")));
      create(admin, node("big-2", "16", "8Gi", "110"));
      eventually(WAIT, "all five are bound", () -> recorder.bound.size() == 5);
    }
    for (int i = 0; i < 5; i++) {
      assertEquals("big-2", nodeOf("big-" + i));
    }
    assertTrue(recorder.failed.isEmpty(), "failures: " + recorder.failed);
  }
}
