package io.kubesched.policy.plugins.podtopologyspread;

import static io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The selector of the default constraints ({@code helper/spread_test.go}'s {@code TestGetPodServices} and
 * {@code TestDefaultSelector}, under kube's case names), what the plugins read, what they count, and the
 * filter's rejection as the {@link Policy} reports it.
 */
class PodTopologySpreadDefaultsTest {

  private static final String NS = "test";

  // ---------------------------------------------------------------- TestGetPodServices

  static Stream<Arguments> getPodServices() {
    return Stream.of(0, 1, 2, 3, 4).map(i -> Arguments.of("GetPodServices for pod-" + i, i));
  }

  /** Kube's services test-0..2 select app=test-i; pods 3 and 4 have no Service, hence no selector. */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void getPodServices(String name, int i) {
    var services = new ArrayList<WorkloadSelector>();
    for (int s = 0; s < 3; s++) {
      services.add(new WorkloadSelector(WorkloadSelector.Kind.SERVICE, NS, "service-" + s,
          LabelSelector.of(Map.of("app", "test-" + s))));
    }
    var pod = makePod().name("test-pod-" + i).namespace(NS).label("app", "test-" + i).label("label", "label-" + i)
        .obj();
    var selector = TopologySpreading.defaultSelector(pod, ClusterSnapshot.of(List.of(), Map.of(), services));
    assertEquals(i < 3 ? LabelSelector.of(Map.of("app", "test-" + i)) : LabelSelector.of(Map.of()), selector);
  }

  // ---------------------------------------------------------------- TestDefaultSelector

  private static final WorkloadSelector SERVICE = new WorkloadSelector(
      WorkloadSelector.Kind.SERVICE, NS, "test-service", LabelSelector.of(Map.of("podLabelKey", "podLabelVal")));
  private static final WorkloadSelector REPLICA_SET = new WorkloadSelector(
      WorkloadSelector.Kind.REPLICA_SET, NS, "test-replicaset",
      LabelSelector.of(Map.of("replicaSetLabelKey", "replicaSetLabelVal")));
  private static final WorkloadSelector REPLICATION_CONTROLLER = new WorkloadSelector(
      WorkloadSelector.Kind.REPLICATION_CONTROLLER, NS, "test-replicationcontroller",
      LabelSelector.of(Map.of("replicationLabelKey", "replicationLabelVal")));
  private static final WorkloadSelector STATEFUL_SET = new WorkloadSelector(
      WorkloadSelector.Kind.STATEFUL_SET, NS, "test-statefulset",
      LabelSelector.of(Map.of("statefulSetLabelKey", "statefulSetLabelVal")));

  /** Kube adds each case's objects to one shared store, so a case sees the objects of the cases before it. */
  static Stream<Arguments> defaultSelector() {
    var pod = makePod().name("test-pod").namespace(NS).label("podLabelKey", "podLabelVal");
    return Stream.of(
        Arguments.of("DefaultSelector for default case", pod.obj(), List.of(), Map.of()),
        Arguments.of("DefaultSelector for no OwnerReference pod case", pod.obj(), List.of(SERVICE),
            Map.of("podLabelKey", "podLabelVal")),
        Arguments.of("DefaultSelector for ReplicaSet OwnerReference pod case",
            makePod().name("test-pod").namespace(NS).label("podLabelKey", "podLabelVal")
                .ownerReference("test-replicaset", "ReplicaSet").obj(),
            List.of(SERVICE, REPLICA_SET),
            Map.of("podLabelKey", "podLabelVal", "replicaSetLabelKey", "replicaSetLabelVal")),
        Arguments.of("DefaultSelector for ReplicationController OwnerReference pod case",
            makePod().name("test-pod").namespace(NS).label("podLabelKey", "podLabelVal")
                .ownerReference("test-replicationcontroller", "ReplicationController").obj(),
            List.of(SERVICE, REPLICA_SET, REPLICATION_CONTROLLER),
            Map.of("podLabelKey", "podLabelVal", "replicationLabelKey", "replicationLabelVal")),
        Arguments.of("DefaultSelector for StatefulSet OwnerReference pod case",
            makePod().name("test-pod").namespace(NS).label("podLabelKey", "podLabelVal")
                .ownerReference("test-statefulset", "StatefulSet").obj(),
            List.of(SERVICE, REPLICA_SET, REPLICATION_CONTROLLER, STATEFUL_SET),
            Map.of("podLabelKey", "podLabelVal", "statefulSetLabelKey", "statefulSetLabelVal")));
  }

  /** Kube compares the selectors' string forms; here they are compared as sets of requirements. */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void defaultSelector(String name, PodInfo pod, List<WorkloadSelector> objects, Map<String, String> expect) {
    var selector = TopologySpreading.defaultSelector(pod, ClusterSnapshot.of(List.of(), Map.of(), objects));
    assertEquals(requirements(LabelSelector.of(expect)), requirements(selector));
  }

  // ---------------------------------------------------------------- beyond kube's tables

  @Test
  void aReplicationControllersLabelsWinOverAServicesOnTheSameKey() {
    var pod = makePod().name("p").namespace(NS).label("app", "a").ownerReference("rc", "ReplicationController").obj();
    var objects = List.of(
        new WorkloadSelector(WorkloadSelector.Kind.SERVICE, NS, "s", LabelSelector.of(Map.of("app", "a"))),
        new WorkloadSelector(WorkloadSelector.Kind.REPLICATION_CONTROLLER, NS, "rc", LabelSelector.of(Map.of("app", "b"))));
    assertEquals(LabelSelector.of(Map.of("app", "b")),
        TopologySpreading.defaultSelector(pod, ClusterSnapshot.of(List.of(), Map.of(), objects)));
  }

  @Test
  void aReplicaSetsExpressionsAreAddedToTheServicesLabels() {
    var pod = makePod().name("p").namespace(NS).label("app", "a").label("tier", "web").ownerReference("rs", "ReplicaSet")
        .obj();
    var rsSelector = makeLabelSelector().label("app", "a").in("tier", List.of("web", "api")).obj();
    var objects = List.of(
        new WorkloadSelector(WorkloadSelector.Kind.SERVICE, NS, "s", LabelSelector.of(Map.of("app", "a"))),
        new WorkloadSelector(WorkloadSelector.Kind.REPLICA_SET, NS, "rs", rsSelector));
    var selector = TopologySpreading.defaultSelector(pod, ClusterSnapshot.of(List.of(), Map.of(), objects));
    assertEquals(Map.of("app", "a"), selector.matchLabels());
    assertEquals(
        Set.of(LabelSelectorRequirement.of("app", LabelSelectorRequirement.Operator.IN, "a"),
            LabelSelectorRequirement.of("tier", LabelSelectorRequirement.Operator.IN, "web", "api")),
        Set.copyOf(selector.matchExpressions()));
  }

  @Test
  void objectsOfOtherNamespacesOrNamesOrAnOwnerOfAnotherKindGiveNoSelector() {
    var objects = List.of(
        new WorkloadSelector(WorkloadSelector.Kind.SERVICE, "other", "s", LabelSelector.of(Map.of("app", "a"))),
        new WorkloadSelector(WorkloadSelector.Kind.REPLICA_SET, NS, "rs", LabelSelector.of(Map.of("app", "a"))));
    var cluster = ClusterSnapshot.of(List.of(), Map.of(), objects);
    for (var owner : List.of(List.of("rs-2", "ReplicaSet"), List.of("rs", "Deployment"), List.of("rs", "StatefulSet"))) {
      var pod = makePod().name("p").namespace(NS).label("app", "a").ownerReference(owner.get(0), owner.get(1)).obj();
      assertTrue(TopologySpreading.defaultSelector(pod, cluster).isEmpty(), owner.toString());
    }
  }

  @Test
  void listedDefaultConstraintsGetTheSelectorAndAreSplitByAction() {
    var args = PodTopologySpreadArgs.list(List.of(
        defaultConstraint(1, "zone", DO_NOT_SCHEDULE).api(), defaultConstraint(2, HOSTNAME, SCHEDULE_ANYWAY).api()));
    var service = new WorkloadSelector(WorkloadSelector.Kind.SERVICE, NS, "s", LabelSelector.of(Map.of("app", "a")));
    var n1 = makeNode().name("n1").label("zone", "z1").label(HOSTNAME, "n1").obj();
    var n2 = makeNode().name("n2").label("zone", "z2").label(HOSTNAME, "n2").obj();
    var placed = makePod().name("q").namespace(NS).label("app", "a").node("n1").obj();
    var cluster = ClusterSnapshot.of(List.of(n1.withPod(placed), n2), Map.of(), List.of(service));
    var pod = makePod().name("p").namespace(NS).label("app", "a").obj();

    var filter = assertInstanceOf(PodTopologySpreadFilter.Prepared.class,
        new PodTopologySpreadFilter(args).prepare(pod, cluster));
    assertConstraints(List.of(tsc(1, "zone", LabelSelector.of(Map.of("app", "a")), 1, HONOR, IGNORE)),
        filter.constraints());
    assertEquals(Code.UNSCHEDULABLE, filter.filter(pod, cluster.nodes().get(0)).code());
    assertEquals(Code.SUCCESS, filter.filter(pod, cluster.nodes().get(1)).code());

    var scorer = assertInstanceOf(PodTopologySpreadScorer.Prepared.class,
        new PodTopologySpreadScorer(args).prepare(pod, cluster.nodes(), cluster));
    assertConstraints(List.of(tsc(2, HOSTNAME, LabelSelector.of(Map.of("app", "a")), 1, HONOR, IGNORE)),
        scorer.constraints());
  }

  @Test
  void readsWorkloadSelectorsOnlyWithDefaultConstraintsItUses() {
    var all = Set.of(ClusterData.SERVICES, ClusterData.REPLICATION_CONTROLLERS,
        ClusterData.REPLICA_SETS, ClusterData.STATEFUL_SETS);
    // The system defaults are all ScheduleAnyway: only the scorer uses them.
    assertEquals(Set.of(), new PodTopologySpreadFilter().reads());
    assertEquals(all, new PodTopologySpreadScorer().reads());
    assertEquals(Set.of(), new PodTopologySpreadFilter(PodTopologySpreadArgs.list(List.of())).reads());
    assertEquals(all, new PodTopologySpreadFilter(
        PodTopologySpreadArgs.list(List.of(defaultConstraint(1, "zone", DO_NOT_SCHEDULE).api()))).reads());
    assertEquals(Set.of(), new PodTopologySpreadFilter(
        PodTopologySpreadArgs.list(List.of(defaultConstraint(1, "zone", SCHEDULE_ANYWAY).api()))).reads());
  }

  @Test
  void podsBeingDeletedAndPodsOfOtherNamespacesAreNotCounted() {
    var node = makeNode().name("n1").label("zone", "z1").obj();
    var other = makeNode().name("n2").label("zone", "z2").obj();
    node = node
        .withPod(makePod().name("gone").label("foo", "").node("n1").terminating().obj())
        .withPod(makePod().name("elsewhere").namespace("ns2").label("foo", "").node("n1").obj());
    var cluster = ClusterSnapshot.of(List.of(node, other));
    var pod = makePod().name("p").label("foo", "")
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj();
    var prepared = assertInstanceOf(PodTopologySpreadFilter.Prepared.class,
        new PodTopologySpreadFilter().prepare(pod, cluster));
    assertEquals(Map.of("z1", 0, "z2", 0), prepared.state().counts().get(0));

    var counted = node.withPod(makePod().name("here").label("foo", "").node("n1").obj());
    var again = assertInstanceOf(PodTopologySpreadFilter.Prepared.class,
        new PodTopologySpreadFilter().prepare(pod, ClusterSnapshot.of(List.of(counted, other))));
    assertEquals(Map.of("z1", 1, "z2", 0), again.state().counts().get(0));
    var rejection = assertInstanceOf(FilterResult.Rejected.class, again.filter(pod, counted));
    assertEquals(new PodTopologySpreadFilter.SkewExceeded("zone", "z1", 1, true, 0, 1), rejection.reasons().get(0));
  }

  @Test
  void aPodWithoutConstraintsAndWithoutSelectorIsNotConstrained() {
    var node = makeNode().name("n1").obj();
    var pod = makePod().name("p").label("foo", "").obj();
    var cluster = ClusterSnapshot.of(List.of(node));
    assertEquals(Code.SUCCESS, new PodTopologySpreadFilter().prepare(pod, cluster).filter(pod, node).code());
    var scorer = new PodTopologySpreadScorer().prepare(pod, List.of(node), cluster);
    assertEquals(0, scorer.score(pod, node));
  }

  // ---------------------------------------------------------------- through the Policy

  @Test
  void thePolicyReportsKubesMessagesForSkewAndMissingLabels() {
    var pod = makePod().name("p").label("foo", "")
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, null, null, null, null).obj();
    var zone1 = makeNode().name("node-a").label("zone", "zone1").obj()
        .withPod(makePod().name("p-a1").label("foo", "").node("node-a").obj());
    var zone2 = makeNode().name("node-b").label("zone", "zone2").obj();
    var unlabelled = makeNode().name("node-c").obj();
    var policy = Policy.builder().filter(new PodTopologySpreadFilter()).seed(1).build();

    var decision = policy.find(pod, ClusterSnapshot.of(List.of(zone1, zone2, unlabelled)));
    assertEquals(new Decision.Bind("node-b"), decision);

    // One pod in each of the two zones, but minDomains 3: the global minimum is 0, and both zones are full.
    var strict = makePod().name("p").label("foo", "")
        .spreadConstraint(1, "zone", DO_NOT_SCHEDULE, fooSelector, 3, null, null, null).obj();
    var both = List.<NodeInfo>of(
        zone1, zone2.withPod(makePod().name("p-b1").label("foo", "").node("node-b").obj()), unlabelled);
    var unschedulable = assertInstanceOf(Decision.Unschedulable.class, policy.find(strict, ClusterSnapshot.of(both)));
    assertEquals(
        "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), "
            + "2 node(s) didn't match pod topology spread constraints.",
        unschedulable.message(3));
  }
}
