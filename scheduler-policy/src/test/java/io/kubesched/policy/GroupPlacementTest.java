package io.kubesched.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.AllocationResult;
import io.kubesched.api.ClaimAllocation;
import io.kubesched.api.ConsumerRef;
import io.kubesched.api.DeviceAllocation;
import io.kubesched.api.DynamicResources;
import io.kubesched.api.ResourceClaim;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.Nomination;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.VolumeBinding;
import io.kubesched.policy.GroupPlacement.Feasibility;
import io.kubesched.policy.framework.PreFilter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link GroupPlacement}: kube 1.37's {@code TestPlacementFeasible} (gangscheduling_test.go) and {@code
 * TestPodGroupSchedulingAlgorithm} (schedule_one_podgroup_test.go) where our model expresses them, and the
 * parts of our own: {@code minResources}, early stop, the volume-binding refusal, nominations.
 */
class GroupPlacementTest {

  static final PodGroupRef REF = new PodGroupRef(PodGroupRef.Source.WORKLOAD_API, "default", "pg");

  static PodInfo member(String name) {
    return PodInfo.builder("default", name).podGroup(REF).build();
  }

  static PodGroup group(int minMember) {
    return PodGroup.of(REF, minMember);
  }

  static PodGroup group(int minMember, Resources minResources) {
    return new PodGroup(REF, "uid-pg", 1, minMember, null, minResources, null, Instant.EPOCH);
  }

  static ClusterSnapshot snapshot(String... nodes) {
    return ClusterSnapshot.of(
        Stream.of(nodes).map(n -> NodeInfo.builder(n).allocatable(4000, 8L << 30, 10).build()).toList());
  }

  static Decision.Unschedulable rejected(String reason) {
    return Decision.unschedulable(Map.of("node1", List.of(reason)));
  }

  /** A finder answering from a script by pod name; records whom it was asked about, on which snapshot. */
  static final class Scripted implements FinderFunc {
    final Map<String, Decision> answers = new HashMap<>();
    final List<String> asked = new ArrayList<>();
    final List<ClusterSnapshot> seen = new ArrayList<>();

    Scripted answer(String pod, Decision decision) {
      answers.put(pod, decision);
      return this;
    }

    Scripted fits(String... pods) {
      for (var pod : pods) {
        answers.put(pod, Decision.bind("node1"));
      }
      return this;
    }

    @Override
    public Decision find(PodInfo pod, List<NodeInfo> nodes) {
      throw new AssertionError("the snapshot form is the one called");
    }

    @Override
    public Decision find(PodInfo pod, ClusterSnapshot cluster) {
      asked.add(pod.name());
      seen.add(cluster);
      var answer = answers.get(pod.name());
      if (answer == null) {
        throw new SchedulerException("filter Broken failed for pod " + pod.key());
      }
      return answer;
    }
  }

