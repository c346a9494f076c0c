package io.kubesched.policy;

import static io.kubesched.policy.PreemptionFixtures.HIGH;
import static io.kubesched.policy.PreemptionFixtures.LARGE;
import static io.kubesched.policy.PreemptionFixtures.LOW;
import static io.kubesched.policy.PreemptionFixtures.MEDIUM;
import static io.kubesched.policy.PreemptionFixtures.MID;
import static io.kubesched.policy.PreemptionFixtures.NEG;
import static io.kubesched.policy.PreemptionFixtures.SMALL;
import static io.kubesched.policy.PreemptionFixtures.VERY_HIGH;
import static io.kubesched.policy.PreemptionFixtures.VERY_LARGE;
import static io.kubesched.policy.PreemptionFixtures.epoch;
import static io.kubesched.policy.PreemptionFixtures.exists;
import static io.kubesched.policy.PreemptionFixtures.names;
import static io.kubesched.policy.PreemptionFixtures.node;
import static io.kubesched.policy.PreemptionFixtures.offsets;
import static io.kubesched.policy.PreemptionFixtures.pdb;
import static io.kubesched.policy.PreemptionFixtures.pod;
import static io.kubesched.policy.PreemptionFixtures.prepare;
import static io.kubesched.policy.PreemptionFixtures.snapshot;
import static io.kubesched.policy.PreemptionFixtures.statuses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.PreemptionFixtures.FakeFilter;
import io.kubesched.policy.PreemptionFixtures.Res;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.runtime.NodeStatuses;
import io.kubesched.policy.plugins.Filters;
import io.kubesched.policy.plugins.podtopologyspread.PodTopologySpreadFilter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler 1.37's {@code pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go},
 * ported under kube's case names: {@code TestPostFilter}, {@code TestDryRunPreemption}, {@code
 * TestSelectBestCandidate}, {@code TestSelectVictimsOnNode}, {@code TestPodEligibleToPreemptOthers} and the
 * decision part of {@code TestPreempt}.
 *
 * <p>Kube's pods without a namespace are in {@value PreemptionFixtures#NS} here, with their budgets: the
 * namespace only has to be the same. Where kube hands a function every node (its dry-run tests pass all nodes
 * as potential ones, sorted by name), so do these. Kube's seeded offsets ({@code rand.NewSource(4)}: 4, 1, 3 for
 * five nodes) are passed as they are; where every node is evaluated the offset changes nothing.
 *
 * <p>Not expressible, and why:
 *
 * <ul>
 *   <li>{@code TestPostFilter}: "preemption result filtered out by extenders" (no extenders); "only one node but
 *       failed with TestPlugin" and "one failed with TestPlugin and the other pass" (a {@link
 *       PodTracking.Tracker}'s {@code addPod}/{@code removePod} cannot fail: they only count); "pod with
 *       SchedulingGroup with GenericWorkload and TAS disabled should preempt" (no scheduling groups in the
 *       model); the three "deferred pod resize preemption" cases (no in-place resize).
 *   <li>{@code TestDryRunPreemption}: the three "Preemption with DRA Node Allocatable" cases (no dynamic
 *       resource allocation).
 *   <li>{@code TestSelectVictimsOnNode}: the eight "Workload Aware" and five "Cross-node PodGroup" cases (no pod
 *       groups: every victim is one pod).
 *   <li>{@code TestPodEligibleToPreemptOthers}: the five "Preemptor with SchedulingGroup" cases (no pod groups).
 *   <li>{@code TestPreempt}: the four extender cases (no extenders). The victims' deletion and the
 *       DisruptionTarget condition belong to the loop (scheduler-informer); here the decision names them.
 * </ul>
 */
class DefaultPreemptionTest {

  private static final Res ONE_POD = new Res(0, 0);
  private static final Res NODE_RES = new Res(200, 400);
  private static final String VIOLATING_KEY = "test.kubernetes.io/is-violating-pdb";

  private static final Preemption DEFAULT = new Preemption(PreemptionArgs.DEFAULT);

  // ---------------------------------------------------------------------------------------------------------
  // TestPostFilter

  /**
   * A case of kube's {@code TestPostFilter}: the PostFilter's message and result (the nominated node, "" to
   * clear, null to keep).
   */
  record PostFilterCase(
      String name,
      PodInfo pod,
      List<PodInfo> pods,
      List<PodDisruptionBudget> pdbs,
      List<NodeInfo.Builder> nodes,
      NodeStatuses statuses,
      String wantNomination,
      String wantMessage) {}

