package io.kubesched.policy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.Decision;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.Policy;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.Scorer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The example Policy of the project's seed notes (001_1353587a863ebad4.txt, "Config"), with kube-scheduler's
 * former service rules and the user's own {@code PredicateOne/Two} and {@code PriorityOne/Two}.
 *
 * <p>{@code seed-policy.json} is the seed's text (tabs included) with one change: the opening brace, which the
 * seed's excerpt leaves out. The four user plugins are registered here, as kube's own test of this Policy
 * registered them; their rules are this test's (kube's returned fixed results).
 */
class SeedPolicyFileTest {

  /** PredicateOne: nodes under maintenance take no pods. */
  static final Filter NOT_IN_MAINTENANCE =
      new Filter() {
        @Override
        public String name() {
          return "NotInMaintenance";
        }

        @Override
        public FilterResult filter(PodInfo pod, NodeInfo node) {
          return node.labels().containsKey("maintenance")
              ? FilterResult.unresolvable(Reason.of("node(s) were under maintenance"))
              : FilterResult.fit();
        }
      };

  /** PredicateTwo: fits everywhere, as kube's test predicates did. */
  static final Filter ALWAYS =
      new Filter() {
        @Override
        public String name() {
          return "PredicateTwo";
        }

        @Override
        public FilterResult filter(PodInfo pod, NodeInfo node) {
          return FilterResult.fit();
        }
      };

  /** PriorityOne: prefers SSD nodes. */
  static final Scorer PREFER_SSD =
      new Scorer() {
        @Override
        public String name() {
          return "PreferSsd";
        }

        @Override
        public long score(PodInfo pod, NodeInfo node) {
          return "ssd".equals(node.labels().get("disktype")) ? MAX_SCORE : 0;
        }
      };

  /** PriorityTwo: the same score everywhere. */
  static final Scorer FLAT =
      new Scorer() {
        @Override
        public String name() {
          return "PriorityTwo";
        }

        @Override
        public long score(PodInfo pod, NodeInfo node) {
          return 50;
        }
      };

  static final PodInfo WEB_0 =
      PodInfo.builder("shop", "web-0").labels(Map.of("app", "web")).nodeName("a1").build();
  static final PodInfo WEB_1 = PodInfo.builder("shop", "web-1").labels(Map.of("app", "web")).build();
  static final WorkloadSelector WEB =
      new WorkloadSelector(WorkloadSelector.Kind.SERVICE, "shop", "web", LabelSelector.of(Map.of("app", "web")));

  static final List<NodeInfo> NODES =
      List.of(
          node("a1", Map.of("zone", "a", "rack", "r1")).withPod(WEB_0),
          node("a2", Map.of("zone", "a", "rack", "r2")),
          node("a3", Map.of("zone", "a", "rack", "r2", "maintenance", "true")),
          node("b1", Map.of("zone", "b", "rack", "r3", "disktype", "ssd")),
          node("no-zone", Map.of("rack", "r4", "disktype", "ssd")));

  static NodeInfo node(String name, Map<String, String> labels) {
    return NodeInfo.builder(name).labels(labels).allocatable(4000, 8L << 30, 110).build();
  }

  static Policy seedPolicy() throws IOException {
    String text;
    try (InputStream in =
        Objects.requireNonNull(SeedPolicyFileTest.class.getResourceAsStream("seed-policy.json"))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    return PolicyFile.loader()
        .filter("PredicateOne", NOT_IN_MAINTENANCE)
        .filter("PredicateTwo", ALWAYS)
        .scorer("PriorityOne", PREFER_SSD)
        .scorer("PriorityTwo", FLAT)
        .parse(text, "seed-policy.json");
  }

  @Test
  void the_seed_policy_loads_with_its_service_rules_and_the_registered_plugins() throws IOException {
    var policy = seedPolicy();

    assertEquals(
        List.of("TestZoneAffinity", "TestRequireZone", "PredicateOne", "PredicateTwo"),
        policy.filters().stream().map(Filter::name).toList());
    assertEquals(
        List.of("RackSpread*3", "PriorityOne*2", "PriorityTwo*1"),
        policy.scorers().stream().map(ws -> ws.scorer().name() + "*" + ws.weight()).toList());
    // A Policy file preempts unless it says otherwise, so it reads PodDisruptionBudgets too.
    assertEquals(Set.of(ClusterData.SERVICES, ClusterData.POD_DISRUPTION_BUDGETS), policy.reads());
  }

  @Test
  void the_service_keeps_the_pod_in_its_zone_and_spreads_it_over_racks() throws IOException {
    var policy = seedPolicy();

    var explanation = policy.explain(WEB_1, ClusterSnapshot.of(NODES, Map.of(), List.of(WEB)));

    // web-0 runs in zone a, rack r1: zone b and the zoneless node are out, a3 is in maintenance, and of a1 and
    // a2 the rack without a web pod wins, although b1 has the SSD that PriorityOne prefers.
    assertEquals(Decision.bind("a2"), explanation.decision());
    assertEquals(
        List.of("node(s) didn't match service affinity"), rejection(explanation.node("b1").orElseThrow()));
    assertEquals(
        List.of("node(s) didn't match service affinity"),
        rejection(explanation.node("no-zone").orElseThrow()));
    assertEquals(List.of("node(s) were under maintenance"), rejection(explanation.node("a3").orElseThrow()));
    assertEquals(0L, explanation.node("a1").orElseThrow().scores().get("RackSpread"));
    assertEquals(100L, explanation.node("a2").orElseThrow().scores().get("RackSpread"));
  }

  @Test
  void without_the_service_the_registered_priority_chooses_the_ssd_node_in_another_zone() throws IOException {
    var policy = seedPolicy();

    var explanation = policy.explain(WEB_1, ClusterSnapshot.of(NODES, Map.of(), List.of()));

    assertEquals(Decision.bind("b1"), explanation.decision());
    assertEquals(
        List.of("node(s) didn't have the requested labels"),
        rejection(explanation.node("no-zone").orElseThrow()));
    for (var node : List.of("a1", "a2", "b1")) {
      assertEquals(100L, explanation.node(node).orElseThrow().scores().get("RackSpread"), node);
    }
  }

  private static List<String> rejection(io.kubesched.policy.Explanation.NodeExplanation node) {
    var last = node.filters().get(node.filters().size() - 1);
    return assertInstanceOf(FilterResult.Rejected.class, last.result()).reasons().stream()
        .map(Reason::message)
        .toList();
  }
}
