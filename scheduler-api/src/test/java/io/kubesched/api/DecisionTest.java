package io.kubesched.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DecisionTest {

  private static final String TAINT = "node(s) had untolerated taint(s)";
  private static final String CPU = "Insufficient cpu";
  private static final String MEMORY = "Insufficient memory";

  @Test
  void the_message_counts_each_reason_over_the_nodes_as_kube_scheduler_does() {
    var decision = Decision.unschedulable(Map.of("n1", List.of(TAINT), "n2", List.of(CPU), "n3", List.of(CPU)));

    assertEquals(
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu.",
        decision.message(3));
  }

  @Test
  void a_node_with_several_reasons_counts_in_each_of_them() {
    var decision =
        Decision.unschedulable(
            Map.of("n1", List.of(CPU, MEMORY), "n2", List.of(CPU), "n3", List.of(TAINT)));

    assertEquals(
        "0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint(s),"
            + " 2 Insufficient cpu.",
        decision.message(3));
  }

  @Test
  void entries_are_sorted_as_text_so_ten_comes_before_two() {
    var reasons = new LinkedHashMap<String, List<String>>();
    for (int i = 0; i < 10; i++) {
      reasons.put("cpu-" + i, List.of(CPU));
    }
    reasons.put("mem-1", List.of(MEMORY));
    reasons.put("mem-2", List.of(MEMORY));

    assertEquals(
        "0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory.",
        Decision.unschedulable(reasons).message(12));
  }

  @Test
  void entries_with_equal_counts_are_sorted_by_reason() {
    var decision = Decision.unschedulable(Map.of("n1", List.of("b reason"), "n2", List.of("a reason")));

    assertEquals("0/2 nodes are available: 1 a reason, 1 b reason.", decision.message(2));
  }

  @Test
  void the_node_count_is_the_one_given_not_the_number_of_nodes_with_reasons() {
    var decision = Decision.unschedulable(Map.of("n1", List.of(CPU)));

    assertEquals("0/6 nodes are available: 1 Insufficient cpu.", decision.message(6));
  }

  @Test
  void with_no_node_at_all_the_message_is_kube_schedulers_no_nodes_available() {
    assertEquals("no nodes available to schedule pods", Decision.unschedulable(Map.of()).message(0));
  }

  @Test
  void without_any_reason_the_message_ends_after_the_colon() {
    assertEquals(
        "0/2 nodes are available:",
        Decision.unschedulable(Map.of("n1", List.of(), "n2", List.of())).message(2));
  }

  @Test
  void unschedulable_copies_the_map_and_the_reason_lists() {
    var cpuReasons = new ArrayList<>(List.of(CPU));
    var source = new HashMap<String, List<String>>();
    source.put("n1", cpuReasons);
    var decision = Decision.unschedulable(source);

    cpuReasons.add(MEMORY);
    source.put("n2", List.of(TAINT));

    assertEquals(Map.of("n1", List.of(CPU)), decision.reasonsByNode());
    assertEquals("0/1 nodes are available: 1 Insufficient cpu.", decision.message(1));
  }

  @Test
  void unschedulable_reasons_cannot_be_modified() {
    var decision = Decision.unschedulable(Map.of("n1", List.of(CPU)));

    assertThrows(UnsupportedOperationException.class, () -> decision.reasonsByNode().put("n2", List.of()));
    assertThrows(UnsupportedOperationException.class, () -> decision.reasonsByNode().get("n1").add(MEMORY));
  }

  @Test
  void a_derived_decision_shares_the_reasons_and_nodes_rather_than_copying_them_again() {
    // A failed attempt builds its decision in three steps (reasons, unresolvable nodes, preemption's outcome)
    // over every node of the cluster: each step used to copy every node's reasons again.
    var reasons = new HashMap<String, List<String>>();
    for (int i = 0; i < 15_000; i++) {
      reasons.put(String.format("node-%05d", i), List.of(i % 3 == 0 ? TAINT : MEMORY));
    }
    var decision = Decision.unschedulable(reasons);
    var unresolvable = decision.withUnresolvableNodes(Set.of("node-00000", "node-00003"));
    var preempted = unresolvable.withPostFilter("preemption: not helpful", Nomination.CLEAR);

    // Identity, not equality: assertSame would print all 15 000 entries when it fails.
    assertTrue(decision.reasonsByNode() == unresolvable.reasonsByNode(), "withUnresolvableNodes copied the reasons");
    assertTrue(decision.reasonsByNode() == preempted.reasonsByNode(), "withPostFilter copied the reasons");
    assertTrue(
        unresolvable.unresolvableNodes() == preempted.unresolvableNodes(), "withPostFilter copied the nodes");
    assertEquals(reasons, preempted.reasonsByNode());
    assertEquals(Set.of("node-00000", "node-00003"), preempted.unresolvableNodes());
    assertEquals(List.of(TAINT), preempted.reasonsByNode().get("node-14997"));
    assertEquals(
        "0/15000 nodes are available: 10000 Insufficient memory, 5000 node(s) had untolerated taint(s)."
            + " preemption: not helpful",
        preempted.message(15_000));
  }

  @Test
  void unschedulable_nodes_cannot_be_modified_nor_named_null() {
    var decision = Decision.unschedulable(Map.of("n1", List.of(CPU))).withUnresolvableNodes(Set.of("n1"));
    var withNull = new HashSet<String>();
    withNull.add(null);
    var nullNode = new HashMap<String, List<String>>();
    nullNode.put(null, List.of(CPU));

    assertThrows(UnsupportedOperationException.class, () -> decision.unresolvableNodes().add("n2"));
    assertThrows(UnsupportedOperationException.class, () -> decision.reasonsByNode().remove("n1"));
    assertThrows(UnsupportedOperationException.class, () -> decision.reasonsByNode().entrySet().clear());
    assertThrows(NullPointerException.class, () -> decision.withUnresolvableNodes(withNull));
    assertThrows(NullPointerException.class, () -> Decision.unschedulable(nullNode));
  }

  @Test
  void bind_keeps_the_node_name() {
    assertEquals("n1", Decision.bind("n1").nodeName());
  }

  @Test
  void bind_rejects_a_blank_node_name() {
    assertThrows(IllegalArgumentException.class, () -> Decision.bind(""));
    assertThrows(IllegalArgumentException.class, () -> Decision.bind("  "));
  }
}
