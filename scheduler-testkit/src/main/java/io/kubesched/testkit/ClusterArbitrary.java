package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.NodeInfo;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import net.jqwik.api.arbitraries.ArbitraryDecorator;
import org.apiguardian.api.API;

/**
 * Clusters of nodes from {@link KubeArbitraries#nodes()} with unique names. By default zero to eight nodes;
 * when empty clusters are allowed, about one cluster in ten is empty, so that a policy's answer for "no node
 * at all" is tried in every run.
 *
 * <p>Immutable: a configuring method returns a new arbitrary and leaves this one as it was.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ClusterArbitrary extends ArbitraryDecorator<Cluster> {

  /**
   * The largest cluster {@link #ofSize(int, int)} accepts. Larger ones make every try slow and every
   * failure hard to read; how a policy behaves at scale is a question for a benchmark.
   */
  public static final int MAX_NODES = 100;

  private int minNodes = 0;
  private int maxNodes = 8;
  private boolean topology;

  ClusterArbitrary() {}

  /**
   * Nodes for policies that honour inter-pod constraints. Each node keeps what {@link KubeArbitraries#nodes()}
   * draws and adds the well-known topology labels: {@value KubeArbitraries#TOPOLOGY_HOSTNAME} (the node's
   * name) on every node, {@value KubeArbitraries#TOPOLOGY_ZONE} ({@code zone-a} to {@code zone-c}) on about
   * four nodes in five, {@value KubeArbitraries#TOPOLOGY_RACK} on about one in three, so that a topology key
   * is often missing from some nodes. The pods placed on them are workload replicas: about one in three has
   * pod anti-affinity (with required terms in three of four, often against its own labels), one in six pod affinity,
   * one in six spread constraints; none is gated.
   *
   * @return an arbitrary of such clusters, of the same size as this one
   */
  public ClusterArbitrary withTopology() {
    ClusterArbitrary clone = typedClone();
    clone.topology = true;
    return clone;
  }

  /**
   * @param min the fewest nodes, 0 or more; 0 makes about one cluster in ten empty
   * @param max the most nodes, from {@code min} to {@value #MAX_NODES}
   * @return an arbitrary of clusters with {@code min} to {@code max} nodes
   * @throws IllegalArgumentException if {@code min} is negative or {@code max} is below {@code min} or above
   *     {@value #MAX_NODES}
   */
  public ClusterArbitrary ofSize(int min, int max) {
    if (min < 0 || max < min || max > MAX_NODES) {
      throw new IllegalArgumentException(
          "cluster size must satisfy 0 <= min <= max <= " + MAX_NODES + ", was min " + min + ", max " + max);
    }
    ClusterArbitrary clone = typedClone();
    clone.minNodes = min;
    clone.maxNodes = max;
    return clone;
  }

  @Override
  protected Arbitrary<Cluster> arbitrary() {
    if (maxNodes == 0) {
      return Arbitraries.just(new Cluster(List.of()));
    }
    // Names are a shuffled prefix of a pool twice the largest cluster: unique, and different between tries.
    int pool = Math.max(KubeArbitraries.DEFAULT_NODE_NAMES, 2 * maxNodes);
    var names = Arbitraries.shuffle(KubeArbitraries.nodeNames(pool));
    var nodes = KubeArbitraries.unnamedNodes(topology).list();
    Arbitrary<List<Function<String, NodeInfo>>> sized =
        minNodes == 0
            ? Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(List.<Function<String, NodeInfo>>of())),
                Tuple.of(9, nodes.ofMinSize(1).ofMaxSize(maxNodes)))
            : nodes.ofMinSize(minNodes).ofMaxSize(maxNodes);
    var clusters =
        Combinators.combine(sized, names)
            .as(
                (unnamed, shuffled) ->
                    new Cluster(
                        IntStream.range(0, unnamed.size())
                            .mapToObj(i -> unnamed.get(i).apply(shuffled.get(i)))
                            .toList()));
    // The edge cases of a list of nodes would fill half the tries with one-node clusters; the cases that
    // matter are drawn on purpose instead.
    return clusters.withoutEdgeCases();
  }
}
