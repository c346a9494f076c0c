package io.kubesched.policy.plugins.interpodaffinity;

import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.HOSTNAME;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.cluster;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.in;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.node;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.notIn;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.pod;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.selector;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFilter.CountsTracker;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFilter.Prepared;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.Node;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kube-scheduler 1.37's tests of the InterPodAffinity PreFilter extensions ({@code
 * interpodaffinity/filtering_test.go}: {@code TestPreFilterStateAddRemovePod}, {@code TestPreFilterStateClone},
 * {@code TestRemovePodHostScopedAffinityCount}), run through {@link Prepared#track()}, with the feature gate
 * {@code InterPodAffinityHostnameFastPath} at its 1.37 default (off); kube runs them with the gate on as well
 * and expects the same counts.
 */
class InterPodAffinityTrackerTest {

  private final InterPodAffinityFilter filter = new InterPodAffinityFilter();

  // ---------------------------------------------------------------- TestPreFilterStateAddRemovePod

  private static final Map<String, String> LABEL1 = Map.of("region", "r1", "zone", "z11");
  private static final Map<String, String> LABEL2 = Map.of("region", "r1", "zone", "z12");
  private static final Map<String, String> LABEL3 = Map.of("region", "r2", "zone", "z21");
  private static final Map<String, String> SELECTOR1 = Map.of("foo", "bar");

  private static PodAffinityTerm antiAffinityFooBar() {
    return term(selector(in("foo", "bar")), "region");
  }

  /** Kube's {@code antiAffinityComplex} and {@code affinityComplex} share their two terms. */
  private static PodAffinityTerm[] complex() {
    return new PodAffinityTerm[] {
      term(selector(in("foo", "bar", "buzz")), "region"),
      term(selector(notIn("service", "bar", "security", "test")), "zone")
    };
  }

  private static final List<Node> THREE_NODES =
      List.of(node("nodeA", LABEL1), node("nodeB", LABEL2), node("nodeC", LABEL3));

  static Stream<Arguments> addRemovePodCases() {
    return Stream.of(
        argumentSet(
            "preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
            pod().name("pending").labels(SELECTOR1).antiAffinity(antiAffinityFooBar()),
            List.of(
                pod().name("p1").labels(SELECTOR1).node("nodeA"),
                pod().name("p2").node("nodeC").antiAffinity(antiAffinityFooBar())),
            pod().name("addedPod").labels(SELECTOR1).node("nodeB").antiAffinity(antiAffinityFooBar()),
            THREE_NODES,
            Map.of("region", Map.of("r1", 2L)),
            Map.of()),
        argumentSet(
            "preFilterState anti-affinity terms are updated correctly after adding and removing a pod (complex)",
            pod().name("pending").labels(SELECTOR1).antiAffinity(complex()),
            List.of(
                pod().name("p1").labels(SELECTOR1).node("nodeA"),
                pod().name("p2").node("nodeC").antiAffinity(antiAffinityFooBar())),
            pod().name("addedPod").labels(SELECTOR1).node("nodeA").antiAffinity(complex()),
            THREE_NODES,
            Map.of("region", Map.of("r1", 2L), "zone", Map.of("z11", 2L, "z21", 1L)),
            Map.of()),
        argumentSet(
            "preFilterState matching pod affinity and anti-affinity are updated correctly after adding and removing"
                + " a pod",
            pod().name("pending").labels(SELECTOR1).affinity(complex()),
            List.of(
                pod().name("p1").labels(SELECTOR1).node("nodeA"),
                pod().name("p2").node("nodeC").antiAffinity(antiAffinityFooBar()).affinity(complex())),
            pod().name("addedPod").labels(SELECTOR1).node("nodeA").antiAffinity(complex()),
            THREE_NODES,
            Map.of(),
            Map.of("region", Map.of("r1", 2L), "zone", Map.of("z11", 2L))),
        argumentSet(
            "preFilterState anti-affinity terms with both hostname and non-hostname are updated correctly after"
                + " adding and removing a pod",
            pod().name("pending").labels(SELECTOR1).antiAffinity(antiAffinityFooBar()),
            List.of(pod().name("p1").labels(SELECTOR1).node("nodeA")),
            pod().name("addedPod").labels(SELECTOR1).node("nodeA")
                .antiAffinity(term(selector(in("foo", "bar")), "region"), term(selector(in("foo", "bar")), HOSTNAME)),
            List.of(
                node("nodeA", Map.of("region", "r1", "zone", "z11", HOSTNAME, "nodeA")),
                node("nodeB", Map.of("region", "r1", "zone", "z12", HOSTNAME, "nodeB"))),
            Map.of("region", Map.of("r1", 2L)),
            Map.of()));
  }

  /**
   * Kube's runner (the second and third case share kube's name; the second is told apart here): the state of the
   * snapshot without {@code addedPod}, after AddPod, has the expected incoming counts and equals the state of the
   * snapshot with it; after RemovePod it equals the state without it again; and RemovePod alone on the state with
   * it gives the state without it.
   */
  @ParameterizedTest
  @MethodSource("addRemovePodCases")
  void TestPreFilterStateAddRemovePod(
      Pod pending,
      List<Pod> existing,
      Pod added,
      List<Node> nodes,
      Map<String, Map<String, Long>> expectedAntiAffinity,
      Map<String, Map<String, Long>> expectedAffinity) {
    var withAdded = new ArrayList<>(existing);
    withAdded.add(added);
    var allPodsCluster = cluster(nodes, withAdded, Map.of());
    var allPodsState = prepare(pending, allPodsCluster);
    var cluster = cluster(nodes, existing, Map.of());
    var originalState = prepare(pending, cluster);
    var node = cluster.node(added.nodeName()).orElseThrow();

    var tracker = (CountsTracker) originalState.track();
    tracker.addPod(added.build(), node);
    assertEquals(expectedAntiAffinity, tracker.antiAffinity().asMap(), "anti-affinity counts");
    assertEquals(expectedAffinity, tracker.affinity().asMap(), "affinity counts");
    assertCounts(allPodsState, tracker);

    tracker.removePod(added.build(), node);
    assertCounts(originalState, tracker);

    var pure = (CountsTracker) allPodsState.track();
    pure.removePod(added.build(), allPodsCluster.node(added.nodeName()).orElseThrow());
    assertCounts(originalState, pure);
  }

  private Prepared prepare(Pod pod, ClusterSnapshot cluster) {
    var prepared = assertInstanceOf(Prepared.class, filter.prepare(pod.build(), cluster));
    assertTrue(!prepared.skipped(), "PreFilter succeeds");
    return prepared;
  }

  private static void assertCounts(Prepared want, CountsTracker got) {
    assertEquals(want.affinity().asMap(), got.affinity().asMap(), "affinity counts");
    assertEquals(want.antiAffinity().asMap(), got.antiAffinity().asMap(), "anti-affinity counts");
    assertEquals(want.existingAntiAffinity().asMap(), got.existingAntiAffinity().asMap(), "existing anti-affinity");
  }

  // ---------------------------------------------------------------- TestPreFilterStateClone

  /** Kube clones a hand-made state; here a prepared one with all three counts set is tracked. */
  @Test
  @DisplayName("TestPreFilterStateClone: a tracker starts with equal counts in other objects")
  void preFilterStateClone() {
    var pending = pod().name("pending").labels(SELECTOR1).affinity(complex()).antiAffinity(antiAffinityFooBar());
    var cluster = cluster(
        THREE_NODES,
        List.of(
            pod().name("p1").labels(SELECTOR1).node("nodeA"),
            pod().name("p2").labels(Map.of("foo", "buzz")).node("nodeC").antiAffinity(antiAffinityFooBar())),
        Map.of());
    var source = assertInstanceOf(Prepared.class, filter.prepare(pending.build(), cluster));
    var clone = (CountsTracker) source.track();

    assertCounts(source, clone);
    assertNotSame(source.affinity(), clone.affinity());
    assertNotSame(source.antiAffinity(), clone.antiAffinity());
    assertNotSame(source.existingAntiAffinity(), clone.existingAntiAffinity());
    assertTrue(!source.affinity().isEmpty() && !source.antiAffinity().isEmpty()
        && !source.existingAntiAffinity().isEmpty(), "all three counts are set");

    var before = source.affinity().asMap();
    clone.removePod(cluster.node("nodeA").orElseThrow().pods().get(0), cluster.node("nodeA").orElseThrow());
    assertEquals(Map.of("region", Map.of("r2", 1L), "zone", Map.of("z21", 1L)), clone.affinity().asMap());
    assertEquals(before, source.affinity().asMap(), "the prepared filter keeps its counts");
  }

  // ---------------------------------------------------------------- TestRemovePodHostScopedAffinityCount

  @Test
  @DisplayName("TestRemovePodHostScopedAffinityCount: once the only matching pod is removed, self-affinity lets the"
      + " pod go anywhere")
  void removePodHostScopedAffinityCount() {
    var pending = pod().name("pending").labels(Map.of("foo", "bar")).affinityIn("foo", HOSTNAME, "bar").build();
    var existing = pod().name("existing").node("nodeA").labels(Map.of("foo", "bar"));
    var cluster = cluster(
        List.of(node("nodeA", Map.of(HOSTNAME, "nodeA")), node("nodeB", Map.of(HOSTNAME, "nodeB"))),
        List.of(existing),
        Map.of());
    var nodeA = cluster.node("nodeA").orElseThrow();
    var nodeB = cluster.node("nodeB").orElseThrow();
    var tracker = assertInstanceOf(Prepared.class, filter.prepare(pending, cluster)).track();

    assertEquals(Outcome.FIT, Outcome.of(tracker.filter(pending, nodeA)));
    assertEquals(InterPodAffinityFilterTest.AFFINITY, Outcome.of(tracker.filter(pending, nodeB)));

    tracker.removePod(existing.build(), nodeA);

    assertEquals(Outcome.FIT, Outcome.of(tracker.filter(pending, nodeA)));
    assertEquals(Outcome.FIT, Outcome.of(tracker.filter(pending, nodeB)));
  }

  // ---------------------------------------------------------------- kube's Skip

  @Test
  @DisplayName("a pod kube's PreFilter skips gets a tracker that fits every node whatever it is told")
  void skippedPreFilterTracksNothing() {
    var pending = pod().name("pending").labels(SELECTOR1).build();
    var cluster = cluster(THREE_NODES, List.of(pod().name("p1").labels(SELECTOR1).node("nodeA")), Map.of());
    var prepared = assertInstanceOf(Prepared.class, filter.prepare(pending, cluster));
    assertTrue(prepared.skipped());
    var tracker = prepared.track();

    // kube calls no AddPod for a skipped plugin: a pod whose anti-affinity rejects the pending one changes nothing
    tracker.addPod(pod().name("added").node("nodeA").antiAffinity(antiAffinityFooBar()).build(),
        cluster.node("nodeA").orElseThrow());

    cluster.nodes().forEach(node -> assertEquals(Outcome.FIT, Outcome.of(tracker.filter(pending, node))));
  }
}