  static Stream<Arguments> postFilterCases() {
    var cases = new ArrayList<PostFilterCase>();
    cases.add(new PostFilterCase(
        "pod with higher priority can be made schedulable",
        pod("p").priority(HIGH).obj(),
        List.of(pod("p1").node("node1").obj()),
        List.of(),
        List.of(node("node1", ONE_POD, 1)),
        statuses(Map.of("node1", Code.UNSCHEDULABLE)),
        "node1",
        "preemption: found a potential placement for pod on node node1, preempting 1 victims"));
    cases.add(new PostFilterCase(
        "pod with tied priority is still unschedulable",
        pod("p").obj(),
        List.of(pod("p1").node("node1").obj()),
        List.of(),
        List.of(node("node1", ONE_POD, 1)),
        statuses(Map.of("node1", Code.UNSCHEDULABLE)),
        "",
        "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."));
    cases.add(new PostFilterCase(
        "preemption should respect filteredNodesStatuses",
        pod("p").priority(HIGH).obj(),
        List.of(pod("p1").node("node1").obj()),
        List.of(),
        List.of(node("node1", ONE_POD, 1)),
        statuses(Map.of("node1", Code.UNSCHEDULABLE_AND_UNRESOLVABLE)),
        "",
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."));
    cases.add(new PostFilterCase(
        "preemption should respect absent NodeToStatusReader entry meaning UnschedulableAndUnresolvable",
        pod("p").priority(HIGH).obj(),
        List.of(pod("p1").node("node1").obj()),
        List.of(),
        List.of(node("node1", ONE_POD, 1)),
        statuses(Map.of()),
        "",
        "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."));
    cases.add(new PostFilterCase(
        "pod can be made schedulable on one node",
        pod("p").priority(MID).obj(),
        List.of(pod("p1").priority(HIGH).node("node1").obj(), pod("p2").priority(LOW).node("node2").obj()),
        List.of(),
        List.of(node("node1", ONE_POD, 1), node("node2", ONE_POD, 1)),
        statuses(Map.of("node1", Code.UNSCHEDULABLE, "node2", Code.UNSCHEDULABLE)),
        "node2",
        "preemption: found a potential placement for pod on node node2, preempting 1 victims"));
    cases.add(new PostFilterCase(
        "pod can be made schedulable on minHighestPriority node",
        pod("p").priority(VERY_HIGH).obj(),
        List.of(
            pod("p1").label(VIOLATING_KEY, "non-violating").priority(HIGH).node("node1").obj(),
            pod("p2").label(VIOLATING_KEY, "violating").priority(LOW).node("node1").obj(),
            pod("p3").label(VIOLATING_KEY, "violating").priority(MID).node("node2").obj()),
        List.of(
            // minAvailable 100%: the disruption controller allows none.
            pdb(Map.of(VIOLATING_KEY, "violating"), 0),
            pdb(Map.of(VIOLATING_KEY, "non-violating"), Integer.MAX_VALUE)),
        List.of(node("node1", ONE_POD, 1), node("node2", ONE_POD, 1)),
        statuses(Map.of("node1", Code.UNSCHEDULABLE, "node2", Code.UNSCHEDULABLE)),
        "node2",
        "preemption: found a potential placement for pod on node node2, preempting 1 victims"));
    cases.add(new PostFilterCase(
        "no candidate nodes found, no enough resource after removing low priority pods",
        pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").obj()),
        List.of(),
        List.of(node("node1", NODE_RES), node("node2", NODE_RES)),
        statuses(Map.of("node1", Code.UNSCHEDULABLE, "node2", Code.UNSCHEDULABLE)),
        "",
        "preemption: 0/2 nodes are available: 2 Insufficient cpu."));
    cases.add(new PostFilterCase(
        "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource",
        pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(
            pod("p1").node("node1").priority(HIGH).obj(),
            pod("p2").node("node2").obj(),
            pod("p3").node("node3").priority(HIGH).obj()),
        List.of(),
        List.of(node("node1", ONE_POD, 1), node("node2", NODE_RES), node("node3", ONE_POD, 1)),
        statuses(Map.of("node1", Code.UNSCHEDULABLE, "node2", Code.UNSCHEDULABLE, "node3", Code.UNSCHEDULABLE)),
        "",
        "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming"
            + " pod."));
    cases.add(new PostFilterCase(
        "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have"
            + " enough CPU resource",
        pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pod("p1").node("node1").obj(), pod("p2").node("node2").obj()),
        List.of(),
        List.of(node("node1", NODE_RES), node("node2", NODE_RES), node("node3", NODE_RES), node("node4", NODE_RES)),
        statuses(
            Map.of(
                "node1", Code.UNSCHEDULABLE,
                "node2", Code.UNSCHEDULABLE,
                "node4", Code.UNSCHEDULABLE_AND_UNRESOLVABLE)),
        "",
        "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling."));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("postFilterCases")
  void TestPostFilter(String name, PostFilterCase c) {
    var cluster = snapshot(c.nodes(), c.pods()).withDisruptionBudgets(c.pdbs());
    var prepared = prepare(List.of(Filters.resourcesFit()), c.pod(), cluster);

    var result = DEFAULT.evaluate(c.pod(), cluster, prepared, c.statuses(), offsets(0));

    assertEquals(c.wantMessage(), result.message());
    if (c.wantNomination().isEmpty()) {
      assertEquals(Nomination.CLEAR, result.nomination());
    } else {
      var to = assertInstanceOf(Nomination.To.class, result.nomination());
      assertEquals(c.wantNomination(), to.nodeName());
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // TestDryRunPreemption

  /** One expected candidate: its node, its victims' names sorted, its budget violations. */
  record Want(String node, List<String> victims, int pdbViolations) {
    static Want of(String node, String... victims) {
      return new Want(node, List.of(victims), 0);
    }

    Want violations(int count) {
      return new Want(node, victims, count);
    }
  }

  /**
   * A case of kube's {@code TestDryRunPreemption}: one preemptor per cycle, the candidates of each cycle (sorted
   * by node, victims by name) and how often the fake filter was called in each.
   */
  record DryRunCase(
      String name,
      PreemptionArgs args,
      List<String> nodeNames,
      List<PodInfo> testPods,
      List<PodInfo> initPods,
      List<Filter> filters,
      List<PodDisruptionBudget> pdbs,
      Code fakeFilterCode,
      int[] offsets,
      List<List<Want>> expected,
      List<Integer> expectedNumFilterCalled) {}

  private static DryRunCase dryRun(
      String name, List<String> nodes, List<PodInfo> testPods, List<PodInfo> initPods, List<Filter> filters,
      List<List<Want>> expected, Integer... calls) {
    return new DryRunCase(
        name, PreemptionArgs.DEFAULT, nodes, testPods, initPods, filters, List.of(), Code.SUCCESS, new int[] {0},
        expected, List.of(calls));
  }

  private static DryRunCase withPdbs(DryRunCase c, List<PodDisruptionBudget> pdbs) {
    return new DryRunCase(
        c.name(), c.args(), c.nodeNames(), c.testPods(), c.initPods(), c.filters(), pdbs, c.fakeFilterCode(),
        c.offsets(), c.expected(), c.expectedNumFilterCalled());
  }

  private static DryRunCase withFakeCode(DryRunCase c, Code code) {
    return new DryRunCase(
        c.name(), c.args(), c.nodeNames(), c.testPods(), c.initPods(), c.filters(), c.pdbs(), code, c.offsets(),
        c.expected(), c.expectedNumFilterCalled());
  }

  private static DryRunCase withArgs(DryRunCase c, PreemptionArgs args, int... offsets) {
    return new DryRunCase(
        c.name(), args, c.nodeNames(), c.testPods(), c.initPods(), c.filters(), c.pdbs(), c.fakeFilterCode(),
        offsets, c.expected(), c.expectedNumFilterCalled());
  }

  static Stream<Arguments> dryRunCases() {
    var fit = List.<Filter>of(Filters.resourcesFit());
    var twoNodes = List.of("node1", "node2");
    var fiveNodes = List.of("node1", "node2", "node3", "node4", "node5");
    var appFoo = Map.of("app", "foo");
    var cases = new ArrayList<DryRunCase>();
    cases.add(dryRun(
        "a pod that does not fit on any node",
        twoNodes,
        List.of(pod("p").priority(HIGH).obj()),
        List.of(pod("p1").node("node1").priority(MID).obj(), pod("p2").node("node2").priority(MID).obj()),
        List.of(PreemptionFixtures.falseFilter()),
        List.of(List.of()),
        2));
    cases.add(withFakeCode(dryRun(
        "a pod that fits with no preemption",
        twoNodes,
        List.of(pod("p").priority(HIGH).obj()),
        List.of(pod("p1").node("node1").priority(MID).obj(), pod("p2").node("node2").priority(MID).obj()),
        List.of(PreemptionFixtures.trueFilter()),
        List.of(List.of()),
        2), Code.UNSCHEDULABLE));
    cases.add(withFakeCode(dryRun(
        "a pod that fits on one node with no preemption",
        twoNodes,
        // Named as the node to fit MatchFilter.
        List.of(pod("node1").priority(HIGH).obj()),
        List.of(pod("p1").node("node1").priority(MID).obj(), pod("p2").node("node2").priority(MID).obj()),
        List.of(PreemptionFixtures.matchFilter()),
        List.of(List.of()),
        2), Code.UNSCHEDULABLE));
    cases.add(dryRun(
        "a pod that fits on both nodes when lower priority pods are preempted",
        twoNodes,
        List.of(pod("p").priority(HIGH).req(LARGE).obj()),
        List.of(
            pod("p1").node("node1").priority(MID).req(LARGE).obj(),
            pod("p2").node("node2").priority(MID).req(LARGE).obj()),
        fit,
        List.of(List.of(Want.of("node1", "p1"), Want.of("node2", "p2"))),
        4));
    cases.add(dryRun(
        "a pod that would fit on the nodes, but other pods running are higher priority, no preemption would happen",
        twoNodes,
        List.of(pod("p").priority(LOW).req(LARGE).obj()),
        List.of(
            pod("p1").node("node1").priority(MID).req(LARGE).obj(),
            pod("p2").node("node2").priority(MID).req(LARGE).obj()),
        fit,
        List.of(List.of()),
        0));
    cases.add(dryRun(
        "medium priority pod is preempted, but lower priority one stays as it is small",
        twoNodes,
        List.of(pod("p").priority(HIGH).req(LARGE).obj()),
        List.of(
            pod("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p1.2").node("node1").priority(MID).req(LARGE).obj(),
            pod("p2").node("node2").priority(MID).req(LARGE).obj()),
        fit,
        List.of(List.of(Want.of("node1", "p1.2"), Want.of("node2", "p2"))),
        5));
    cases.add(dryRun(
        "mixed priority pods are preempted",
        twoNodes,
        List.of(pod("p").priority(HIGH).req(LARGE).obj()),
        List.of(
            pod("p1.1").node("node1").priority(MID).req(SMALL).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p1.3").node("node1").priority(MID).req(MEDIUM).obj(),
            pod("p1.4").node("node1").priority(HIGH).req(SMALL).obj(),
            pod("p2").node("node2").priority(HIGH).req(LARGE).obj()),
        fit,
        List.of(List.of(Want.of("node1", "p1.2", "p1.3"))),
        4));
    cases.add(dryRun(
        "mixed priority pods are preempted, pick later StartTime one when priorities are equal",
        twoNodes,
        List.of(pod("p").priority(HIGH).req(LARGE).obj()),
        List.of(
            pod("p1.1").node("node1").priority(LOW).req(SMALL).startTime(epoch(5)).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).startTime(epoch(4)).obj(),
            pod("p1.3").node("node1").priority(MID).req(MEDIUM).startTime(epoch(3)).obj(),
            pod("p1.4").node("node1").priority(HIGH).req(SMALL).startTime(epoch(2)).obj(),
            pod("p2").node("node2").priority(HIGH).req(LARGE).startTime(epoch(1)).obj()),
        fit,
        List.of(List.of(Want.of("node1", "p1.1", "p1.3"))),
        4)); // no preemption would happen on node2 and no filter call is counted.
    cases.add(withFakeCode(dryRun(
        "get Unschedulable in the preemption phase when the filter plugins filtering the nodes",
        twoNodes,
        List.of(pod("p").priority(HIGH).req(LARGE).obj()),
        List.of(
            pod("p1").node("node1").priority(MID).req(LARGE).obj(),
            pod("p2").node("node2").priority(MID).req(LARGE).obj()),
        fit,
        List.of(List.of()),
        2), Code.UNSCHEDULABLE));
    var twoFoo = List.of(
        pod("p1.1").node("node1").label("app", "foo").priority(MID).req(MEDIUM).obj(),
        pod("p1.2").node("node1").label("app", "foo").priority(MID).req(MEDIUM).obj());
    cases.add(withPdbs(dryRun(
        "preemption with violation of same pdb",
        List.of("node1"),
        List.of(pod("p").priority(HIGH).req(VERY_LARGE).obj()),
        twoFoo,
        fit,
        List.of(List.of(Want.of("node1", "p1.1", "p1.2").violations(1))),
        3), List.of(pdb(appFoo, 1))));
    cases.add(withPdbs(dryRun(
        "preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't belong to"
            + " DisruptedPods",
        List.of("node1"),
        List.of(pod("p").priority(HIGH).req(VERY_LARGE).obj()),
        twoFoo,
        fit,
        List.of(List.of(Want.of("node1", "p1.1", "p1.2").violations(1))),
        3), List.of(pdb(appFoo, 1, "p2"))));
    cases.add(withPdbs(dryRun(
        "preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to"
            + " DisruptedPods",
        List.of("node1"),
        List.of(pod("p").priority(HIGH).req(VERY_LARGE).obj()),
        twoFoo,
        fit,
        List.of(List.of(Want.of("node1", "p1.1", "p1.2"))),
        3), List.of(pdb(appFoo, 1, "p1.2"))));
    cases.add(withPdbs(dryRun(
        "preemption with violation of the pdb with pod whose eviction was processed, the victim which belongs to"
            + " DisruptedPods is treated as 'nonViolating'",
        List.of("node1"),
        List.of(pod("p").priority(HIGH).req(VERY_LARGE).obj()),
        List.of(
            pod("p1.1").node("node1").label("app", "foo").priority(MID).req(MEDIUM).obj(),
            pod("p1.2").node("node1").label("app", "foo").priority(MID).req(MEDIUM).obj(),
            pod("p1.3").node("node1").label("app", "foo").priority(MID).req(MEDIUM).obj()),
        fit,
        List.of(List.of(Want.of("node1", "p1.1", "p1.2", "p1.3").violations(1))),
        4), List.of(pdb(appFoo, 1, "p1.3"))));
    var fivePods = List.of(
        pod("p1").node("node1").priority(MID).req(LARGE).obj(),
        pod("p2").node("node2").priority(MID).req(LARGE).obj(),
        pod("p3").node("node3").priority(MID).req(LARGE).obj(),
        pod("p4").node("node4").priority(MID).req(LARGE).obj(),
        pod("p5").node("node5").priority(MID).req(LARGE).obj());
    var fortyOne = new PreemptionArgs(40, 1);
    cases.add(withArgs(dryRun(
        "all nodes are possible candidates, but DefaultPreemptionArgs limits to 2",
        fiveNodes,
        List.of(pod("p").priority(HIGH).req(LARGE).obj()),
        fivePods,
        fit,
        // cycle=0 => offset=4 => node5 (yes), node1 (yes)
        List.of(List.of(Want.of("node1", "p1"), Want.of("node5", "p5"))),
        4), fortyOne, 4));
    cases.add(withArgs(dryRun(
        "some nodes are not possible candidates, DefaultPreemptionArgs limits to 2",
        fiveNodes,
        List.of(pod("p").priority(HIGH).req(LARGE).obj()),
        List.of(
            pod("p1").node("node1").priority(MID).req(LARGE).obj(),
            pod("p2").node("node2").priority(VERY_HIGH).req(LARGE).obj(),
            pod("p3").node("node3").priority(MID).req(LARGE).obj(),
            pod("p4").node("node4").priority(MID).req(LARGE).obj(),
            pod("p5").node("node5").priority(VERY_HIGH).req(LARGE).obj()),
        fit,
        // cycle=0 => offset=4 => node5 (no), node1 (yes), node2 (no), node3 (yes)
        List.of(List.of(Want.of("node1", "p1"), Want.of("node3", "p3"))),
        4), fortyOne, 4));
    cases.add(withArgs(dryRun(
        "preemption offset across multiple scheduling cycles and wrap around",
        fiveNodes,
        List.of(
            pod("tp1").priority(HIGH).req(LARGE).obj(),
            pod("tp2").priority(HIGH).req(LARGE).obj(),
            pod("tp3").priority(HIGH).req(LARGE).obj()),
        fivePods,
        fit,
        List.of(
            // cycle=0 => offset=4 => node5 (yes), node1 (yes)
            List.of(Want.of("node1", "p1"), Want.of("node5", "p5")),
            // cycle=1 => offset=1 => node2 (yes), node3 (yes)
            List.of(Want.of("node2", "p2"), Want.of("node3", "p3")),
            // cycle=2 => offset=3 => node4 (yes), node5 (yes)
            List.of(Want.of("node4", "p4"), Want.of("node5", "p5"))),
        4, 4, 4), fortyOne, 4, 1, 3));
    cases.add(withPdbs(withArgs(dryRun(
        "preemption looks past numCandidates until a non-PDB violating node is found",
        fiveNodes,
        List.of(pod("p").priority(HIGH).req(LARGE).obj()),
        List.of(
            pod("p1").node("node1").label("app", "foo").priority(MID).req(LARGE).obj(),
            pod("p2").node("node2").label("app", "foo").priority(MID).req(LARGE).obj(),
            pod("p3").node("node3").priority(MID).req(LARGE).obj(),
            pod("p4").node("node4").priority(MID).req(LARGE).obj(),
            pod("p5").node("node5").label("app", "foo").priority(MID).req(LARGE).obj()),
        fit,
        // cycle=0 => offset=4 => node5 (yes, pdb), node1 (yes, pdb), node2 (no, pdb), node3 (yes)
        List.of(List.of(
            Want.of("node1", "p1").violations(1), Want.of("node3", "p3"), Want.of("node5", "p5").violations(1))),
        8), new PreemptionArgs(40, 2), 4), List.of(pdb(appFoo, 0))));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  /** The cases that need the prepared filters' trackers: inter-pod anti-affinity and topology spreading. */
  static Stream<Arguments> dryRunTrackerCases() {
    var twoNodes = List.of("node1", "node2");
    var cases = new ArrayList<DryRunCase>();
    cases.add(dryRun(
        "pod with anti-affinity is preempted",
        twoNodes,
        List.of(pod("p").label("foo", "").priority(HIGH).req(SMALL).obj()),
        List.of(
            pod("p1.1").node("node1").label("foo", "").priority(LOW).req(SMALL)
                .podAntiAffinityExists("foo", "hostname").obj(),
            pod("p1.2").node("node1").priority(MID).req(SMALL).obj(),
            pod("p1.3").node("node1").priority(HIGH).req(SMALL).obj(),
            pod("p2").node("node2").priority(HIGH).req(SMALL).obj()),
        List.of(Filters.resourcesFit(), Filters.interPodAffinity()),
        List.of(List.of(Want.of("node1", "p1.1"))),
        3)); // no preemption would happen on node2 and no filter call is counted.
    cases.add(dryRun(
        "preemption to resolve pod topology spread filter failure",
        List.of("node-a/zone1", "node-b/zone1", "node-x/zone2"),
        List.of(
            pod("p").label("foo", "").priority(HIGH)
                .spreadConstraint(1, "zone", exists("foo"))
                .spreadConstraint(1, "hostname", exists("foo"))
                .obj()),
        List.of(
            pod("pod-a1").node("node-a").label("foo", "").priority(MID).obj(),
            pod("pod-a2").node("node-a").label("foo", "").priority(LOW).obj(),
            pod("pod-b1").node("node-b").label("foo", "").priority(LOW).obj(),
            pod("pod-x1").node("node-x").label("foo", "").priority(HIGH).obj(),
            pod("pod-x2").node("node-x").label("foo", "").priority(HIGH).obj()),
        List.of(Filters.podTopologySpread()),
        List.of(List.of(Want.of("node-a", "pod-a2"), Want.of("node-b", "pod-b1"))),
        5)); // node-a (3), node-b (2), node-x (0)
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dryRunTrackerCases")
  void TestDryRunPreemption_with_trackers(String name, DryRunCase c) {
    TestDryRunPreemption(name, c);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dryRunCases")
  void TestDryRunPreemption(String name, DryRunCase c) {
    var codes = new HashMap<String, Code>();
    c.nodeNames().forEach(n -> codes.put(n.split("/")[0], c.fakeFilterCode()));
    var fake = new FakeFilter(codes);
    var filters = new ArrayList<Filter>();
    filters.add(fake);
    filters.addAll(c.filters());
    var cluster =
        snapshot(c.nodeNames().stream().map(n -> node(n, VERY_LARGE)).toList(), c.initPods())
            .withDisruptionBudgets(c.pdbs());
    var nodes = cluster.nodes().stream().sorted(Comparator.comparing(NodeInfo::name)).toList();
    var preemption = new Preemption(c.args());
    var offsets = offsets(c.offsets());
    for (int cycle = 0; cycle < c.testPods().size(); cycle++) {
      var pod = c.testPods().get(cycle);
      int before = fake.calls.get();
      var prepared = prepare(filters, pod, cluster);
      var dryRun =
          preemption.dryRun(
              pod, cluster, prepared, nodes, offsets.nextInt(nodes.size()),
              c.args().candidatesWanted(nodes.size()));
      var got =
          dryRun.candidates().stream()
              .map(cand -> new Want(cand.node(), names(cand.victims()).stream().sorted().toList(),
                  cand.pdbViolations()))
              .sorted(Comparator.comparing(Want::node))
              .toList();
      assertEquals(c.expected().get(cycle), got, "cycle " + cycle + ": candidates");
      assertEquals(
          c.expectedNumFilterCalled().get(cycle), fake.calls.get() - before, "cycle " + cycle + ": filter calls");
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // TestSelectBestCandidate

  record BestCase(String name, List<String> nodeNames, PodInfo pod, List<PodInfo> pods, Set<String> expected) {}

  static Stream<Arguments> bestCandidateCases() {
    var e = epoch(0);
    var cases = new ArrayList<BestCase>();
    cases.add(new BestCase(
        "a pod that fits on both nodes when lower priority pods are preempted",
        List.of("node1", "node2"),
        pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(
            pod("p1").node("node1").priority(MID).req(LARGE).startTime(e).obj(),
            pod("p2").node("node2").priority(MID).req(LARGE).startTime(e).obj()),
        Set.of("node1", "node2")));
    cases.add(new BestCase(
        "node with min highest priority pod is picked",
        List.of("node1", "node2", "node3"),
        pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(MID).req(MEDIUM).startTime(e).obj(),
            pod("p1.2").node("node1").priority(MID).req(LARGE).startTime(e).obj(),
            pod("p2.1").node("node2").priority(MID).req(MEDIUM).startTime(e).obj(),
            pod("p2.2").node("node2").priority(LOW).req(MEDIUM).startTime(e).obj(),
            pod("p3.1").node("node3").priority(LOW).req(MEDIUM).startTime(e).obj(),
            pod("p3.2").node("node3").priority(LOW).req(MEDIUM).startTime(e).obj()),
        Set.of("node3")));
    cases.add(new BestCase(
        "when highest priorities are the same, minimum sum of priorities is picked",
        List.of("node1", "node2", "node3"),
        pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(MID).req(MEDIUM).startTime(e).obj(),
            pod("p1.2").node("node1").priority(MID).req(LARGE).startTime(e).obj(),
            pod("p2.1").node("node2").priority(MID).req(LARGE).startTime(e).obj(),
            pod("p2.2").node("node2").priority(LOW).req(MEDIUM).startTime(e).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).startTime(e).obj(),
            pod("p3.2").node("node3").priority(MID).req(MEDIUM).startTime(e).obj()),
        Set.of("node2")));
    cases.add(new BestCase(
        "when highest priority and sum are the same, minimum number of pods is picked",
        List.of("node1", "node2", "node3"),
        pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(MID).req(SMALL).startTime(e).obj(),
            pod("p1.2").node("node1").priority(NEG).req(SMALL).startTime(e).obj(),
            pod("p1.3").node("node1").priority(MID).req(SMALL).startTime(e).obj(),
            pod("p1.4").node("node1").priority(NEG).req(SMALL).startTime(e).obj(),
            pod("p2.1").node("node2").priority(MID).req(LARGE).startTime(e).obj(),
            pod("p2.2").node("node2").priority(NEG).req(MEDIUM).startTime(e).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).startTime(e).obj(),
            pod("p3.2").node("node3").priority(NEG).req(SMALL).startTime(e).obj(),
            pod("p3.3").node("node3").priority(LOW).req(SMALL).startTime(e).obj()),
        Set.of("node2")));
    cases.add(new BestCase(
        "sum of adjusted priorities is considered",
        List.of("node1", "node2", "node3"),
        pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(MID).req(SMALL).startTime(e).obj(),
            pod("p1.2").node("node1").priority(NEG).req(SMALL).startTime(e).obj(),
            pod("p1.3").node("node1").priority(NEG).req(SMALL).startTime(e).obj(),
            pod("p2.1").node("node2").priority(MID).req(LARGE).startTime(e).obj(),
            pod("p2.2").node("node2").priority(NEG).req(MEDIUM).startTime(e).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).startTime(e).obj(),
            pod("p3.2").node("node3").priority(NEG).req(SMALL).startTime(e).obj(),
            pod("p3.3").node("node3").priority(LOW).req(SMALL).startTime(e).obj()),
        Set.of("node2")));
    cases.add(new BestCase(
        "non-overlapping lowest high priority, sum priorities, and number of pods",
        List.of("node1", "node2", "node3", "node4"),
        pod("p").priority(VERY_HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(MID).req(SMALL).startTime(e).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).startTime(e).obj(),
            pod("p1.3").node("node1").priority(LOW).req(SMALL).startTime(e).obj(),
            pod("p2.1").node("node2").priority(HIGH).req(LARGE).startTime(e).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).startTime(e).obj(),
            pod("p3.2").node("node3").priority(LOW).req(SMALL).startTime(e).obj(),
            pod("p3.3").node("node3").priority(LOW).req(SMALL).startTime(e).obj(),
            pod("p3.4").node("node3").priority(LOW).req(MEDIUM).startTime(e).obj(),
            pod("p4.1").node("node4").priority(MID).req(MEDIUM).startTime(e).obj(),
            pod("p4.2").node("node4").priority(MID).req(SMALL).startTime(e).obj(),
            pod("p4.3").node("node4").priority(MID).req(SMALL).startTime(e).obj(),
            pod("p4.4").node("node4").priority(NEG).req(SMALL).startTime(e).obj()),
        Set.of("node1")));
    cases.add(new BestCase(
        "same priority, same number of victims, different start time for each node's pod",
        List.of("node1", "node2", "node3"),
        pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(MID).req(MEDIUM).startTime(epoch(2)).obj(),
            pod("p1.2").node("node1").priority(MID).req(MEDIUM).startTime(epoch(2)).obj(),
            pod("p2.1").node("node2").priority(MID).req(MEDIUM).startTime(epoch(3)).obj(),
            pod("p2.2").node("node2").priority(MID).req(MEDIUM).startTime(epoch(3)).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).startTime(epoch(1)).obj(),
            pod("p3.2").node("node3").priority(MID).req(MEDIUM).startTime(epoch(1)).obj()),
        Set.of("node2")));
    cases.add(new BestCase(
        "same priority, same number of victims, different start time for all pods",
        List.of("node1", "node2", "node3"),
        pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(MID).req(MEDIUM).startTime(epoch(4)).obj(),
            pod("p1.2").node("node1").priority(MID).req(MEDIUM).startTime(epoch(2)).obj(),
            pod("p2.1").node("node2").priority(MID).req(MEDIUM).startTime(epoch(5)).obj(),
            pod("p2.2").node("node2").priority(MID).req(MEDIUM).startTime(epoch(1)).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).startTime(epoch(3)).obj(),
            pod("p3.2").node("node3").priority(MID).req(MEDIUM).startTime(epoch(6)).obj()),
        Set.of("node3")));
    cases.add(new BestCase(
        "different priority, same number of victims, different start time for all pods",
        List.of("node1", "node2", "node3"),
        pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(LOW).req(MEDIUM).startTime(epoch(4)).obj(),
            pod("p1.2").node("node1").priority(MID).req(MEDIUM).startTime(epoch(2)).obj(),
            pod("p2.1").node("node2").priority(MID).req(MEDIUM).startTime(epoch(6)).obj(),
            pod("p2.2").node("node2").priority(LOW).req(MEDIUM).startTime(epoch(1)).obj(),
            pod("p3.1").node("node3").priority(LOW).req(MEDIUM).startTime(epoch(3)).obj(),
            pod("p3.2").node("node3").priority(MID).req(MEDIUM).startTime(epoch(5)).obj()),
        Set.of("node2")));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bestCandidateCases")
  void TestSelectBestCandidate(String name, BestCase c) {
    var cluster = snapshot(c.nodeNames().stream().map(n -> node(n, VERY_LARGE)).toList(), c.pods());
    var prepared = prepare(List.of(Filters.resourcesFit()), c.pod(), cluster);
    var nodes = cluster.nodes();
    // kube's seeded offset for three nodes; every node is evaluated, so it changes nothing.
    var dryRun = DEFAULT.dryRun(c.pod(), cluster, prepared, nodes, 1 % nodes.size(),
        PreemptionArgs.DEFAULT.candidatesWanted(nodes.size()));

    var picked = Preemption.pick(dryRun.candidates());

    assertTrue(c.expected().contains(picked.chosen().node()), "expected any of " + c.expected() + ", got "
        + picked.chosen().node());
  }

  // ---------------------------------------------------------------------------------------------------------
  // TestSelectVictimsOnNode

  record VictimsCase(
      String name,
      List<PodInfo> initPods,
      PodInfo preemptor,
      List<PodDisruptionBudget> pdbs,
      Set<String> expectedPods,
      int expectedNumViolatingVictim,
      Code expectedCode) {}

  static Stream<Arguments> victimsCases() {
    var appFoo = Map.of("app", "foo");
    var cases = new ArrayList<VictimsCase>();
    cases.add(new VictimsCase(
        "Basic: Preempt single lower priority pod",
        List.of(pod("victim").uid("v1").node("node1").priority(LOW).req(LARGE).obj()),
        pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(),
        Set.of("victim"),
        0,
        Code.SUCCESS));
    cases.add(new VictimsCase(
        "Priority: Prefer lower priority victim",
        List.of(
            pod("high-prio").uid("v3").node("node1").priority(HIGH).req(SMALL).obj(),
            pod("mid-prio").uid("v2").node("node1").priority(MID).req(SMALL).obj(),
            pod("low-prio").uid("v1").node("node1").priority(LOW).req(SMALL).obj()),
        pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(),
        Set.of("low-prio"),
        0,
        Code.SUCCESS));
    cases.add(new VictimsCase(
        "PDB: Prefer non-violating victim with higher priority over violating victim with lower priority",
        List.of(
            pod("victim-pdb").uid("v1").node("node1").label("app", "foo").priority(LOW).req(MEDIUM).obj(),
            pod("victim-no-pdb").uid("v2").node("node1").priority(MID).req(MEDIUM).obj()),
        pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pdb(appFoo, 0)),
        Set.of("victim-no-pdb"),
        0,
        Code.SUCCESS));
    cases.add(new VictimsCase(
        "PDB: Prefer lower prioirity pod for preemption, when preemption without pdb violation is not possible",
        List.of(
            pod("v1").node("node1").label("app", "foo").priority(LOW).req(MEDIUM).obj(),
            pod("v2").node("node1").label("app", "foo").priority(MID).req(MEDIUM).obj()),
        pod("p").priority(HIGH).req(LARGE).obj(),
        List.of(pdb(appFoo, 0)),
        Set.of("v1"),
        1,
        Code.SUCCESS));
    cases.add(new VictimsCase(
        "Failure: Cannot preempt the victim with higher priority",
        List.of(pod("victim").uid("v1").node("node1").priority(HIGH).obj()),
        pod("p").priority(MID).obj(),
        List.of(),
        Set.of(),
        0,
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
    cases.add(new VictimsCase(
        "Failure: Cannot preempt if node is empty",
        List.of(),
        pod("p").priority(MID).obj(),
        List.of(),
        Set.of(),
        0,
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("victimsCases")
  void TestSelectVictimsOnNode(String name, VictimsCase c) {
    var cluster = snapshot(List.of(node("node1", VERY_LARGE)), c.initPods());
    var filters = List.<Filter>of(new FakeFilter(Map.of()), Filters.resourcesFit());
    var prepared = prepare(filters, c.preemptor(), cluster);
    var node = cluster.nodes().get(0);

    var outcome = Preemption.selectVictimsOnNode(c.preemptor(), node, prepared, c.pdbs(), Nominations.NONE);

    if (c.expectedCode() != Code.SUCCESS) {
      var rejection = assertInstanceOf(Preemption.NodeOutcome.Rejection.class, outcome);
      assertEquals(c.expectedCode(), rejection.rejected().code());
      assertEquals(
          List.of(Preemption.NO_VICTIMS), rejection.rejected().reasons().stream().map(Reason::message).toList());
      return;
    }
    var victims = assertInstanceOf(Preemption.NodeOutcome.Victims.class, outcome);
    assertEquals(c.expectedNumViolatingVictim(), victims.pdbViolations());
    assertEquals(c.expectedPods(), new TreeSet<>(names(victims.pods())));
  }

  // ---------------------------------------------------------------------------------------------------------
  // TestPodEligibleToPreemptOthers

  record EligibleCase(
      String name, PodInfo pod, List<PodInfo> pods, List<String> nodes, NodeStatuses statuses, String expected) {}

  static Stream<Arguments> eligibleCases() {
    // kube's nil status of the nominated node (Success): anything but UnschedulableAndUnresolvable.
    var resolvable = statuses(Map.of("node1", Code.UNSCHEDULABLE));
    var cases = new ArrayList<EligibleCase>();
    cases.add(new EligibleCase(
        "Pod with nominated node",
        pod("p_with_nominated_node").uid("p").priority(HIGH).nominatedNodeName("node1").obj(),
        List.of(pod("p1").priority(LOW).node("node1").terminating().obj()),
        List.of("node1"),
        statuses(Map.of("node1", Code.UNSCHEDULABLE_AND_UNRESOLVABLE)),
        ""));
    cases.add(new EligibleCase(
        "Pod without nominated node",
        pod("p_without_nominated_node").uid("p").priority(HIGH).obj(),
        List.of(),
        List.of(),
        statuses(Map.of()),
        ""));
    cases.add(new EligibleCase(
        "Pod with 'PreemptNever' preemption policy",
        pod("p_with_preempt_never_policy").uid("p").priority(HIGH).preemptNever().obj(),
        List.of(),
        List.of(),
        statuses(Map.of()),
        Preemption.NOT_ELIGIBLE_NEVER));
    cases.add(new EligibleCase(
        "preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition",
        pod("p_with_nominated_node").uid("p").priority(HIGH).nominatedNodeName("node1").obj(),
        List.of(pod("p1").priority(LOW).node("node1").terminating().preemptedByScheduler().obj()),
        List.of("node1"),
        resolvable,
        Preemption.NOT_ELIGIBLE_TERMINATING));
    cases.add(new EligibleCase(
        "non-victim Pods terminating",
        pod("p_with_nominated_node").uid("p").priority(HIGH).nominatedNodeName("node1").obj(),
        List.of(pod("p1").priority(LOW).node("node1").terminating().obj()),
        List.of("node1"),
        resolvable,
        ""));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("eligibleCases")
  void TestPodEligibleToPreemptOthers(String name, EligibleCase c) {
    var cluster = snapshot(c.nodes().stream().map(n -> NodeInfo.builder(n)).toList(), c.pods());

    assertEquals(c.expected(), Preemption.eligibility(c.pod(), cluster, c.statuses()));
  }

  // ---------------------------------------------------------------------------------------------------------
  // TestPreempt (the decision; the victims' deletion is the loop's)

  record PreemptCase(
      String name,
      PodInfo preemptor,
      List<PodInfo> pods,
      List<String> nodeNames,
      Filter filter,
      String want,
      List<String> expectedPods) {}

  static Stream<Arguments> preemptCases() {
    var cases = new ArrayList<PreemptCase>();
    cases.add(new PreemptCase(
        "basic preemption logic",
        pod("p").priority(HIGH).req(VERY_LARGE).preemptLowerPriority().obj(),
        List.of(
            pod("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p2.1").node("node2").priority(HIGH).req(LARGE).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).obj()),
        List.of("node1", "node2", "node3"),
        Filters.resourcesFit(),
        "node1",
        List.of("p1.1", "p1.2")));
    cases.add(new PreemptCase(
        "no preempting in pod",
        pod("p").priority(HIGH).req(VERY_LARGE).preemptNever().obj(),
        List.of(
            pod("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p2.1").node("node2").priority(HIGH).req(LARGE).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).obj()),
        List.of("node1", "node2", "node3"),
        Filters.resourcesFit(),
        "",
        List.of()));
    cases.add(new PreemptCase(
        "PreemptionPolicy is nil",
        pod("p").priority(HIGH).req(VERY_LARGE).obj(),
        List.of(
            pod("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p2.1").node("node2").priority(HIGH).req(LARGE).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).obj()),
        List.of("node1", "node2", "node3"),
        Filters.resourcesFit(),
        "node1",
        List.of("p1.1", "p1.2")));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  /** The case that needs the topology spreading tracker. */
  static Stream<Arguments> preemptTrackerCases() {
    var cases = new ArrayList<PreemptCase>();
    cases.add(new PreemptCase(
        "preemption for topology spread constraints",
        pod("p").label("foo", "").priority(HIGH)
            .spreadConstraint(1, "zone", exists("foo"))
            .spreadConstraint(1, "hostname", exists("foo"))
            .obj(),
        List.of(
            pod("p-a1").node("node-a").label("foo", "").priority(HIGH).obj(),
            pod("p-a2").node("node-a").label("foo", "").priority(HIGH).obj(),
            pod("p-b1").node("node-b").label("foo", "").priority(LOW).obj(),
            pod("p-x1").node("node-x").label("foo", "").priority(HIGH).obj(),
            pod("p-x2").node("node-x").label("foo", "").priority(HIGH).obj()),
        List.of("node-a/zone1", "node-b/zone1", "node-x/zone2"),
        Filters.podTopologySpread(),
        "node-b",
        List.of("p-b1")));
    return cases.stream().map(c -> Arguments.of(c.name(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preemptTrackerCases")
  void TestPreempt_with_trackers(String name, PreemptCase c) {
    TestPreempt(name, c);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preemptCases")
  void TestPreempt(String name, PreemptCase c) {
    var policy = Policy.builder().filter(c.filter()).preemption(PreemptionArgs.DEFAULT).seed(1).build();
    var nodes = c.nodeNames().stream().map(n -> node(n, VERY_LARGE)).toList();
    var cluster = snapshot(nodes, c.pods());

    var decision = assertInstanceOf(Decision.Unschedulable.class, policy.find(c.preemptor(), cluster));

    if (c.want().isEmpty()) {
      assertEquals(Nomination.KEEP, decision.nomination());
      assertTrue(decision.postFilterMessage().startsWith("preemption: not eligible"), decision.postFilterMessage());
      return;
    }
    var to = assertInstanceOf(Nomination.To.class, decision.nomination());
    assertEquals(c.want(), to.nodeName());
    assertEquals(c.expectedPods(), names(to.victims()));
    assertEquals(
        "preemption: found a potential placement for pod on node " + c.want() + ", preempting "
            + c.expectedPods().size() + " victims",
        decision.postFilterMessage());

    // Call preempt again, the victims terminating by preemption and the pod nominated: no more victims (kube's
    // second Preempt call).
    var victims = Set.copyOf(c.expectedPods());
    var terminating =
        c.pods().stream()
            .map(p -> victims.contains(p.name())
                ? p.toBuilder().terminating(true).preemptedByScheduler(true).build()
                : p)
            .toList();
    var nominated = c.preemptor().toBuilder().nominatedNodeName(to.nodeName()).build();
    var again = snapshot(nodes, terminating).withNominations(Nominations.of(List.of(nominated)));

    var second = policy.find(nominated, again);

    if (c.filter() instanceof PodTopologySpreadFilter) {
      // Topology spreading does not count terminating pods: the nominated node fits at once.
      assertEquals(Decision.bind(to.nodeName()), second);
      return;
    }
    var unschedulable = assertInstanceOf(Decision.Unschedulable.class, second);
    assertEquals(Nomination.KEEP, unschedulable.nomination());
    assertEquals("preemption: " + Preemption.NOT_ELIGIBLE_TERMINATING, unschedulable.postFilterMessage());
  }

  @Test
  void TestPreempt_the_whole_message_is_the_fit_error_then_the_post_filter_message() {
    var policy = Policy.builder().filter(Filters.resourcesFit()).preemption(PreemptionArgs.DEFAULT).seed(1).build();
    var cluster = snapshot(
        List.of(node("node1", VERY_LARGE), node("node2", VERY_LARGE), node("node3", VERY_LARGE)),
        List.of(
            pod("p1.1").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p1.2").node("node1").priority(LOW).req(SMALL).obj(),
            pod("p2.1").node("node2").priority(HIGH).req(LARGE).obj(),
            pod("p3.1").node("node3").priority(MID).req(MEDIUM).obj()));

    var decision = (Decision.Unschedulable) policy.find(pod("p").priority(HIGH).req(VERY_LARGE).obj(), cluster);

    assertEquals(
        "0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory. preemption: found a potential"
            + " placement for pod on node node1, preempting 2 victims",
        decision.message(3));
    assertEquals(Set.of(), decision.unresolvableNodes());
  }
}
