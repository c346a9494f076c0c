package io.kubesched.facade;

import static io.kubesched.facade.FakeClusterFixture.NAMESPACE;
import static io.kubesched.facade.FakeClusterFixture.SCHEDULER;
import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.nodeOf;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Controller#replacePolicy} through the facade, against the embedded fake cluster. */
class PolicyReplacementOnFakeClusterTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private final FakeClusterFixture.Recorder recorder = new FakeClusterFixture.Recorder();
  private Client client;

  @AfterEach
  void disconnect() {
    if (client != null) {
      client.close();
    }
  }

  /** @return a policy that places every pod on {@code node}, and finds no node where there is none of that name */
  private static FinderFunc only(String node) {
    return (pod, nodes) -> {
      var reasons = new TreeMap<String, List<String>>();
      for (var n : nodes) {
        if (n.name().equals(node)) {
          return Decision.bind(node);
        }
        reasons.put(n.name(), List.of("node(s) were not " + node));
      }
      return Decision.unschedulable(reasons);
    };
  }

  /** A policy that places a pod on the node its namespace's {@code node} label names. */
  private static final FinderFunc BY_NAMESPACE_LABEL =
      new FinderFunc() {
        @Override
        public Decision find(PodInfo pod, List<NodeInfo> nodes) {
          throw new AssertionError("the controller calls find(pod, snapshot)");
        }

        @Override
        public Decision find(PodInfo pod, ClusterSnapshot cluster) {
          var node = cluster.namespaceLabels(pod.namespace()).get("node");
          return node == null ? Decision.unschedulable(Map.of()) : Decision.bind(node);
        }

        @Override
        public Set<ClusterData> reads() {
          return Set.of(ClusterData.NAMESPACES);
        }
      };

  @Test
  void a_running_controller_places_the_next_pods_with_the_new_policy_and_retries_the_waiting_ones() {
    client = Client.create(FakeClusterFixture.fakeOptions());
    var kube = client.kubernetesClient();
    create(kube, node("a", "4", "8Gi", "110"));
    create(kube, node("b", "4", "8Gi", "110"));
    try (var controller = client.newPodController(only("a"), recorder)) {
      controller.start();
      create(kube, pod("first", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "first is bound", () -> nodeOf(kube, "first").equals("a"));
      controller.replacePolicy(SCHEDULER, only("c"));
      create(kube, pod("waiting", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "waiting is unschedulable", () -> recorder.unschedulable.containsKey("waiting"));

      controller.replacePolicy(SCHEDULER, only("b"));
      create(kube, pod("second", SCHEDULER, "100m", "64Mi"));

      // No cluster event helps "waiting" (its unschedulable timeout is 5 min): only the replacement moves it.
      eventually(WAIT, "waiting and second are bound", () -> recorder.bound.size() == 3);
      assertEquals("b", nodeOf(kube, "second"));
      assertEquals("b", nodeOf(kube, "waiting"));
      assertEquals("a", nodeOf(kube, "first"));
      recorder.bound.forEach((pod, nodes) -> assertEquals(1, nodes.size(), pod + " bound more than once"));
    }
  }

  @Test
  void a_replacement_may_read_what_the_watch_option_watches_from_the_start() {
    client =
        Client.create(
            Options.builder().fake().schedulerName(SCHEDULER).watch(Set.of(ClusterData.NAMESPACES)).build());
    var kube = client.kubernetesClient();
    create(kube, node("a", "4", "8Gi", "110"));
    create(kube, node("b", "4", "8Gi", "110"));
    var namespace =
        new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).addToLabels("node", "b").endMetadata().build();
    kube.namespaces().resource(namespace).createOr(NonDeletingOperation::update);
    try (var controller = client.newPodController(only("a"), recorder)) {
      controller.start();

      controller.replacePolicy(SCHEDULER, BY_NAMESPACE_LABEL);
      create(kube, pod("p", SCHEDULER, "100m", "64Mi"));

      eventually(WAIT, "p is bound", () -> recorder.bound.containsKey("p"));
      assertEquals("b", nodeOf(kube, "p"), "the namespaces were watched and in the snapshot");
    }
  }

  @Test
  void a_replacement_reading_what_is_not_watched_or_for_an_unknown_profile_is_refused_and_scheduling_goes_on() {
    client = Client.create(FakeClusterFixture.fakeOptions());
    var kube = client.kubernetesClient();
    create(kube, node("a", "4", "8Gi", "110"));
    try (var controller =
        client.newPodController(Map.of(SCHEDULER, only("a"), "other-scheduler", only("a")), recorder)) {
      var unwatched =
          assertThrows(ConfigurationException.class, () -> controller.replacePolicy(SCHEDULER, BY_NAMESPACE_LABEL));
      assertTrue(unwatched.getMessage().contains("reads [NAMESPACES]"), unwatched.getMessage());
      assertTrue(unwatched.getMessage().contains("Options.Builder#watch"), unwatched.getMessage());
      var unknown = assertThrows(ConfigurationException.class, () -> controller.replacePolicy("nobody", only("a")));
      assertEquals(
          "schedulerName 'nobody' is not a profile of this controller; its profiles are [other-scheduler, "
              + SCHEDULER + "]",
          unknown.getMessage());

      controller.start();
      create(kube, pod("p", SCHEDULER, "100m", "64Mi"));
      eventually(WAIT, "p is bound with the policy kept", () -> nodeOf(kube, "p").equals("a"));
    }
  }
}
