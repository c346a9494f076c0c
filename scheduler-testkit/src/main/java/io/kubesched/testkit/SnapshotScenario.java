package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import org.apiguardian.api.API;

/**
 * One scheduling decision over a whole snapshot: a pending pod and the {@link ClusterSnapshot} a {@link
 * io.kubesched.api.FinderFunc#find(PodInfo, ClusterSnapshot)} receives. Prints the snapshot's nodes,
 * namespaces and workloads, so that jqwik's report of a failing try can be read.
 *
 * @param pod the pod to place, not bound to any node
 * @param snapshot the cluster it may go to
 */
@API(status = MAINTAINED, since = "0.1.0")
public record SnapshotScenario(PodInfo pod, ClusterSnapshot snapshot) {

  /** @return the snapshot's nodes; unmodifiable */
  public List<NodeInfo> nodes() {
    return snapshot.nodes();
  }

  @Override
  public String toString() {
    return "SnapshotScenario[pod="
        + pod
        + ", nodes="
        + snapshot.nodes()
        + ", namespaces="
        + snapshot.namespaces()
        + ", workloads="
        + snapshot.workloads()
        + "]";
  }

  static Arbitrary<SnapshotScenario> arbitrary(Arbitrary<PodInfo> pods, Arbitrary<ClusterSnapshot> snapshots) {
    // Which placed pod the pending one may be a sibling of: uniform, as jqwik's default favours the first.
    var index = Arbitraries.integers().between(0, Integer.MAX_VALUE - 1).withDistribution(RandomDistribution.uniform());
    var sibling = Arbitraries.frequency(Tuple.of(2, false), Tuple.of(1, true));
    return Combinators.combine(pods, snapshots, sibling, index)
        .as(
            (pod, snapshot, asSibling, i) -> {
              var placed = snapshot.nodes().stream().flatMap(node -> node.pods().stream()).toList();
              if (!asSibling || placed.isEmpty()) {
                return new SnapshotScenario(pod, snapshot);
              }
              return new SnapshotScenario(siblingOf(placed.get(i % placed.size()), pod), snapshot);
            })
        .withoutEdgeCases();
  }

  /**
   * {@code pod} as the next replica of {@code placed}'s workload: its namespace, labels, owner and inter-pod
   * constraints (a replica's template is its siblings'); the rest, gates included, is {@code pod}'s.
   */
  private static PodInfo siblingOf(PodInfo placed, PodInfo pod) {
    return new PodInfo(
        placed.namespace(),
        pod.name(),
        placed.namespace() + "/" + pod.name(),
        pod.schedulerName(),
        pod.priority(),
        placed.labels(),
        placed.owner(),
        pod.nodeName(),
        pod.requests(),
        pod.nonZeroRequests(),
        pod.nodeSelector(),
        pod.affinity(),
        pod.tolerations(),
        pod.hostPorts(),
        pod.volumes(),
        pod.images(),
        placed.podAffinity(),
        placed.podAntiAffinity(),
        placed.topologySpreadConstraints(),
        pod.schedulingGates(),
        pod.persistentVolumeClaims(),
        pod.ephemeralVolumeClaims(),
        pod.resourceClaims(),
        pod.terminating(),
        pod.preemptionPolicy(),
        pod.startTime(),
        pod.nominatedNodeName(),
        pod.preemptedByScheduler(),
        pod.podGroupRef(),
        pod.runtime(),
        pod.containerRequests());
  }
}
