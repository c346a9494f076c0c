package io.kubesched.policy.plugins.podtopologyspread;

import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.DO_NOT_SCHEDULE;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.fooSelector;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.makeNode;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.makePod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFilter.CriticalPaths.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The PodTopologySpread tracker's kube rules that a fresh PreFilter does not share (kube's own AddPod/RemovePod
 * cases are in {@link PodTopologySpreadFilterTest}): the two-slot approximation of the smallest count, pods being
 * deleted, the empty selector, nodes without a constraint's key.
 */
class PodTopologySpreadTrackerTest {

  private static final List<NodeInfo> THREE_NODES = List.of(
      makeNode().name("node-a").label("zone", "zone1").label("node", "node-a").obj(),
      makeNode().name("node-b").label("zone", "zone1").label("node", "node-b").obj(),
      makeNode().name("node-c").label("zone", "zone2").label("node", "node-c").obj());

  private static PodInfo spreadOverNodes(LabelSelector selector) {
    return makePod().name("p").label("foo", "")
        .spreadConstraint(1, "node", DO_NOT_SCHEDULE, selector, null, null, null, null).obj();
  }

  private static PodTopologySpreadFilter.Prepared prepare(PodInfo pod, List<NodeInfo> nodes) {
    return assertInstanceOf(PodTopologySpreadFilter.Prepared.class,
        new PodTopologySpreadFilter(PodTopologySpreadArgs.list(List.of())).prepare(pod, ClusterSnapshot.of(nodes)));
  }

  @Test
  @DisplayName("critical paths start from the domains in sorted order, so ties break the same way every time")
  void sortedInitialisation() {
    var prepared = prepare(spreadOverNodes(fooSelector), THREE_NODES);
    var paths = prepared.state().paths(0);
    assertEquals(new Path("node-a", 0), paths.first());
    assertEquals(new Path("node-b", 0), paths.second());
  }

  @Test
  @DisplayName("kube's two critical paths: after additions the tracked minimum can exceed the true one, and the"
      + " tracker then admits a node a fresh prepare rejects")
  void twoSlotApproximation() {
    var pod = spreadOverNodes(fooSelector);
    var prepared = prepare(pod, THREE_NODES);
    var tracker = prepared.track();
    var added = makePod().name("added").label("foo", "").obj();

    tracker.addPod(added, THREE_NODES.get(0));
    tracker.addPod(added, THREE_NODES.get(1));

    assertEquals(Map.of("node-a", 1, "node-b", 1, "node-c", 0), tracker.state().counts().get(0));
    assertEquals(new Path("node-b", 1), tracker.state().paths(0).first(), "node-c (0) is in neither slot");
    assertTrue(tracker.filter(pod, THREE_NODES.get(0)).fits(), "1 + 1 - 1 <= 1 with kube's minimum");
    var fresh = prepare(pod, List.of(
        THREE_NODES.get(0).withPod(added.toBuilder().uid("a").nodeName("node-a").build()),
        THREE_NODES.get(1).withPod(added.toBuilder().uid("b").nodeName("node-b").build()),
        THREE_NODES.get(2)));
    assertFalse(fresh.filter(pod, THREE_NODES.get(0)).fits(), "1 + 1 - 0 > 1 with the true minimum");
  }

  @Test
  @DisplayName("as kube's updateWithPod, a pod being deleted counts when removed (the PreFilter did not count it)")
  void terminatingPodCounts() {
    var deleting = makePod().name("deleting").node("node-a").label("foo", "").terminating().obj();
    var nodes = List.of(THREE_NODES.get(0).withPod(deleting), THREE_NODES.get(1), THREE_NODES.get(2));
    var prepared = prepare(spreadOverNodes(fooSelector), nodes);
    assertEquals(0, prepared.state().counts().get(0).get("node-a"));

    var tracker = prepared.track();
    tracker.removePod(deleting, nodes.get(0));

    assertEquals(-1, tracker.state().counts().get(0).get("node-a"));
  }

  @Test
  @DisplayName("as kube's updateWithPod, the empty selector selects every pod added (the PreFilter counts none)")
  void emptySelectorCounts() {
    var prepared = prepare(spreadOverNodes(LabelSelector.EVERYTHING), THREE_NODES);
    var tracker = prepared.track();

    tracker.addPod(makePod().name("added").label("bar", "").obj(), THREE_NODES.get(2));

    assertEquals(Map.of("node-a", 0, "node-b", 0, "node-c", 1), tracker.state().counts().get(0));
  }

  @Test
  @DisplayName("a pod on a node without every constraint's key, or in another namespace, changes nothing")
  void podsThatDoNotCount() {
    var pod = makePod().name("p").label("foo", "")
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
        .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj();
    var prepared = prepare(pod, THREE_NODES);
    var tracker = prepared.track();

    tracker.addPod(makePod().name("x").label("foo", "").obj(),
        makeNode().name("node-x").label("zone", "zone1").obj());
    tracker.addPod(makePod().name("y").namespace("other").label("foo", "").obj(), THREE_NODES.get(0));

    assertEquals(prepared.state().counts(), tracker.state().counts());
  }
}
