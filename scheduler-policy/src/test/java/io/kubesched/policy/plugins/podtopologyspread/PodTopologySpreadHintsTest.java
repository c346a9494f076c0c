package io.kubesched.policy.plugins.podtopologyspread;

import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.DO_NOT_SCHEDULE;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.SCHEDULE_ANYWAY;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.barSelector;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.fooSelector;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.makeNode;
import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.makePod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queueing hint cases of kube-scheduler's {@code podtopologyspread/plugin_test.go}, under kube's names, with
 * kube's {@code ListDefaulting} without default constraints. Left out: the node deletions of {@code
 * Test_isSchedulableAfterNodeChange} (a node deleted is no {@link ClusterUpdate}), the additions and updates of
 * bound pods of {@code Test_isSchedulableAfterAssignedPodChange} (they move the pod by its own hint, not through
 * {@link PodTopologySpreadFilter#isSchedulableAfter}) and {@code Test_isSchedulableAfterTargetPodChange} (the
 * waiting pod's own update, likewise).
 */
class PodTopologySpreadHintsTest {

  private final PodTopologySpreadFilter filter = new PodTopologySpreadFilter(PodTopologySpreadArgs.list(List.of()));

  // ---------------------------------------------------------------- Test_isSchedulableAfterNodeChange

  private static PodInfo zoneSpread() {
    return makePod().name("p").spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj();
  }

  private static PodInfo zoneAndNodeSpread() {
    return makePod().name("p")
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
        .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
        .obj();
  }

  private static List<Taint> taint(String key) {
    return List.of(new Taint(key, "bbb", TaintEffect.NO_SCHEDULE));
  }

  static Stream<Arguments> nodeChanges() {
    return Stream.of(
        argumentSet("node updates label which matches topologyKey",
            zoneSpread(), makeNode().name("node-a").label("zone", "zone1").obj(),
            makeNode().name("node-a").label("zone", "zone2").obj(), true),
        argumentSet("node that doesn't match topologySpreadConstraints updates non-related label",
            zoneSpread(), makeNode().name("node-a").label("foo", "bar1").obj(),
            makeNode().name("node-a").label("foo", "bar2").obj(), false),
        argumentSet("node that match topologySpreadConstraints adds non-related label",
            zoneAndNodeSpread(),
            makeNode().name("node-a").label("zone", "zone1").label("node", "node1").label("foo", "bar").obj(),
            makeNode().name("node-a").label("zone", "zone1").label("node", "node1").obj(), false),
        argumentSet("create node with non-related labels",
            zoneSpread(), null, makeNode().name("node-a").label("foo", "bar").obj(), false),
        argumentSet("create node with related labels",
            zoneSpread(), null, makeNode().name("node-a").label("zone", "zone1").obj(), true),
        argumentSet("add node with related labels that only match one of topologySpreadConstraints",
            zoneAndNodeSpread(), null, makeNode().name("node-a").label("zone", "zone1").obj(), false),
        argumentSet("add node with related labels that match all topologySpreadConstraints",
            zoneAndNodeSpread(), null, makeNode().name("node-a").label("zone", "zone1").label("node", "node1").obj(),
            true),
        argumentSet("update node with related labels that only match one of topologySpreadConstraints",
            zoneAndNodeSpread(), makeNode().name("node-a").label("zone", "zone1").obj(),
            makeNode().name("node-a").label("zone", "zone1").obj(), false),
        argumentSet("update node with related labels that match all topologySpreadConstraints",
            zoneAndNodeSpread(), makeNode().name("node-a").label("zone", "zone1").label("node", "node1").obj(),
            makeNode().name("node-a").label("zone", "zone1").label("node", "node2").obj(), true),
        argumentSet("update node with different taints that match all topologySpreadConstraints",
            zoneAndNodeSpread(),
            makeNode().name("node-a").label("zone", "zone1").label("node", "node1").taints(taint("aaa")).obj(),
            makeNode().name("node-a").label("zone", "zone1").label("node", "node1").taints(taint("ccc")).obj(), true),
        argumentSet("update node with different taints that only match one of topologySpreadConstraints",
            zoneAndNodeSpread(), makeNode().name("node-a").label("node", "node1").taints(taint("aaa")).obj(),
            makeNode().name("node-a").label("node", "node1").taints(taint("ccc")).obj(), false));
  }

  @ParameterizedTest
  @MethodSource("nodeChanges")
  void isSchedulableAfterNodeChange(PodInfo pod, @Nullable NodeInfo before, NodeInfo after, boolean queue) {
    ClusterUpdate update = before == null
        ? new ClusterUpdate.NodeAdded(after)
        : new ClusterUpdate.NodeUpdated(before, after, Set.of(ClusterChange.NODE_LABELS, ClusterChange.NODE_TAINTS));
    assertEquals(queue, filter.isSchedulableAfter(pod, update));
  }

  // ---------------------------------------------------------------- Test_isSchedulableAfterAssignedPodChange

  static Stream<Arguments> assignedPodDeletions() {
    var pod = makePod().name("p").label("foo", "")
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj();
    return Stream.of(
        argumentSet("delete un-scheduled pod", pod, makePod().name("p2").label("foo", "").obj(), false),
        argumentSet("delete pod with labels that match topologySpreadConstraints selector",
            pod, makePod().name("p2").node("fake-node").label("foo", "").obj(), true),
        argumentSet("delete nominated pod with labels that don't match topologySpreadConstraints selector",
            pod, nominated(makePod().name("p2").label("bar", "").obj()), false),
        argumentSet("delete nominated pod with labels that match topologySpreadConstraints selector",
            pod, nominated(makePod().name("p2").label("foo", "").obj()), true),
        argumentSet("delete pod with labels that don't match topologySpreadConstraints selector",
            pod, makePod().name("p2").node("fake-node").label("bar", "").obj(), false));
  }

  @ParameterizedTest
  @MethodSource("assignedPodDeletions")
  void isSchedulableAfterAssignedPodDeleted(PodInfo pod, PodInfo deleted, boolean queue) {
    assertEquals(queue, filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(deleted)));
  }

  private static PodInfo nominated(PodInfo pod) {
    return pod.toBuilder().nominatedNodeName("fake-node").build();
  }

  // ---------------------------------------------------------------- beyond kube's cases

  @Test
  void aPodOfAnotherNamespaceDeletedNeverHelps() {
    var pod = makePod().name("p")
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj();
    var deleted = makePod().name("p2").namespace("other").node("fake-node").label("foo", "").obj();
    assertFalse(filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(deleted)));
  }

  @Test
  void onlyDoNotScheduleConstraintsCount() {
    var pod = makePod().name("p")
        .spreadConstraint(1, "zone", SCHEDULE_ANYWAY, barSelector, null, null, null, null)
        .spreadConstraint(1, "node", DO_NOT_SCHEDULE, fooSelector, null, null, null, null)
        .obj();
    assertFalse(filter.isSchedulableAfter(pod,
        new ClusterUpdate.NodeAdded(makeNode().name("node-a").label("zone", "zone1").obj())));
    assertFalse(filter.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(
        makePod().name("p2").node("fake-node").label("bar", "").obj())));
  }

  @Test
  void aNodeNowAdmittedOrNoLongerAdmittedByTheNodeSelectorMayHelpUnderHonor() {
    var honoring = makePod().name("p").nodeSelector(Map.of("tier", "a"))
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj();
    var ignoring = makePod().name("p").nodeSelector(Map.of("tier", "a"))
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, PodTopologySpreadFixtures.IGNORE, null, null)
        .obj();
    var before = makeNode().name("node-a").label("zone", "zone1").label("tier", "a").obj();
    var after = makeNode().name("node-a").label("zone", "zone1").label("tier", "b").obj();
    var update = new ClusterUpdate.NodeUpdated(before, after, Set.of(ClusterChange.NODE_LABELS));
    assertTrue(filter.isSchedulableAfter(honoring, update));
    assertFalse(filter.isSchedulableAfter(ignoring, update));
  }

  @Test
  void aPodUnderDefaultConstraintsIsRetriedOnEveryChange() {
    var defaults = new PodTopologySpreadFilter(PodTopologySpreadArgs.list(List.of(new TopologySpreadConstraint(
        1, "zone", DO_NOT_SCHEDULE, null, 1, PodTopologySpreadFixtures.HONOR, PodTopologySpreadFixtures.IGNORE,
        List.of()))));
    var pod = makePod().name("p").label("foo", "").obj();
    assertTrue(defaults.isSchedulableAfter(pod,
        new ClusterUpdate.NodeAdded(makeNode().name("node-a").label("foo", "bar").obj())));
    assertTrue(defaults.isSchedulableAfter(pod, new ClusterUpdate.AssignedPodDeleted(
        makePod().name("p2").node("fake-node").label("bar", "").obj())));
  }
}
