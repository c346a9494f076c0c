package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.arbitraries.ArbitraryDecorator;
import org.apiguardian.api.API;

/**
 * Scenarios: a pending pod and a cluster, where the pod sometimes requests exactly what one node has free,
 * or one millicore more (see {@link KubeArbitraries#scenarios()}). Pods and clusters can be replaced, and
 * the exact-fit cases are still made from them.
 *
 * <p>Immutable: a configuring method returns a new arbitrary and leaves this one as it was.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ScenarioArbitrary extends ArbitraryDecorator<Scenario> {

  /** How the pod's requests relate to one node's free capacity. */
  private enum Fit {
    AS_DRAWN,
    EXACTLY_FREE,
    ONE_MILLICORE_OVER
  }

  private Arbitrary<PodInfo> pods;
  private Arbitrary<Cluster> clusters;

  ScenarioArbitrary(Arbitrary<PodInfo> pods, Arbitrary<Cluster> clusters) {
    this.pods = pods;
    this.clusters = clusters;
  }

  /**
   * @param min the fewest nodes, 0 or more
   * @param max the most nodes, from {@code min} to {@value ClusterArbitrary#MAX_NODES}
   * @return scenarios whose clusters are {@link KubeArbitraries#clusters()} of {@code min} to {@code max}
   *     nodes, in place of any clusters given to {@link #withClusters(Arbitrary)}
   * @throws IllegalArgumentException as {@link ClusterArbitrary#ofSize(int, int)}
   */
  public ScenarioArbitrary ofClusterSize(int min, int max) {
    var resized = KubeArbitraries.clusters().ofSize(min, max);
    ScenarioArbitrary clone = typedClone();
    clone.clusters = resized;
    return clone;
  }

  /**
   * @param pods the pending pods to place, for example {@link KubeArbitraries#pods()} filtered or mapped to
   *     what a policy cares about; their requests are still replaced in the scenarios that test a node's
   *     exact free capacity
   * @return scenarios with pods from {@code pods}
   */
  public ScenarioArbitrary withPods(Arbitrary<PodInfo> pods) {
    ScenarioArbitrary clone = typedClone();
    clone.pods = pods;
    return clone;
  }

  /**
   * @param clusters the clusters to place pods in, for example built from {@link KubeArbitraries#nodes()}
   *     or fixed with {@link Arbitraries#just(Object)}
   * @return scenarios with clusters from {@code clusters}
   */
  public ScenarioArbitrary withClusters(Arbitrary<Cluster> clusters) {
    ScenarioArbitrary clone = typedClone();
    clone.clusters = clusters;
    return clone;
  }

  @Override
  protected Arbitrary<Scenario> arbitrary() {
    var fits =
        Arbitraries.frequency(
            Tuple.of(7, Fit.AS_DRAWN), Tuple.of(2, Fit.EXACTLY_FREE), Tuple.of(1, Fit.ONE_MILLICORE_OVER));
    // Which node's free capacity the pod may take: uniform, as jqwik's default would mostly pick the first.
    var nodeIndex =
        Arbitraries.integers()
            .between(0, ClusterArbitrary.MAX_NODES - 1)
            .withDistribution(RandomDistribution.uniform());
    return Combinators.combine(pods, clusters, fits, nodeIndex)
        .as(ScenarioArbitrary::scenario)
        .withoutEdgeCases();
  }

  private static Scenario scenario(PodInfo pod, Cluster cluster, Fit fit, int nodeIndex) {
    if (fit == Fit.AS_DRAWN || cluster.nodes().isEmpty()) {
      return new Scenario(pod, cluster);
    }
    var node = cluster.nodes().get(nodeIndex % cluster.size());
    long extraCpu = fit == Fit.ONE_MILLICORE_OVER ? 1 : 0;
    return new Scenario(withRequests(pod, freeFor(node, extraCpu)), cluster);
  }

  private static Resources freeFor(NodeInfo node, long extraCpu) {
    var free = KubeArbitraries.free(node);
    long cpu = free.milliCpu() == Long.MAX_VALUE ? Long.MAX_VALUE : free.milliCpu() + extraCpu;
    return new Resources(cpu, free.memory(), free.ephemeralStorage(), 1, free.extended());
  }

  private static PodInfo withRequests(PodInfo pod, Resources requests) {
    // nonZeroRequests follow the new requests, derived as the api derives them for a one-container pod.
    var nonZero = PodInfo.builder(pod.namespace(), pod.name()).requests(requests).build().nonZeroRequests();
    return pod.toBuilder().requests(requests).nonZeroRequests(nonZero).build();
  }
}
