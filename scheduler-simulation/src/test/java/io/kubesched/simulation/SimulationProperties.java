package io.kubesched.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.DefaultPolicy;
import io.kubesched.testkit.Cluster;
import io.kubesched.testkit.KubeArbitraries;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Simulations over the testkit's clusters and pods (resources, selectors, taints, pod affinity and anti-affinity,
 * spread constraints, gates): the capacity answer is what placing that many copies and one more does, and a
 * simulation decides the same way every time.
 */
class SimulationProperties {

  private static final int LIMIT = 25;

  @Provide
  Arbitrary<Cluster> clusters() {
    return KubeArbitraries.clusters().ofSize(0, 6).withTopology();
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return KubeArbitraries.pods().withPlacementConstraints();
  }

  @Property(tries = 300)
  void capacity_is_what_placing_that_many_copies_and_one_more_places(
      @ForAll("clusters") Cluster cluster, @ForAll("pods") PodInfo template, @ForAll long seed) {
    var snapshot = ClusterSnapshot.of(cluster.nodes());
    var policy = DefaultPolicy.builder().seed(seed).build();

    var capacity = Simulation.capacity(snapshot, policy, template, LIMIT);
    var copies = Math.min(capacity.count() + 1, LIMIT);
    var all = Simulation.of(snapshot, policy).withoutPreemption().addPods(template, copies).run();

    assertEquals(capacity.count(), all.placed().size(), capacity.stopReason());
    if (!capacity.limitReached()) {
      var last = (PodOutcome.Pending) all.pods().get(copies - 1);
      assertEquals(capacity.stopReason(), last.message());
    }
    assertEquals(capacity.count(), capacity.perNode().values().stream().mapToInt(Integer::intValue).sum());
    Statistics.label("capacity")
        .collect(capacity.limitReached() ? "limit" : capacity.count() == 0 ? "none" : "some, then stopped");
    Statistics.label("capacity").coverage(c -> {
      // Counts well below what a run reaches (about 250, 36 and 14 of 300), so that chance never fails them.
      c.check("none").count(n -> n > 30);
      c.check("some, then stopped").count(n -> n > 5);
      c.check("limit").count(n -> n > 0);
    });
  }

  @Property(tries = 200)
  void the_same_simulation_decides_the_same_way(
      @ForAll("clusters") Cluster cluster, @ForAll("podLists") List<PodInfo> pods, @ForAll long seed) {
    var snapshot = ClusterSnapshot.of(cluster.nodes());
    var policy = DefaultPolicy.builder().seed(seed).build();

    var first = Simulation.of(snapshot, policy).pods(pods).run();
    var second = Simulation.of(snapshot, policy).pods(pods).run();

    assertEquals(first, second);
    assertEquals(pods.size(), first.pods().size());
    assertTrue(first.attempts() >= pods.size() - first.pending().size());
    Statistics.label("outcomes").collect(
        first.pending().isEmpty() ? "all placed" : first.placed().isEmpty() ? "none placed" : "some placed");
  }

  @Provide
  Arbitrary<List<PodInfo>> podLists() {
    return pods().list().ofMaxSize(12).uniqueElements(PodInfo::uid);
  }
}
