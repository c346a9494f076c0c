package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.NAMESPACE;
import static io.kubesched.facade.FakeClusterFixture.SCHEDULER;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.nodeOf;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.policy.Explanation;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.Scorers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Controller#explain} through the facade, against the embedded fake cluster, while the loop runs. */
class ExplainOnFakeClusterTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String PLAIN = "plain-scheduler";

  private final FakeClusterFixture.Recorder recorder = new FakeClusterFixture.Recorder();
  private Client client;

  @AfterEach
  void disconnect() {
    if (client != null) {
      client.close();
    }
  }

  private static Policy fit() {
    return Policy.builder()
        .filter(Filters.nodeUnschedulable())
        .filter(Filters.resourcesFit())
        .scorer(Scorers.leastAllocated(), 1)
        .seed(42)
        .build();
  }

  /** Never places anything: a plain function, which cannot explain itself. */
  private static final FinderFunc NOWHERE = (pod, nodes) -> Decision.unschedulable(Map.of());

  private static String rejection(Explanation explanation, String node) {
    var filters = explanation.node(node).orElseThrow().filters();
    var last = filters.get(filters.size() - 1);
    var rejected = assertInstanceOf(FilterResult.Rejected.class, last.result(), node + ": " + filters);
    return last.filter() + ": " + String.join(", ", rejected.reasons().stream().map(Reason::message).toList());
  }

  @Test
  void a_pending_pod_is_explained_on_the_nodes_the_next_decision_sees_with_the_policy_its_profile_has_now() {
    client = Client.create(FakeClusterFixture.fakeOptions());
    var kube = client.kubernetesClient();
    create(kube, node("a", "1", "4Gi", "110"));
    create(kube, node("b", "2", "4Gi", "110"));
    try (var controller = client.newPodController(Map.of(SCHEDULER, fit(), PLAIN, NOWHERE), recorder)) {
      controller.start();
      create(kube, pod("filler", SCHEDULER, "1500m", "64Mi"));
      eventually(WAIT, "filler is bound", () -> nodeOf(kube, "filler").equals("b"));
      create(kube, pod("waiting", SCHEDULER, "1200m", "64Mi"));
      eventually(WAIT, "waiting is unschedulable", () -> recorder.unschedulable.containsKey("waiting"));

      var explained = assertInstanceOf(PodExplanation.Single.class, controller.explain(NAMESPACE, "waiting").get());

      assertEquals(NAMESPACE + "/waiting", explained.pod());
      assertEquals(SCHEDULER, explained.profile());
      assertEquals(List.of(), explained.notes());
      var explanation = explained.explanation();
      assertInstanceOf(Decision.Unschedulable.class, explanation.decision());
      assertEquals("NodeResourcesFit: Insufficient cpu", rejection(explanation, "a"));
      assertEquals(
          "NodeResourcesFit: Insufficient cpu", rejection(explanation, "b"), "filler's 1500m on b is counted");
      assertEquals(
          "pod " + NAMESPACE + "/waiting (profile " + SCHEDULER + ")\n" + explanation.toTable(),
          explained.toTable());

      // The policy as it is now: one that rejects by label, which the pod still fits nowhere under.
      controller.replacePolicy(
          SCHEDULER, Policy.builder().filter(Filters.labelPresence(List.of("gpu"), true)).seed(42).build());
      var now = (PodExplanation.Single) controller.explain(NAMESPACE, "waiting").get();
      assertTrue(rejection(now.explanation(), "a").startsWith("NodeLabel: "), now.toTable());
    }
  }

  @Test
  void bound_plain_function_gated_unknown_and_foreign_pods_are_told_apart() {
    client = Client.create(FakeClusterFixture.fakeOptions());
    var kube = client.kubernetesClient();
    create(kube, node("a", "4", "4Gi", "110"));
    try (var controller = client.newPodController(Map.of(SCHEDULER, fit(), PLAIN, NOWHERE), recorder)) {
      assertThrows(IllegalStateException.class, () -> controller.explain(NAMESPACE, "bound"), "not started");
      controller.start();
      create(kube, pod("bound", SCHEDULER, "100m", "64Mi"));
      create(kube, pod("plain", PLAIN, "100m", "64Mi"));
      create(kube, pod("foreign", "default-scheduler", "100m", "64Mi"));
      var gated = new PodBuilder(pod("gated", SCHEDULER, "100m", "64Mi"))
          .editSpec().addNewSchedulingGate("example.com/wait").endSpec().build();
      create(kube, gated);
      eventually(WAIT, "bound is bound", () -> nodeOf(kube, "bound").equals("a"));
      eventually(WAIT, "plain is unschedulable", () -> recorder.unschedulable.containsKey("plain"));

      var bound = assertInstanceOf(PodExplanation.Unexplained.class, explainSoon(controller, "bound"));
      assertEquals("it is bound to node a; only a pod waiting for a node is explained", bound.reason());

      var plain = assertInstanceOf(PodExplanation.Unexplained.class, controller.explain(NAMESPACE, "plain").get());
      assertEquals(PLAIN, plain.profile());
      assertTrue(plain.reason().startsWith("the policy of profile " + PLAIN + " is a plain FinderFunc ("),
          plain.reason());
      assertTrue(plain.toTable().endsWith("not explained: " + plain.reason() + "\n"), plain.toTable());

      var gatedExplained =
          assertInstanceOf(PodExplanation.Single.class, explainSoon(controller, "gated"));
      assertEquals(
          List.of("scheduling gates [example.com/wait] hold it: it is not tried until the last is removed"),
          gatedExplained.notes());
      assertInstanceOf(Decision.Bind.class, gatedExplained.explanation().decision(), "it would fit on a");
      assertTrue(gatedExplained.toTable().contains("\nnote: scheduling gates"), gatedExplained.toTable());

      assertEquals(Optional.empty(), controller.explain(NAMESPACE, "foreign"), "another scheduler's pod");
      assertEquals(Optional.empty(), controller.explain(NAMESPACE, "nobody"));
      assertEquals(Optional.empty(), controller.explain("elsewhere", "bound"));
    }
  }

  @Test
  void explaining_from_several_threads_while_the_loop_schedules_changes_nothing_it_decides() throws Exception {
    client = Client.create(FakeClusterFixture.fakeOptions());
    var kube = client.kubernetesClient();
    create(kube, node("a", "2", "4Gi", "110"));
    create(kube, node("b", "2", "4Gi", "110"));
    ExecutorService callers = Executors.newFixedThreadPool(4);
    try (var controller = client.newPodController(Map.of(SCHEDULER, fit()), recorder)) {
      controller.start();
      create(kube, pod("never", SCHEDULER, "3", "64Mi"));
      var errors = new CopyOnWriteArrayList<Throwable>();
      var calls = new ArrayList<CompletableFuture<Void>>();
      for (int t = 0; t < 4; t++) {
        calls.add(CompletableFuture.runAsync(() -> {
          for (int i = 0; i < 50; i++) {
            try {
              controller.explain(NAMESPACE, "never");
              controller.explain(NAMESPACE, "p" + (i % 10));
            } catch (RuntimeException e) {
              errors.add(e);
            }
          }
        }, callers));
      }
      for (int i = 0; i < 10; i++) {
        create(kube, pod("p" + i, SCHEDULER, "300m", "64Mi"));
      }
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
      eventually(WAIT, "the ten pods are bound", () -> recorder.bound.size() == 10);

      assertEquals(List.of(), errors);
      recorder.bound.forEach((pod, nodes) -> assertEquals(1, nodes.size(), pod + " bound more than once"));
      var never = (PodExplanation.Single) controller.explain(NAMESPACE, "never").get();
      assertEquals("NodeResourcesFit: Insufficient cpu", rejection(never.explanation(), "a"));
      assertEquals("NodeResourcesFit: Insufficient cpu", rejection(never.explanation(), "b"));
    } finally {
      callers.shutdownNow();
    }
  }

  /**
   * The controller's watch may not have shown the pod yet, nor its binding (the API server answers with the node
   * before the watch tells the loop, which says "being bound" until then): its explanation, once that is settled.
   */
  private static PodExplanation explainSoon(Controller controller, String name) {
    var found = new PodExplanation[1];
    eventually(WAIT, name + " is explained", () -> {
      var explained = controller.explain(NAMESPACE, name);
      if (explained.isEmpty()
          || explained.get() instanceof PodExplanation.Unexplained u
              && (u.reason().contains("not in this scheduler") || u.reason().startsWith("it is being bound"))) {
        return false;
      }
      found[0] = explained.get();
      return true;
    });
    return found[0];
  }
}
