package io.kubesched.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KubeArbitrariesTest {

  private static final int SAMPLES = 200;

  @Test
  void a_cluster_with_two_nodes_of_one_name_is_rejected() {
    var node = NodeInfo.builder("node-1").build();

    var e = assertThrows(IllegalArgumentException.class, () -> new Cluster(List.of(node, node)));

    assertEquals("cluster node names must be unique, 'node-1' is repeated", e.getMessage());
  }

  @Test
  void a_cluster_finds_its_nodes_by_name() {
    var a = NodeInfo.builder("a").build();
    var b = NodeInfo.builder("b").build();
    var cluster = new Cluster(List.of(b, a));

    assertEquals(List.of("b", "a"), cluster.nodeNames());
    assertEquals(a, cluster.node("a").orElseThrow());
    assertTrue(cluster.node("c").isEmpty());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void a_cluster_size_outside_zero_to_the_maximum_is_rejected(int min, int max) {
    var e = assertThrows(IllegalArgumentException.class, () -> KubeArbitraries.clusters().ofSize(min, max));

    assertEquals(
        "cluster size must satisfy 0 <= min <= max <= 100, was min " + min + ", max " + max, e.getMessage());
  }

  static Stream<Arguments> a_cluster_size_outside_zero_to_the_maximum_is_rejected() {
    return Stream.of(
        Arguments.of(Named.of("a negative minimum", -1), 3),
        Arguments.of(Named.of("a maximum below the minimum", 4), 3),
        Arguments.of(Named.of("a maximum above 100", 0), 101));
  }

  @Test
  void clusters_of_a_configured_size_have_that_many_nodes_and_the_default_is_left_as_it_was() {
    var defaults = KubeArbitraries.clusters();
    var sized = defaults.ofSize(3, 5);

    var sizes = sized.sampleStream().limit(SAMPLES).map(Cluster::size).toList();
    var defaultSizes = defaults.sampleStream().limit(SAMPLES).map(Cluster::size).toList();

    assertTrue(sizes.stream().allMatch(n -> n >= 3 && n <= 5), sizes::toString);
    assertTrue(sizes.containsAll(List.of(3, 4, 5)), sizes::toString);
    assertTrue(defaultSizes.contains(0) && defaultSizes.contains(8), defaultSizes::toString);
  }

  @Test
  void clusters_of_size_zero_are_all_empty() {
    assertTrue(KubeArbitraries.clusters().ofSize(0, 0).sampleStream().limit(SAMPLES).allMatch(c -> c.size() == 0));
  }

  @Test
  void large_clusters_still_have_unique_names() {
    var clusters = KubeArbitraries.clusters().ofSize(100, 100).sampleStream().limit(5).toList();

    for (var cluster : clusters) {
      assertEquals(100, cluster.nodeNames().stream().distinct().count());
    }
  }

  @Test
  void scenarios_of_a_configured_cluster_size_and_pods_use_both() {
    var pod = PodInfo.builder("ns", "the-pod").requests(100, 1 << 20).build();

    var scenarios =
        KubeArbitraries.scenarios()
            .ofClusterSize(1, 1)
            .withPods(Arbitraries.just(pod))
            .sampleStream()
            .limit(SAMPLES)
            .toList();

    assertTrue(scenarios.stream().allMatch(s -> s.cluster().size() == 1));
    assertTrue(scenarios.stream().allMatch(s -> s.pod().key().equals("ns/the-pod")));
    // Some scenarios keep the pod as it is; others replace its requests with a node's free capacity.
    assertTrue(scenarios.stream().anyMatch(s -> s.pod().equals(pod)));
    assertTrue(scenarios.stream().anyMatch(s -> !s.pod().requests().equals(pod.requests())));
  }

  @Test
  void a_pod_given_a_nodes_free_capacity_counts_kube_schedulers_defaults_only_where_it_requests_nothing() {
    var node = NodeInfo.builder("n").allocatable(2000, 0, 110).build();
    var pod = PodInfo.builder("ns", "p").requests(7, 7).build();

    var scenarios =
        KubeArbitraries.scenarios()
            .withPods(Arbitraries.just(pod))
            .withClusters(Arbitraries.just(new Cluster(List.of(node))))
            .sampleStream()
            .limit(SAMPLES)
            .map(Scenario::pod)
            .filter(p -> p.requests().milliCpu() == 2000)
            .toList();

    assertTrue(!scenarios.isEmpty(), "no scenario gave the pod the node's free capacity");
    for (var p : scenarios) {
      assertEquals(0, p.requests().memory());
      assertEquals(2000, p.nonZeroRequests().milliCpu());
      assertEquals(PodInfo.DEFAULT_MEMORY_REQUEST, p.nonZeroRequests().memory());
    }
  }
}