  // kube's TestPlacementFeasible (the single pod group cases; composite pod groups are not expressible). A
  // basic ("non-gang") group's minCount 0 is kube's minimum of 1, which is what our minMember holds for it.
  static Stream<Arguments> placementFeasible() {
    var S = Feasibility.SUCCESS;
    var W = Feasibility.WAIT;
    var U = Feasibility.UNSCHEDULABLE;
    return Stream.of(
        Arguments.of("All pods succeed, minCount met at end", 2, 2, 0, List.of(true, true), List.of(W, S)),
        Arguments.of("First pod fails, minCount not satisfiable", 3, 3, 0, List.of(false), List.of(U)),
        Arguments.of("Second pod fails, minCount not satisfiable", 2, 2, 0, List.of(true, false), List.of(W, U)),
        Arguments.of("Non-gang pod group with 0 scheduled pods fails", 1, 1, 0, List.of(false), List.of(U)),
        Arguments.of("Non-gang pod group with succeeds once 1 pod is scheduled", 1, 1, 0, List.of(true), List.of(S)),
        Arguments.of(
            "Non-gang pod group with 1 initially scheduled pod succeeds", 1, 1, 1, List.of(false), List.of(S)),
        Arguments.of("More than minCount pods, all succeed", 2, 3, 0, List.of(true, true, true), List.of(W, S, S)),
        Arguments.of("More than minCount pods, first fails", 2, 3, 0, List.of(false, true, true), List.of(W, W, S)),
        Arguments.of(
            "More than minCount pods, minCount not satisfiable", 2, 3, 0, List.of(false, false), List.of(W, U)),
        Arguments.of(
            "1 pod scheduled, 2 unscheduled pods succeed, minCount 3 met", 3, 2, 1, List.of(true, true),
            List.of(W, S)),
        Arguments.of("minCount already met by scheduled pods", 2, 1, 2, List.of(false), List.of(S)),
        Arguments.of(
            "1 pod scheduled, minCount 3, first unscheduled fails, not enough remaining", 3, 2, 1, List.of(false),
            List.of(U)),
        Arguments.of(
            "1 pod scheduled, minCount 4, first unscheduled succeeds, not enough remaining", 4, 2, 1,
            List.of(true), List.of(U)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("placementFeasible")
  void placementFeasibleAfterEachMember(
      String name, int minCount, int children, int initiallyScheduled, List<Boolean> fits, List<Feasibility> want) {
    int scheduled = initiallyScheduled;
    for (int i = 0; i < fits.size(); i++) {
      if (fits.get(i)) {
        scheduled++;
      }
      assertEquals(want.get(i), GroupPlacement.feasibility(minCount, scheduled, children - (i + 1)), "step " + i);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("placementFeasible")
  void placementFeasibleDrivesThePlacement(
      String name, int minCount, int children, int initiallyScheduled, List<Boolean> fits, List<Feasibility> want) {
    var finder = new Scripted();
    var pending = new ArrayList<PodInfo>();
    for (int i = 0; i < children; i++) {
      var pod = member("p" + (i + 1));
      pending.add(pod);
      // Members past the table's steps are never asked: the trial has stopped or the table says no more.
      finder.answer(pod.name(), i < fits.size() && !fits.get(i) ? rejected("fails") : Decision.bind("node1"));
    }
    var decision = GroupPlacement.place(group(minCount), pending, initiallyScheduled, snapshot("node1"), finder);
    var last = want.get(want.size() - 1);
    if (last == Feasibility.UNSCHEDULABLE) {
      assertInstanceOf(GroupDecision.Unschedulable.class, decision);
      // The algorithm asks PlacementFeasible before any member too: a group out of reach from the start (the
      // last case) has no member tried.
      boolean outOfReach =
          GroupPlacement.feasibility(minCount, initiallyScheduled, children) == Feasibility.UNSCHEDULABLE;
      assertEquals(
          outOfReach ? 0 : fits.size(), finder.asked.size(), "the trial stops as soon as the minimum is out of reach");
    } else {
      assertInstanceOf(GroupDecision.Placed.class, decision);
      assertEquals(children, finder.asked.size(), "a placed group has every member tried");
    }
  }

  // kube's TestPodGroupSchedulingAlgorithm, three members p1, p2, p3 and one node. Its fake PlacementFeasible
  // answers are ours when minMember and the members placed before are as given. Not expressible: "All pods
  // feasible, podGroup waiting" and "All pods feasible, podGroup unschedulable[ with 2 pods]" (with every member
  // fitting our check never waits at the end nor stops early), and the PlacementFeasible Error cases (it has no
  // error of its own).
  static Stream<Arguments> algorithm() {
    var ok = Decision.bind("node1");
    var no = rejected("fails");
    return Stream.of(
        Arguments.of("All pods feasible", 1, 0, List.of(ok, ok, ok), true, List.of("p1", "p2", "p3"), ""),
        Arguments.of(
            "All pods feasible, podGroup already meeting quorum before any pod is evaluated", 2, 2,
            List.of(ok, ok, ok), true, List.of("p1", "p2", "p3"), ""),
        Arguments.of(
            "All pods feasible, podGroup schedulable with 3 schedulable pods", 3, 0, List.of(ok, ok, ok), true,
            List.of("p1", "p2", "p3"), ""),
        Arguments.of(
            "PodGroup schedulable with 2 schedulable pods", 2, 0, List.of(no, ok, ok), true,
            List.of("p1", "p2", "p3"), ""),
        Arguments.of(
            "All pods unschedulable", 1, 0, List.of(no, no, no), false, List.of("p1", "p2", "p3"),
            "minCount (1) cannot be satisfied: 0 scheduled, 0 remaining"),
        Arguments.of(
            "First placementFeasible call returned Unschedulable", 4, 0, List.of(ok, ok, ok), false, List.of(),
            "minCount (4) cannot be satisfied: 0 scheduled, 3 remaining"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("algorithm")
  void podGroupSchedulingAlgorithm(
      String name, int minMember, int placed, List<Decision> answers, boolean success, List<String> evaluated,
      String message) {
    var finder = new Scripted();
    var pending = new ArrayList<PodInfo>();
    for (int i = 0; i < answers.size(); i++) {
      pending.add(member("p" + (i + 1)));
      finder.answer("p" + (i + 1), answers.get(i));
    }
    var decision = GroupPlacement.place(group(minMember), pending, placed, snapshot("node1"), finder);
    assertEquals(evaluated, finder.asked);
    if (success) {
      var placedDecision = assertInstanceOf(GroupDecision.Placed.class, decision);
      for (var fitted : placedDecision.fitted()) {
        assertEquals("node1", fitted.bind().nodeName());
      }
      for (int i = 0; i < answers.size(); i++) {
        var uid = pending.get(i).uid();
        assertEquals(
            answers.get(i) instanceof Decision.Unschedulable, placedDecision.unfitted().containsKey(uid), uid);
      }
    } else {
      var unschedulable = assertInstanceOf(GroupDecision.Unschedulable.class, decision);
      assertEquals(message, unschedulable.message());
      assertEquals(answers.size(), unschedulable.fitted().size() + unschedulable.unfitted().size());
    }
  }

  @Test
  void anyFilterReturnedErrorPropagatesAndStopsTheTrial() {
    // kube: "Any filter returned Error": the group fails with the error and p3 is never evaluated.
    var finder = new Scripted().fits("p1", "p3");
    var pending = List.of(member("p1"), member("p2"), member("p3"));
    var thrown =
        assertThrows(
            SchedulerException.class,
            () -> GroupPlacement.place(group(3), pending, 0, snapshot("node1"), finder));
    assertTrue(thrown.getMessage().contains("default/p2"), thrown.getMessage());
    assertEquals(List.of("p1", "p2"), finder.asked);
  }

  @Test
  void earlyStopLeavesTheRestUntriedWithTheGroupsMessage() {
    var finder = new Scripted().fits("p1", "p3", "p4").answer("p2", rejected("Insufficient cpu"));
    var pending = List.of(member("p1"), member("p2"), member("p3"), member("p4"));
    var decision = GroupPlacement.place(group(4), pending, 0, snapshot("node1"), finder);
    var unschedulable = assertInstanceOf(GroupDecision.Unschedulable.class, decision);
    assertEquals(List.of("p1", "p2"), finder.asked);
    assertEquals("minCount (4) cannot be satisfied: 1 scheduled, 2 remaining", unschedulable.message());
    assertEquals(List.of(pending.get(0)), unschedulable.fitted());
    assertEquals(List.of("default/p2", "default/p3", "default/p4"), List.copyOf(unschedulable.unfitted().keySet()));
    assertEquals(rejected("Insufficient cpu"), unschedulable.unfitted().get("default/p2"), "its own reason");
    for (var uid : List.of("default/p3", "default/p4")) {
      assertEquals(unschedulable.message(), unschedulable.unfitted().get(uid).preFilterMessage(), uid);
      assertEquals(
          "0/1 nodes are available: minCount (4) cannot be satisfied: 1 scheduled, 2 remaining.",
          unschedulable.unfitted().get(uid).message(1));
    }
  }

  @Test
  void laterMembersSeeEarlierOnesOnTheirNodes() {
    // Two nodes with room for one member each: the third finds both full, yet two of three are enough.
    var nodes =
        Stream.of("a", "b").map(n -> NodeInfo.builder(n).allocatable(1000, 1L << 30, 10).build()).toList();
    var pending =
        Stream.of("p1", "p2", "p3")
            .map(n -> PodInfo.builder("default", n).podGroup(REF).requests(1000, 0).build())
            .toList();
    var policy = DefaultPolicy.builder().seed(7).build();
    var decision = GroupPlacement.place(group(2), pending, 0, ClusterSnapshot.of(nodes), policy);
    var placed = assertInstanceOf(GroupDecision.Placed.class, decision);
    assertEquals(2, placed.fitted().size());
    assertEquals(
        Set.of("a", "b"),
        Set.of(placed.fitted().get(0).bind().nodeName(), placed.fitted().get(1).bind().nodeName()));
    assertEquals(
        "0/2 nodes are available: 2 Insufficient cpu.", placed.unfitted().get("default/p3").message(2));

    var tooMany = GroupPlacement.place(group(3), pending, 0, ClusterSnapshot.of(nodes), policy);
    assertEquals(
        "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
        assertInstanceOf(GroupDecision.Unschedulable.class, tooMany).message());
  }

  @Test
  void placedBeforeAlreadyReachingTheMinimumIsPlacedEvenIfNoneFits() {
    var finder = new Scripted().answer("p1", rejected("fails"));
    var decision = GroupPlacement.place(group(2), List.of(member("p1")), 2, snapshot("node1"), finder);
    var placed = assertInstanceOf(GroupDecision.Placed.class, decision);
    assertTrue(placed.fitted().isEmpty());
    assertEquals(Set.of("default/p1"), placed.unfitted().keySet());
  }

  @Test
  void aMemberClaimingDevicesFitsAndTheNextMemberSeesItsClaimAllocated() {
    var claim = new ResourceClaim("default", "gpu-p1", "claim-uid", "1", null, Map.of(), List.of(), List.of(),
        List.of(), null, List.of(), false);
    var allocation = new AllocationResult(
        List.of(new DeviceAllocation("gpu", "gpu.example.com", "node1", "gpu-0", false, List.of(), List.of(),
            List.of(), null, Map.of())),
        List.of(), null, null);
    var finder = new Scripted()
        .answer("p1", Decision.bind("node1").withClaimAllocations(
            List.of(new ClaimAllocation("default", "gpu-p1", "claim-uid", allocation))))
        .fits("p2");
    var snapshot = snapshot("node1")
        .withDynamicResources(DynamicResources.of(List.of(), List.of(), List.of(claim), List.of()));

    var decision = GroupPlacement.place(group(2), List.of(member("p1"), member("p2")), 0, snapshot, finder);

    var placed = assertInstanceOf(GroupDecision.Placed.class, decision);
    assertEquals(2, placed.fitted().size());
    var seenByP2 = finder.seen.get(1).dynamicResources().claim("default", "gpu-p1").orElseThrow();
    assertEquals(allocation, seenByP2.allocation(), "p1's devices are taken for the members after it");
    assertEquals(List.of(ConsumerRef.pod("p1", "default/p1")), seenByP2.reservedFor());
    assertEquals(
        null, finder.seen.get(0).dynamicResources().claim("default", "gpu-p1").orElseThrow().allocation());
  }

  @Test
  void aMemberNeedingVolumesDoesNotFitAndTakesNoRoom() {
    var volumes = List.<VolumeBinding>of(new VolumeBinding.Provision("default", "data", "claim-uid"));
    var finder = new Scripted().answer("p1", Decision.bind("node1", volumes)).fits("p2", "p3");
    var pending = List.of(member("p1"), member("p2"), member("p3"));
    var decision = GroupPlacement.place(group(2), pending, 0, snapshot("node1"), finder);
    var placed = assertInstanceOf(GroupDecision.Placed.class, decision);
    assertEquals(List.of("default/p2", "default/p3"), placed.fitted().stream().map(m -> m.pod().uid()).toList());
    var refusal = placed.unfitted().get("default/p1");
    assertEquals(GroupPlacement.VOLUMES_NOT_SUPPORTED, refusal.preFilterMessage());
    assertEquals(
        "0/1 nodes are available: binding volumes for pod group members is not supported yet.", refusal.message(1));
    assertTrue(finder.seen.get(1).node("node1").orElseThrow().pods().isEmpty(), "p1 was not laid in");
    assertEquals(1, finder.seen.get(2).node("node1").orElseThrow().pods().size(), "p2 was");

    var needsThree = GroupPlacement.place(group(3), pending, 0, snapshot("node1"), new Scripted()
        .answer("p1", Decision.bind("node1", volumes)).fits("p2", "p3"));
    assertEquals(
        "minCount (3) cannot be satisfied: 0 scheduled, 2 remaining",
        assertInstanceOf(GroupDecision.Unschedulable.class, needsThree).message());
  }

  @Test
  void aMembersNominationIsNeverActedOn() {
    var victim = PodInfo.builder("default", "victim").nodeName("node1").build();
    var preempting =
        rejected("Insufficient cpu")
            .withPostFilter("preemption: found victims", new Nomination.To("node1", List.of(victim)));
    var finder = new Scripted().answer("p1", preempting).fits("p2");
    var decision = GroupPlacement.place(group(1), List.of(member("p1"), member("p2")), 0, snapshot("node1"), finder);
    var placed = assertInstanceOf(GroupDecision.Placed.class, decision);
    var own = placed.unfitted().get("default/p1");
    assertEquals(Nomination.KEEP, own.nomination());
    assertEquals("", own.postFilterMessage());
    assertEquals(rejected("Insufficient cpu").reasonsByNode(), own.reasonsByNode());
    assertTrue(finder.seen.get(1).node("node1").orElseThrow().pods().isEmpty(), "nothing laid in for p1");
  }

  @Test
  void theFinderWithoutPreemptionIsTheOneAsked() {
    var without = new Scripted().fits("p1");
    FinderFunc preempting =
        new FinderFunc() {
          @Override
          public Decision find(PodInfo pod, List<NodeInfo> nodes) {
            throw new AssertionError("the finder with preemption was asked");
          }

          @Override
          public FinderFunc withoutPreemption() {
            return without;
          }
        };
    var decision = GroupPlacement.place(group(1), List.of(member("p1")), 0, snapshot("node1"), preempting);
    assertInstanceOf(GroupDecision.Placed.class, decision);
    assertEquals(List.of("p1"), without.asked);
  }

  @Test
  void aMemberLaidInNoLongerHoldsRoomWhereItWasNominated() {
    var p1 = member("p1").toBuilder().nominatedNodeName("node2").build();
    var snapshot = snapshot("node1", "node2").withNominations(Nominations.of(List.of(p1)));
    var finder = new Scripted().fits("p1", "p2");
    GroupPlacement.place(group(2), List.of(p1, member("p2")), 0, snapshot, finder);
    assertEquals("node2", finder.seen.get(0).nominations().nodeOf("default/p1"));
    assertEquals("", finder.seen.get(1).nominations().nodeOf("default/p1"));
    var laidIn = finder.seen.get(1).node("node1").orElseThrow().pods();
    assertEquals(List.of("node1"), laidIn.stream().map(PodInfo::nodeName).toList(), "bound where it fits");
  }

  // minResources (coscheduling's PreFilter check), before any member.

  @Test
  void minResourcesGapRefusesEveryMemberUntried() {
    // Two nodes of 4 cpu, 3 of them taken: 5 cpu free, 6 asked.
    var busy = PodInfo.builder("default", "busy").requests(3000, 0).build();
    var nodes =
        List.of(
            NodeInfo.builder("a").allocatable(4000, 8L << 30, 10).pods(List.of(busy)).build(),
            NodeInfo.builder("b").allocatable(4000, 8L << 30, 10).build());
    var finder = new Scripted().fits("p1", "p2");
    var pending = List.of(member("p1"), member("p2"));
    var decision =
        GroupPlacement.place(group(2, Resources.of(6000, 0)), pending, 0, ClusterSnapshot.of(nodes), finder);
    var unschedulable = assertInstanceOf(GroupDecision.Unschedulable.class, decision);
    assertEquals("resource gap: cpu 1", unschedulable.message());
    assertTrue(finder.asked.isEmpty());
    assertTrue(unschedulable.fitted().isEmpty());
    assertEquals(2, unschedulable.unfitted().size());
    unschedulable.unfitted().values().forEach(d -> assertEquals("resource gap: cpu 1", d.preFilterMessage()));
  }

  @Test
  void minResourcesCountsMinMemberPods() {
    var nodes = List.of(NodeInfo.builder("a").allocatable(4000, 8L << 30, 2).build());
    var decision =
        GroupPlacement.place(
            group(3, Resources.of(100, 0)),
            List.of(member("p1"), member("p2"), member("p3")),
            0,
            ClusterSnapshot.of(nodes),
            new Scripted().fits("p1", "p2", "p3"));
    assertEquals("resource gap: pods 1", assertInstanceOf(GroupDecision.Unschedulable.class, decision).message());
  }

  @Test
  void minResourcesCoveredLetsTheMembersBeTried() {
    var finder = new Scripted().fits("p1", "p2");
    var min = new Resources(8000, 16L << 30, 0, 0, Map.of());
    var decision =
        GroupPlacement.place(group(2, min), List.of(member("p1"), member("p2")), 0, snapshot("node1", "b"), finder);
    assertInstanceOf(GroupDecision.Placed.class, decision);
    assertEquals(List.of("p1", "p2"), finder.asked);
  }

  @Test
  void minResourcesCountsTheGroupsOwnPlacedMembersAsFree() {
    var own = member("p0").toBuilder().nodeName("a").requests(3000, 0).build();
    var stranger = PodInfo.builder("default", "other").nodeName("a").requests(3000, 0).build();
    var min = Resources.of(4000, 0);
    var withOwn =
        ClusterSnapshot.of(List.of(NodeInfo.builder("a").allocatable(4000, 1L << 30, 10).pods(List.of(own)).build()));
    var withStranger =
        ClusterSnapshot.of(
            List.of(NodeInfo.builder("a").allocatable(4000, 1L << 30, 10).pods(List.of(stranger)).build()));
    var check = GroupPlacement.checkMinResources(group(2, min), 1, withOwn).orElseThrow();
    assertTrue(check.satisfied(), check::toString);
    assertEquals(new Resources(4000, 1L << 30, 0, 10, Map.of()), check.free());
    var gap = GroupPlacement.checkMinResources(group(2, min), 1, withStranger).orElseThrow();
    assertEquals("resource gap: cpu 3", gap.message());
  }

  @Test
  void theMemberCountIsCheckedBeforeMinResources() {
    var decision =
        GroupPlacement.place(
            group(4, Resources.of(1_000_000, 0)), List.of(member("p1")), 0, snapshot("a"), new Scripted());
    assertEquals(
        "minCount (4) cannot be satisfied: 0 scheduled, 1 remaining",
        assertInstanceOf(GroupDecision.Unschedulable.class, decision).message());
  }

  @Test
  void noMinResourcesNoCheck() {
    assertTrue(GroupPlacement.checkMinResources(group(2), 0, snapshot("a")).isEmpty());
  }

  @Test
  void gapsAreWrittenAsKubeWritesQuantities() {
    var gap =
        new Resources(
            1500, 2L << 30, 3000, 2, Map.of("nvidia.com/gpu", 2L, "hugepages-2Mi", 4L << 20));
    assertEquals(
        "cpu 1500m, memory 2Gi, ephemeral-storage 3000, pods 2, hugepages-2Mi 4Mi, nvidia.com/gpu 2",
        GroupExplanation.describe(gap));
    assertEquals("nothing", GroupExplanation.describe(Resources.ZERO));
  }

  // Policy.withoutPreemption

  @Test
  void withoutPreemptionIsBuiltOnceAndPreemptsNothing() {
    var policy = DefaultPolicy.builder().seed(3).build();
    var without = policy.withoutPreemption();
    assertSame(without, policy.withoutPreemption());
    assertTrue(policy.preemption().isPresent());
    assertTrue(without.preemption().isEmpty());
    assertEquals(policy.filters(), without.filters());
    assertEquals(policy.scorers(), without.scorers());
    assertEquals(policy.percentageOfNodesToScore(), without.percentageOfNodesToScore());
    assertSame(without, without.withoutPreemption());
    var plain = DefaultPolicy.builder().noPreemption().build();
    assertSame(plain, plain.withoutPreemption());
  }

  @Test
  void withoutPreemptionSharesTheRoundRobin() {
    var policy =
        Policy.builder().filter(new PolicyTest.Rejecting("None", "never")).preemption(PreemptionArgs.DEFAULT).build();
    var nodes = ClusterSnapshot.of(PolicyTest.nodes(3));
    var pod = PodInfo.builder("default", "web").build();
    assertEquals(Decision.bind("n0"), policy.find(pod, nodes));
    assertEquals(Decision.bind("n1"), policy.withoutPreemption().find(pod, nodes));
    assertEquals(Decision.bind("n2"), policy.find(pod, nodes));
  }

  @Test
  void withoutPreemptionAnswersAMemberThatFitsNowhereWithoutNomination() {
    var low = PodInfo.builder("default", "low").nodeName("a").priority(0).requests(1000, 0).build();
    var node = NodeInfo.builder("a").allocatable(1000, 1L << 30, 10).pods(List.of(low)).build();
    var pod = member("p1").toBuilder().priority(100).requests(1000, 0).build();
    var policy = DefaultPolicy.builder().seed(1).build();
    var snapshot = ClusterSnapshot.of(List.of(node));
    assertInstanceOf(
        Nomination.To.class, ((Decision.Unschedulable) policy.find(pod, snapshot)).nomination(), "alone it preempts");
    var decision = GroupPlacement.place(group(1), List.of(pod), 0, snapshot, policy);
    var own = assertInstanceOf(GroupDecision.Unschedulable.class, decision).unfitted().get(pod.uid());
    assertFalse(own.nomination() instanceof Nomination.To);
    assertEquals("", own.postFilterMessage());
  }
}
