package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.ClusterSnapshot;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.arbitraries.ArbitraryDecorator;
import org.apiguardian.api.API;

/**
 * Cluster snapshots as {@link KubeArbitraries#snapshots()} describes them: the nodes of {@link
 * ClusterArbitrary#withTopology()}, the namespaces {@code default}, {@code team-a} and {@code team-b} with
 * their labels, and the selectors of a few Services and workload controllers. By default zero to eight
 * nodes, about one snapshot in ten without any.
 *
 * <p>{@link ClusterSnapshot} has no {@code toString} of its own: to read a failing snapshot in jqwik's
 * report, take a {@link SnapshotScenario}, which prints it.
 *
 * <p>Immutable: a configuring method returns a new arbitrary and leaves this one as it was.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class SnapshotArbitrary extends ArbitraryDecorator<ClusterSnapshot> {

  private ClusterArbitrary clusters = KubeArbitraries.clusters().withTopology();

  SnapshotArbitrary() {}

  /**
   * @param min the fewest nodes, 0 or more; 0 makes about one snapshot in ten empty
   * @param max the most nodes, from {@code min} to {@value ClusterArbitrary#MAX_NODES}
   * @return an arbitrary of snapshots with {@code min} to {@code max} nodes
   * @throws IllegalArgumentException as {@link ClusterArbitrary#ofSize(int, int)}
   */
  public SnapshotArbitrary ofSize(int min, int max) {
    var resized = clusters.ofSize(min, max);
    SnapshotArbitrary clone = typedClone();
    clone.clusters = resized;
    return clone;
  }

  @Override
  protected Arbitrary<ClusterSnapshot> arbitrary() {
    return Combinators.combine(clusters, PlacementDraws.namespaces(), PlacementDraws.workloads())
        .as((cluster, namespaces, workloads) -> ClusterSnapshot.of(cluster.nodes(), namespaces, workloads))
        .withoutEdgeCases();
  }
}
