package io.kubesched.policy;

import static io.kubesched.policy.GroupPlacementTest.group;
import static io.kubesched.policy.GroupPlacementTest.member;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Resources;
import io.kubesched.policy.GroupExplanation.Outcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@link Policy#explainGroup}: what it shows, and that it shows what {@link GroupPlacement#place} decides. */
class GroupExplanationTest {

  private static List<NodeInfo> oneSlotNodes(String... names) {
    return Stream.of(names).map(n -> NodeInfo.builder(n).allocatable(1000, 1L << 30, 10).build()).toList();
  }

  private static List<PodInfo> oneCpuMembers(String... names) {
    return Stream.of(names).map(n -> member(n).toBuilder().requests(1000, 0).build()).toList();
  }

  @Test
  void showsWhereEachMemberGoesAndWhyTheLastDoesNot() {
    var snapshot = ClusterSnapshot.of(oneSlotNodes("a", "b"));
    var pending = oneCpuMembers("p1", "p2", "p3");
    var policy = DefaultPolicy.builder().seed(11).build();

    var explanation = policy.explainGroup(group(2), pending, 0, snapshot);

    assertTrue(explanation.isPlaced());
    assertEquals(List.of(Outcome.FITS, Outcome.FITS, Outcome.DOES_NOT_FIT),
        explanation.members().stream().map(GroupExplanation.Member::outcome).toList());
    assertEquals(2, explanation.fitted());
    assertEquals(3, explanation.tried());
    assertEquals("", explanation.message());
    assertTrue(explanation.minResources().isEmpty());
    var third = explanation.member("default/p3").orElseThrow();
    assertEquals(Optional.empty(), third.node());
    var thirdsOwn = third.explanation().orElseThrow();
    assertEquals(2, thirdsOwn.nodes().size(), "both nodes examined, each already holding a member");
    assertTrue(thirdsOwn.nodes().stream().noneMatch(Explanation.NodeExplanation::feasible));
    assertEquals(GroupPlacement.place(group(2), pending, 0, snapshot, policy), explanation.decision());

    var text = explanation.toString();
    assertTrue(text.startsWith("pod group default/pg: placed: 2 of minCount 2 (0 placed before, 2 fit now)\n"), text);
    assertTrue(text.contains("members: 3 pending, 3 tried, 2 fit, 0 placed before, minCount 2\n"), text);
    assertTrue(text.contains("3  default/p3  does not fit  0/2 nodes are available: 2 Insufficient cpu."), text);
    var table = explanation.toTable();
    assertTrue(table.startsWith(text), table);
    assertTrue(table.contains("pod default/p3: 0/2 nodes are available: 2 Insufficient cpu."), table);
  }

  @Test
  void showsTheMinResourcesGapAndNoMemberTried() {
    var snapshot = ClusterSnapshot.of(oneSlotNodes("a", "b"));
    var pending = oneCpuMembers("p1", "p2");
    var policy = DefaultPolicy.builder().seed(11).build();
    var pg = GroupPlacementTest.group(2, Resources.of(3000, 0));

    var explanation = policy.explainGroup(pg, pending, 0, snapshot);

    assertFalse(explanation.isPlaced());
    assertEquals("resource gap: cpu 1", explanation.message());
    var check = explanation.minResources().orElseThrow();
    assertFalse(check.satisfied());
    assertEquals(new Resources(3000, 0, 0, 2, Map.of()), check.required());
    assertEquals(0, explanation.tried());
    assertTrue(explanation.members().stream().allMatch(m -> m.explanation().isEmpty()));
    var text = explanation.toString();
    assertTrue(text.startsWith("pod group default/pg: unschedulable: resource gap: cpu 1\n"), text);
    assertTrue(
        text.contains("minResources: required cpu 3, pods 2; free cpu 2, memory 2Gi, pods 20; resource gap: cpu 1"),
        text);
    assertTrue(text.contains("1  default/p1  not tried  0/2 nodes are available: resource gap: cpu 1."), text);
    assertEquals(GroupPlacement.place(pg, pending, 0, snapshot, policy), explanation.decision());
  }

  @Test
  void showsTheEarlyStop() {
    var snapshot = ClusterSnapshot.of(oneSlotNodes("a"));
    var pending = oneCpuMembers("p1", "p2", "p3");
    var policy = DefaultPolicy.builder().seed(11).build();

    var explanation = policy.explainGroup(group(3), pending, 0, snapshot);

    assertEquals("minCount (3) cannot be satisfied: 1 scheduled, 1 remaining", explanation.message());
    assertEquals(List.of(Outcome.FITS, Outcome.DOES_NOT_FIT, Outcome.NOT_TRIED),
        explanation.members().stream().map(GroupExplanation.Member::outcome).toList());
    assertEquals(Optional.of("a"), explanation.members().get(0).node());
    assertEquals(1, explanation.notTried());
    assertEquals(GroupPlacement.place(group(3), pending, 0, snapshot, policy), explanation.decision());
  }

  @Test
  void movesTheRoundRobinAsPlaceDoesWithoutMovingThePolicys() {
    // No scorer: each member takes the first feasible node from the round-robin start, so the explanation can
    // only agree with place if it moves the start from member to member exactly as place does.
    var policy = Policy.builder().filter(new PolicyTest.Rejecting("Fits", "never")).build();
    var snapshot = ClusterSnapshot.of(PolicyTest.nodes(3));
    var pending = List.of(member("p1"), member("p2"));

    var first = policy.explainGroup(group(2), pending, 0, snapshot);
    assertEquals(List.of(Optional.of("n0"), Optional.of("n1")),
        first.members().stream().map(GroupExplanation.Member::node).toList());
    assertEquals(first, policy.explainGroup(group(2), pending, 0, snapshot), "explaining moves nothing");

    var placed =
        assertInstanceOf(GroupDecision.Placed.class, GroupPlacement.place(group(2), pending, 0, snapshot, policy));
    assertEquals(first.decision(), placed);
    assertEquals(Decision.bind("n2"), policy.find(PodInfo.builder("default", "next").build(), snapshot));
  }
}
