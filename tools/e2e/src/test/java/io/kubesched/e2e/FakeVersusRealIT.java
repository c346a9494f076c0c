package io.kubesched.e2e;

import static io.kubesched.facade.FakeClusterFixture.create;
import static io.kubesched.facade.FakeClusterFixture.eventually;
import static io.kubesched.facade.FakeClusterFixture.node;
import static io.kubesched.facade.FakeClusterFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.facade.Client;
import io.kubesched.facade.FakeClusterFixture;
import io.kubesched.facade.Options;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The fake cluster and the real one place the same deterministic input the same way. */
class FakeVersusRealIT extends RealClusterTest {

  private static final String[][] NODES = {
    {"n-a", "2", "4Gi"}, {"n-b", "4", "8Gi"}, {"n-c", "1", "2Gi"}, {"n-d", "8", "4Gi"}, {"n-e", "3", "16Gi"}
  };
  private static final String[] CPUS = {"100m", "700m", "1500m", "250m", "3", "50m"};
  private static final String[] MEMORIES = {"64Mi", "1Gi", "512Mi", "3Gi", "128Mi"};

  /** Most free CPU after placing, ties by name: deterministic. */
  private static final FinderFunc MOST_FREE_CPU =
      (pod, nodes) -> {
        var fits =
            nodes.stream()
                .filter(n -> n.requested().plus(pod.requests()).milliCpu() <= n.allocatable().milliCpu())
                .filter(n -> n.requested().plus(pod.requests()).memory() <= n.allocatable().memory())
                .max(Comparator.comparingLong((NodeInfo n) -> n.allocatable().milliCpu() - n.requested().milliCpu())
                    .thenComparing(NodeInfo::name, Comparator.reverseOrder()));
        if (fits.isPresent()) {
          return Decision.bind(fits.get().name());
        }
        Map<String, List<String>> reasons = new HashMap<>();
        nodes.forEach(n -> reasons.put(n.name(), List.of("Insufficient resources")));
        return Decision.unschedulable(reasons);
      };

  @Test
  void fake_and_real_mode_give_the_same_placements() {
    var real = place(client, admin, namespace, new FakeClusterFixture.Recorder());
    Map<String, String> fake;
    try (var fakeClient = Client.create(Options.builder().fake().schedulerName(SCHEDULER).build())) {
      fakeClient.kubernetesClient().namespaces().resource(
          new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
      fake = place(fakeClient, fakeClient.kubernetesClient(), namespace, new FakeClusterFixture.Recorder());
    }
    assertEquals(real, fake);
  }

  /** Creates the nodes, then the pods one at a time, each decided before the next; returns pod → node. */
  private static Map<String, String> place(
      Client client, KubernetesClient kube, String namespace, FakeClusterFixture.Recorder recorder) {
    for (var n : NODES) {
      create(kube, node(n[0], n[1], n[2], "110"));
    }
    var placements = new TreeMap<String, String>();
    try (var controller = client.newPodController(MOST_FREE_CPU, recorder)) {
      controller.start();
      for (int i = 0; i < 30; i++) {
        var name = String.format("pod-%02d", i);
        create(kube, pod(namespace, name, SCHEDULER, CPUS[i % CPUS.length], MEMORIES[i % MEMORIES.length]));
        eventually(WAIT, name + " is decided",
            () -> recorder.bound.containsKey(name) || recorder.unschedulable.containsKey(name));
        eventually(WAIT, name + " is in the scheduler's view",
            () -> recorder.unschedulable.containsKey(name)
                || controller.nodes().stream().anyMatch(n -> n.pods().stream().anyMatch(p -> p.name().equals(name))));
      }
    }
    for (int i = 0; i < 30; i++) {
      var name = String.format("pod-%02d", i);
      placements.put(name, FakeClusterFixture.nodeOf(kube, namespace, name));
    }
    return placements;
  }
}
