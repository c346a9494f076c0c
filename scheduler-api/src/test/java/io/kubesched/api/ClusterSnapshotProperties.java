package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.internal.DerivedList;
import java.util.AbstractList;
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
import org.jspecify.annotations.Nullable;

/**
 * A snapshot derived with {@code withNodes} finds the same nodes with pod affinity, and counts the same nodes
 * holding each image, as a fresh one, whatever changed in between, however many derived snapshots never
 * computed their indexes, and whether the node list says what changed (as the scheduler's cache does) or not.
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

  private static final ContainerImage APP = new ContainerImage(List.of("app:1", "app@sha256:1"), 100);
  private static final ContainerImage TOOL = new ContainerImage(List.of("tool:2"), 50);
  /** Known by one of {@link #APP}'s names too: a node holding both counts once for it. */
  private static final ContainerImage APP_AGAIN = new ContainerImage(List.of("app:1", "app:latest"), 100);
  private static final List<String> IMAGE_NAMES = List.of("app:1", "app@sha256:1", "tool:2", "app:latest");

  /**
   * One step between two decisions: which node changes, to which pods (added after its pods, as a pod placed
   * there, or instead of them) and images (null: the same, in the same list or, as a node's update brings
   * them, in another), whether the new node list says what changed, and whether the indexes are read.
   */
  record Step(
      int node, List<PodInfo> pods, boolean added, @Nullable List<ContainerImage> images, boolean anotherList,
      boolean derived, boolean read) {}

  /** A node list like the scheduler's cache hands out: made from {@code base} by replacing one position. */
  private static final class Derived extends AbstractList<NodeInfo> implements DerivedList<NodeInfo> {
    private final List<NodeInfo> nodes;
    private final List<NodeInfo> base;
    private final int[] changed;

    Derived(List<NodeInfo> nodes, List<NodeInfo> base, int changed) {
      this.nodes = List.copyOf(nodes);
      this.base = base;
      this.changed = new int[] {changed};
    }

    @Override
    public NodeInfo get(int index) {
      return nodes.get(index);
    }

    @Override
    public int size() {
      return nodes.size();
    }

    @Override
    public List<NodeInfo> base() {
      return base;
    }

    @Override
    public int[] changedPositions() {
      return changed;
    }
  }

  @Property
  @Label("derived snapshots index nodes with pod affinity and count image holders as fresh ones do")
  void derivedAgreesWithFresh(@ForAll("nodes") List<NodeInfo> start, @ForAll("steps") List<Step> steps) {
    var nodes = new ArrayList<>(start);
    List<NodeInfo> list = List.copyOf(nodes);
    var snapshot = ClusterSnapshot.of(list);
    snapshot.nodesWithPodAffinity();
    boolean lastRead = true;
    for (var step : steps) {
      int i = nodes.isEmpty() ? 0 : step.node() % nodes.size();
      if (!nodes.isEmpty()) {
        var old = nodes.get(i);
        var pods = new ArrayList<PodInfo>();
        if (step.added()) {
          pods.addAll(old.pods());
        }
        pods.addAll(step.pods());
        var images =
            step.images() != null ? step.images() : step.anotherList() ? new ArrayList<>(old.images()) : old.images();
        nodes.set(i, NodeInfo.builder(old.name()).labels(old.labels()).pods(pods).images(images).build());
        Statistics.label("change").collect(step.added() ? "pods added" : "pods replaced");
        Statistics.label("images")
            .collect(step.images() != null ? "others" : step.anotherList() ? "the same in another list" : "same list");
      }
      boolean derived = step.derived() && !nodes.isEmpty();
      list = derived ? new Derived(nodes, list, i) : List.copyOf(nodes);
      snapshot = snapshot.withNodes(list);
      Statistics.label("index updated").collect(
          derived && lastRead ? "at the changed position" : lastRead ? "at every position" : "from an older one");
      Statistics.label("indexes read").collect(step.read());
      lastRead = step.read();
      if (step.read()) {
        var fresh = ClusterSnapshot.of(nodes);
        assertEquals(fresh.nodesWithPodAffinity(), snapshot.nodesWithPodAffinity());
        assertEquals(fresh.nodesWithRequiredPodAntiAffinity(), snapshot.nodesWithRequiredPodAntiAffinity());
        for (var name : IMAGE_NAMES) {
          assertEquals(fresh.nodesHoldingImage(name), snapshot.nodesHoldingImage(name), name);
          assertEquals(
              nodes.stream().filter(n -> n.images().stream().anyMatch(m -> m.names().contains(name))).count(),
              snapshot.nodesHoldingImage(name),
              name);
        }
        Statistics.label("nodes with required anti-affinity")
            .collect(fresh.nodesWithRequiredPodAntiAffinity().isEmpty() ? "none" : "some");
      }
    }
    Statistics.label("images").coverage(c -> {
      c.check("same list").count(n -> n > 0);
      c.check("the same in another list").count(n -> n > 0);
      c.check("others").count(n -> n > 0);
    });
    Statistics.label("index updated").coverage(c -> {
      c.check("at the changed position").count(n -> n > 0);
      c.check("at every position").count(n -> n > 0);
      c.check("from an older one").count(n -> n > 0);
    });
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
            nodes.add(
                NodeInfo.builder("node-" + i)
                    .labels(Map.of("host", "node-" + i))
                    .pods(podLists.get(i))
                    .images(IMAGE_LISTS.get(i % IMAGE_LISTS.size()))
                    .build());
          }
          return List.copyOf(nodes);
        }));
  }

  private static final List<List<ContainerImage>> IMAGE_LISTS =
      List.of(List.of(), List.of(APP), List.of(APP, TOOL), List.of(APP_AGAIN), List.of(APP, APP_AGAIN));

  @Provide
  Arbitrary<List<Step>> steps() {
    var images = Arbitraries.of(IMAGE_LISTS).injectNull(0.6);
    return net.jqwik.api.Combinators.combine(
            Arbitraries.integers().between(0, 10),
            pods(),
            Arbitraries.of(true, false),
            images,
            Arbitraries.of(true, false),
            Arbitraries.of(true, false),
            Arbitraries.of(true, false))
        .as(Step::new)
        .list()
        .ofMaxSize(8);
  }

  private static Arbitrary<List<PodInfo>> pods() {
    return Arbitraries.of(PLAIN, PLAIN_AGAIN, PREFERRING, REPELLING).list().ofMaxSize(3);
  }
}
