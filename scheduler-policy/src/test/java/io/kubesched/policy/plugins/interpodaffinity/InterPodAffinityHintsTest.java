package io.kubesched.policy.plugins.interpodaffinity;

import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.pod;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.selector;
import static io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.plugins.interpodaffinity.InterPodAffinityFixtures.Pod;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queueing hint cases of kube-scheduler's {@code interpodaffinity/plugin_test.go}, under kube's names: the
 * deletions of {@code Test_isSchedulableAfterAssignedPodChange} and every case of {@code
 * Test_isSchedulableAfterNodeChange}. Left out: that test's additions and updates of bound pods (a pod bound or
 * relabelled moves the waiting pod by its own hint, not through {@link InterPodAffinityFilter#isSchedulableAfter})
 * and {@code Test_isSchedulableAfterTargetPodUpdateLabel} (the waiting pod's own update, likewise). Two node
 * updates kube skips are retried here, as the filter's Javadoc says why; the cases say so.
 */
class InterPodAffinityHintsTest {

  private static final String FAKE_NODE = "fake-node";

  private final InterPodAffinityFilter filter = new InterPodAffinityFilter();

  // ---------------------------------------------------------------- Test_isSchedulableAfterAssignedPodChange

  static Stream<Arguments> assignedPodDeletions() {
    return Stream.of(
        argumentSet("delete a pod which doesn't match pod's anti-affinity",
            pod().name("p").antiAffinityIn("service", "region", "securityscan", "value2"),
            bound().label("aaa", "a").build(), false),
        argumentSet("delete a pod which matches pod's anti-affinity",
            pod().name("p").antiAffinityIn("service", "region", "securityscan", "value2"),
            bound().label("service", "securityscan").build(), true),
        argumentSet("delete a pod with anti-affinity that matches pending pod",
            pod().name("p").label("service", "securityscan"),
            bound().antiAffinityIn("service", "region", "securityscan", "value2").build(), true),
        argumentSet("delete a pod with anti-affinity that doesn't match pending pod",
            pod().name("p").label("service", "foo"),
            bound().antiAffinityIn("service", "region", "securityscan", "value2").build(), false),
        argumentSet(
            "delete a pod which doesn't match pending pod's anti-affinity and has anti-affinity that doesn't match "
                + "pending pod",
            pod().name("p").antiAffinityIn("service", "region", "securityscan", "value2").label("service", "foo"),
            bound().antiAffinityIn("service", "region", "securityscan", "value2").label("service", "foo").build(),
            false),
        argumentSet("delete a nominated pod which doesn't match pod's anti-affinity",
            pod().name("p").antiAffinityIn("service", "region", "securityscan", "value2"),
            nominated(pod().label("aaa", "a")), false),
        argumentSet("delete a nominated pod which matches pod's anti-affinity",
            pod().name("p").antiAffinityIn("service", "region", "securityscan", "value2"),
            nominated(pod().label("service", "securityscan")), true),
        argumentSet("delete a pod which matches only one of target pod's anti-affinity terms",
            pod().name("p").antiAffinityIn("service", "region", "securityscan").antiAffinityIn("app", "region", "web"),
            bound().label("service", "securityscan").build(), true),
        argumentSet("delete a pod with anti-affinity that matches pending pod on only one term",
            pod().name("p").label("service", "securityscan"),
            bound()
                .antiAffinityIn("service", "region", "securityscan")
                .antiAffinityIn("app", "region", "web")
                .build(),
            true));
  }

  @ParameterizedTest
  @MethodSource("assignedPodDeletions")
  void isSchedulableAfterAssignedPodDeleted(Pod pending, PodInfo deleted, boolean queue) {
    assertEquals(queue, filter.isSchedulableAfter(pending.build(), new ClusterUpdate.AssignedPodDeleted(deleted)));
  }

  static Stream<Arguments> deletionsWithoutKubeCase() {
    return Stream.of(
        argumentSet("a pod neither bound nor nominated, even one the anti-affinity selects",
            pod().name("p").antiAffinityIn("service", "region", "securityscan"),
            pod().label("service", "securityscan").build(), false),
        argumentSet("a pod of a namespace a namespace selector may select, which a hint cannot see",
            pod().name("p").antiAffinity(term(selector(InterPodAffinityFixtures.exists("service")), "region",
                Set.of(), LabelSelector.of(Map.of("team", "t1")))),
            bound().namespace("other").label("service", "x").build(), true),
        argumentSet("a pod of another namespace than the anti-affinity term's own",
            pod().name("p").antiAffinityIn("service", "region", "securityscan"),
            bound().namespace("other").label("service", "securityscan").build(), false),
        argumentSet("the last pod of a group the pending pod, matching its own affinity, would be the first of",
            pod().name("p").label("app", "web").affinityIn("app", "zone", "web"),
            bound().label("app", "web").build(), true),
        argumentSet("a pod matching the affinity of a pending pod that does not match it itself",
            pod().name("p").label("app", "db").affinityIn("app", "zone", "web"),
            bound().label("app", "web").build(), false),
        argumentSet("a pod whose anti-affinity term with a namespace selector may select the pending pod",
            pod().name("p").namespace("other").label("service", "securityscan"),
            bound().antiAffinity(term(selector(InterPodAffinityFixtures.in("service", "securityscan")), "region",
                Set.of(), LabelSelector.of(Map.of("team", "t1")))).build(), true));
  }

  @ParameterizedTest
  @MethodSource("deletionsWithoutKubeCase")
  void isSchedulableAfterAssignedPodDeletedBeyondKubeCases(Pod pending, PodInfo deleted, boolean queue) {
    assertEquals(queue, filter.isSchedulableAfter(pending.build(), new ClusterUpdate.AssignedPodDeleted(deleted)));
  }

  private static Pod bound() {
    return pod().name("other").node(FAKE_NODE);
  }

  private static PodInfo nominated(Pod pod) {
    return pod.build().toBuilder().nominatedNodeName(FAKE_NODE).build();
  }

  // ---------------------------------------------------------------- Test_isSchedulableAfterNodeChange

  private static final LabelSelector ANOTHER_LABEL = LabelSelector.of(Map.of("another", "label"));

  static Stream<Arguments> nodeChanges() {
    var affinityZone = pod().name("p").affinityIn("service", "zone", "securityscan", "value2");
    var antiAffinityZone = pod().name("p").antiAffinity(term(ANOTHER_LABEL, "zone"));
    return Stream.of(
        // affinity
        argumentSet("add a new node with matched pod affinity topologyKey",
            affinityZone, null, node(Map.of("zone", "zone1")), true),
        argumentSet("add a new node without matched topologyKey",
            pod().name("p").affinityIn("service", "region", "securityscan", "value2"),
            null, node(Map.of("zone", "zone1")), false),
        // kube: QueueSkip; a label with another value may take the node's pods out of an existing pod's
        // anti-affinity domain, which the hint cannot see
        argumentSet("update node label but not topologyKey",
            affinityZone, node(Map.of("aaa", "a")), node(Map.of("aaa", "b")), true),
        argumentSet("update node label that isn't related to the pod affinity",
            affinityZone, node(Map.of("zone", "zone1")),
            node(Map.of("zone", "zone1", "unrelated-label", "unrelated")), false),
        argumentSet("update node with different affinity topologyKey value",
            affinityZone, node(Map.of("zone", "zone1")), node(Map.of("zone", "zone2")), true),
        argumentSet("update node to have the affinity topology label",
            affinityZone, node(Map.of("aaa", "a")), node(Map.of("zone", "zone1")), true),
        // anti-affinity
        argumentSet("add a new node with matched pod anti-affinity topologyKey",
            antiAffinityZone, null, node(Map.of("zone", "zone1")), true),
        argumentSet("add a new node without matched pod anti-affinity topologyKey",
            antiAffinityZone, null, node(Map.of()), true),
        argumentSet("update node label that isn't related to the pod anti-affinity",
            antiAffinityZone, node(Map.of("zone", "zone1")),
            node(Map.of("zone", "zone1", "unrelated-label", "unrelated")), false),
        argumentSet("update node with different anti-affinity topologyKey value",
            antiAffinityZone, node(Map.of("zone", "zone1")), node(Map.of("zone", "zone2")), true),
        // kube: QueueSkip; the label the node lost may be an existing pod's anti-affinity topology key
        argumentSet("update node to have the anti-affinity topology label",
            antiAffinityZone, node(Map.of("aaa", "a")), node(Map.of("zone", "zone1")), true),
        argumentSet("update node label not to have anti-affinity topology label",
            antiAffinityZone, node(Map.of("zone", "zone1")), node(Map.of("aaa", "a")), true));
  }

  @ParameterizedTest
  @MethodSource("nodeChanges")
  void isSchedulableAfterNodeChange(Pod pending, @Nullable NodeInfo before, NodeInfo after, boolean queue) {
    ClusterUpdate update = before == null
        ? new ClusterUpdate.NodeAdded(after)
        : new ClusterUpdate.NodeUpdated(before, after, Set.of(ClusterChange.NODE_LABELS));
    assertEquals(queue, filter.isSchedulableAfter(pending.build(), update));
  }

  static Stream<Arguments> nodeChangesWithoutKubeCase() {
    var unconstrained = pod().name("p");
    return Stream.of(
        argumentSet("a node added, for a pod without terms of its own that existing pods' anti-affinity rejected",
            unconstrained, null, node(Map.of("zone", "zone1")), true),
        argumentSet("a node only given labels, for a pod without terms of its own",
            unconstrained, node(Map.of("zone", "zone1")), node(Map.of("zone", "zone1", "aaa", "a")), false),
        argumentSet("a node that lost a label, for a pod without terms of its own",
            unconstrained, node(Map.of("zone", "zone1")), node(Map.of()), true));
  }

  @ParameterizedTest
  @MethodSource("nodeChangesWithoutKubeCase")
  void isSchedulableAfterNodeChangeBeyondKubeCases(
      Pod pending, @Nullable NodeInfo before, NodeInfo after, boolean queue) {
    isSchedulableAfterNodeChange(pending, before, after, queue);
  }

  private static NodeInfo node(Map<String, String> labels) {
    return NodeInfo.builder("node-a").labels(labels).build();
  }
}
