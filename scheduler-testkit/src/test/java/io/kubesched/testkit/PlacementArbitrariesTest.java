package io.kubesched.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Owner;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WorkloadSelector;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PlacementArbitrariesTest {

  private static final int SAMPLES = 300;

  private static final Predicate<PodInfo> HAS_AFFINITY = pod -> !pod.podAffinity().isEmpty();
  private static final Predicate<PodInfo> HAS_ANTI_AFFINITY = pod -> !pod.podAntiAffinity().isEmpty();
  private static final Predicate<PodInfo> HAS_SPREAD = pod -> !pod.topologySpreadConstraints().isEmpty();
  private static final Predicate<PodInfo> IS_GATED = pod -> !pod.schedulingGates().isEmpty();
  private static final List<Predicate<PodInfo>> CONSTRAINTS =
      List.of(HAS_AFFINITY, HAS_ANTI_AFFINITY, HAS_SPREAD, IS_GATED);

  @Test
  void pods_without_an_option_carry_no_inter_pod_constraint_and_an_option_leaves_them_so() {
    var plain = KubeArbitraries.pods();
    var constrained = plain.withPlacementConstraints();

    var plainPods = plain.sampleStream().limit(SAMPLES).toList();
    var constrainedPods = constrained.sampleStream().limit(SAMPLES).toList();

    for (var constraint : CONSTRAINTS) {
      assertTrue(plainPods.stream().noneMatch(constraint), () -> "a plain pod has a constraint: " + plainPods);
      assertTrue(constrainedPods.stream().anyMatch(constraint), "no constrained pod has a constraint");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void each_option_adds_its_own_constraint_and_no_other(UnaryOperator<PodArbitrary> option, Predicate<PodInfo> own) {
    var pods = option.apply(KubeArbitraries.pods()).sampleStream().limit(SAMPLES).toList();

    assertTrue(pods.stream().anyMatch(own), "no pod has the option's constraint");
    assertTrue(pods.stream().anyMatch(own.negate()), "every pod has the option's constraint");
    for (var other : CONSTRAINTS) {
      if (other != own) {
        assertTrue(pods.stream().noneMatch(other), "a pod has a constraint of another option");
      }
    }
  }

  static Stream<Arguments> each_option_adds_its_own_constraint_and_no_other() {
    return Stream.of(
        Arguments.of(
            Named.<UnaryOperator<PodArbitrary>>of("pod affinity", PodArbitrary::withPodAffinity), HAS_AFFINITY),
        Arguments.of(
            Named.<UnaryOperator<PodArbitrary>>of("pod anti-affinity", PodArbitrary::withPodAntiAffinity),
            HAS_ANTI_AFFINITY),
        Arguments.of(
            Named.<UnaryOperator<PodArbitrary>>of("topology spread", PodArbitrary::withTopologySpread), HAS_SPREAD),
        Arguments.of(
            Named.<UnaryOperator<PodArbitrary>>of("scheduling gates", PodArbitrary::withSchedulingGates), IS_GATED));
  }

  @Test
  void snapshots_of_a_configured_size_have_that_many_nodes_and_the_default_is_left_as_it_was() {
    var defaults = KubeArbitraries.snapshots();
    var sized = defaults.ofSize(2, 3);

    var sizes = sized.sampleStream().limit(SAMPLES).map(s -> s.nodes().size()).toList();
    var defaultSizes = defaults.sampleStream().limit(SAMPLES).map(s -> s.nodes().size()).toList();

    assertTrue(sizes.stream().allMatch(n -> n == 2 || n == 3), sizes::toString);
    assertTrue(defaultSizes.contains(0) && defaultSizes.contains(8), defaultSizes::toString);
  }

  @Test
  void a_snapshot_size_outside_zero_to_the_maximum_is_rejected() {
    var e = assertThrows(IllegalArgumentException.class, () -> KubeArbitraries.snapshots().ofSize(3, 2));

    assertEquals("cluster size must satisfy 0 <= min <= max <= 100, was min 3, max 2", e.getMessage());
  }

  @Test
  void a_pending_pod_made_a_sibling_takes_the_placed_pods_namespace_labels_owner_and_constraints_only() {
    var antiAffinity =
        new PodAffinity(
            List.of(PodAffinityTerm.of(LabelSelector.of(Map.of("app", "db")), KubeArbitraries.TOPOLOGY_HOSTNAME)),
            List.of());
    var placed =
        PodInfo.builder("team-a", "db-0")
            .labels(Map.of("app", "db"))
            .owner(new Owner("StatefulSet", "db", "sts-uid-1"))
            .nodeName("node-0")
            .podAntiAffinity(antiAffinity)
            .build();
    var snapshot = ClusterSnapshot.of(List.of(NodeInfo.builder("node-0").build().withPod(placed)));
    var pod =
        PodInfo.builder("default", "the-pod")
            .labels(Map.of("tier", "web"))
            .requests(250, 1 << 20)
            .schedulingGates(List.of("example.com/quota"))
            .build();

    var pods =
        KubeArbitraries.snapshotScenarios(Arbitraries.just(pod), Arbitraries.just(snapshot))
            .sampleStream()
            .limit(SAMPLES)
            .map(SnapshotScenario::pod)
            .toList();

    assertTrue(pods.contains(pod), "no scenario kept the pod as drawn");
    var siblings = pods.stream().filter(p -> !p.equals(pod)).toList();
    assertTrue(!siblings.isEmpty(), "no scenario made the pod a sibling");
    var expected =
        PodInfo.builder("team-a", "the-pod")
            .labels(Map.of("app", "db"))
            .owner(new Owner("StatefulSet", "db", "sts-uid-1"))
            .requests(250, 1 << 20)
            .schedulingGates(List.of("example.com/quota"))
            .podAntiAffinity(antiAffinity)
            .build();
    assertTrue(siblings.stream().allMatch(expected::equals), siblings::toString);
  }

  @Test
  void a_snapshot_scenario_prints_the_snapshots_contents() {
    var workload =
        new WorkloadSelector(WorkloadSelector.Kind.SERVICE, "default", "web", LabelSelector.of(Map.of("app", "web")));
    var snapshot =
        ClusterSnapshot.of(
            List.of(NodeInfo.builder("node-7").build()), Map.of("default", Map.of("env", "prod")), List.of(workload));

    var printed = new SnapshotScenario(PodInfo.builder("default", "p").build(), snapshot).toString();

    assertTrue(printed.contains("name=node-7"), printed);
    assertTrue(printed.contains("namespaces={default={env=prod}}"), printed);
    assertTrue(printed.contains("name=web"), printed);
  }
}
