package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * A snapshot derived with {@code withNodes} finds the same nodes with pod affinity as a fresh one, whatever
 * changed in between, and however many derived snapshots never computed their indexes.
 */
class ClusterSnapshotProperties {

  private static final PodInfo PLAIN = PodInfo.builder("ns", "plain").build();
  private static final PodInfo PREFERRING =
      PodInfo.builder("ns", "preferring")
          .podAffinity(
              new PodAffinity(
                  List.of(),
                  List.of(new WeightedPodAffinityTerm(5, PodAffinityTerm.of(LabelSelector.EVERYTHING, "zone")))))
          .build();
  private static final PodInfo REPELLING =
      PodInfo.builder("ns", "repelling")
          .podAntiAffinity(
              new PodAffinity(List.of(PodAffinityTerm.of(LabelSelector.EVERYTHING, "host")), List.of()))
          .build();

  /** A pod like {@link #PLAIN}, another object: a pod replaced by its confirmed copy. */
  private static final PodInfo PLAIN_AGAIN = PodInfo.builder("ns", "plain").build();

  /**
   * One step between two decisions: which node changes, to which pods (added after its pods, as a pod placed
   * there, or instead of them), and whether the indexes are read.
   */
  record Step(int node, List<PodInfo> pods, boolean added, boolean read) {}

  @Property
  @Label("derived snapshots index nodes with pod affinity as fresh ones do")
  void derivedAgreesWithFresh(@ForAll("nodes") List<NodeInfo> start, @ForAll("steps") List<Step> steps) {
    var nodes = new ArrayList<>(start);
    var snapshot = ClusterSnapshot.of(nodes);
    snapshot.nodesWithPodAffinity();
    for (var step : steps) {
      if (!nodes.isEmpty()) {
        int i = step.node() % nodes.size();
        var pods = new ArrayList<PodInfo>();
        if (step.added()) {
          pods.addAll(nodes.get(i).pods());
        }
        pods.addAll(step.pods());
        nodes.set(i, NodeInfo.builder(nodes.get(i).name()).pods(pods).build());
        Statistics.label("change").collect(step.added() ? "pods added" : "pods replaced");
      }
      snapshot = snapshot.withNodes(nodes);
      Statistics.label("indexes read").collect(step.read());
      if (step.read()) {
        var fresh = ClusterSnapshot.of(nodes);
        assertEquals(fresh.nodesWithPodAffinity(), snapshot.nodesWithPodAffinity());
        assertEquals(fresh.nodesWithRequiredPodAntiAffinity(), snapshot.nodesWithRequiredPodAntiAffinity());
        Statistics.label("nodes with required anti-affinity")
            .collect(fresh.nodesWithRequiredPodAntiAffinity().isEmpty() ? "none" : "some");
      }
    }
    Statistics.label("change").coverage(c -> {
      c.check("pods added").count(n -> n > 0);
      c.check("pods replaced").count(n -> n > 0);
    });
    Statistics.label("nodes with required anti-affinity")
        .coverage(c -> {
          c.check("none").count(n -> n > 0);
          c.check("some").count(n -> n > 0);
        });
  }

  @Provide
  Arbitrary<List<NodeInfo>> nodes() {
    return Arbitraries.integers().between(0, 6).flatMap(
        count -> pods().list().ofSize(count).map(podLists -> {
          var nodes = new ArrayList<NodeInfo>();
          for (int i = 0; i < podLists.size(); i++) {
            nodes.add(NodeInfo.builder("node-" + i).labels(Map.of("host", "node-" + i)).pods(podLists.get(i)).build());
          }
          return List.copyOf(nodes);
        }));
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    return net.jqwik.api.Combinators.combine(
            Arbitraries.integers().between(0, 10), pods(), Arbitraries.of(true, false), Arbitraries.of(true, false))
        .as(Step::new)
        .list()
        .ofMaxSize(8);
  }

  private static Arbitrary<List<PodInfo>> pods() {
    return Arbitraries.of(PLAIN, PLAIN_AGAIN, PREFERRING, REPELLING).list().ofMaxSize(3);
  }
}
