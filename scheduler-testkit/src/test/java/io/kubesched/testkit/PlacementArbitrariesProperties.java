package io.kubesched.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * The generators of inter-pod constraints hold the API server's validation rules and reach, often, every
 * case a policy must get right: each case is a label whose {@code true} must make up at least a minimum
 * share of the tries, and opposite cases (a selector that matches a pod, and one that does not) are two
 * labels, so both sides are required.
 */
class PlacementArbitrariesProperties {

  private static final Set<String> TOPOLOGY_KEYS =
      Set.of(KubeArbitraries.TOPOLOGY_HOSTNAME, KubeArbitraries.TOPOLOGY_ZONE, KubeArbitraries.TOPOLOGY_RACK);

  @Property
  @Label("label selectors match some generated pods and not others, with every operator and the empty selector")
  void labelSelectors(@ForAll("selectors") LabelSelector selector, @ForAll("pods") PodInfo pod) {
    for (var requirement : selector.matchExpressions()) {
      requireValidRequirement(requirement);
    }
    var operators = selector.matchExpressions().stream().map(LabelSelectorRequirement::operator).toList();

    often("matches the pod", selector.matches(pod.labels()), 20);
    often("does not match the pod", !selector.matches(pod.labels()), 20);
    often("is the empty selector", selector.isEmpty(), 8);
    often("has matchLabels", !selector.matchLabels().isEmpty(), 30);
    often("has matchExpressions", !selector.matchExpressions().isEmpty(), 30);
    often("has both", !selector.matchLabels().isEmpty() && !selector.matchExpressions().isEmpty(), 8);
    for (var operator : LabelSelectorRequirement.Operator.values()) {
      often("has the operator " + operator, operators.contains(operator), 5);
    }
  }

  @Property
  @Label("nullable label selectors reach null, which selects nothing, and the empty one, which selects all")
  void labelSelectorsOrNull(@ForAll("selectorsOrNull") @Nullable LabelSelector selector) {
    often("is null", selector == null, 5);
    often("is empty", selector != null && selector.isEmpty(), 5);
    often("has requirements", selector != null && !selector.isEmpty(), 60);
  }

  @Property
  @Label("pod affinity terms use the topology keys, namespaces and namespace selectors, and valid label keys")
  void podAffinityTerms(@ForAll("terms") PodAffinityTerm term) {
    requireValidTerm(term);

    for (var key : TOPOLOGY_KEYS) {
      often("topology key " + key, term.topologyKey().equals(key), 12);
    }
    often("has no label selector", term.labelSelector() == null, 5);
    often("names namespaces", !term.namespaces().isEmpty(), 20);
    often("has a namespace selector", term.namespaceSelector() != null, 15);
    often(
        "has the empty namespace selector",
        term.namespaceSelector() != null && term.namespaceSelector().isEmpty(),
        1);
    often("looks in its own namespace only", term.namespaces().isEmpty() && term.namespaceSelector() == null, 30);
    often("has matchLabelKeys", !term.matchLabelKeys().isEmpty(), 3);
    often("has mismatchLabelKeys", !term.mismatchLabelKeys().isEmpty(), 3);
  }

  @Property
  @Label("pod affinities have required terms, preferred terms or both, weighted 1 to 100")
  void podAffinities(@ForAll("affinities") PodAffinity affinity) {
    assertFalse(affinity.isEmpty(), "an affinity has at least one term");
    affinity.required().forEach(PlacementArbitrariesProperties::requireValidTerm);
    for (var weighted : affinity.preferred()) {
      assertTrue(weighted.weight() >= 1 && weighted.weight() <= 100, () -> "weight out of 1..100: " + weighted);
      requireValidTerm(weighted.term());
    }
    var weights = affinity.preferred().stream().map(WeightedPodAffinityTerm::weight).toList();

    often("required only", affinity.preferred().isEmpty(), 30);
    often("preferred only", affinity.required().isEmpty(), 15);
    often("required and preferred", !affinity.required().isEmpty() && !affinity.preferred().isEmpty(), 15);
    often("has weight 1", weights.contains(1), 5);
    often("has weight 100", weights.contains(100), 5);
  }

  @Property
  @Label("spread constraints reach both actions, every skew, minDomains and both inclusion policies")
  void topologySpreadConstraints(@ForAll("constraints") TopologySpreadConstraint constraint) {
    requireValidConstraint(constraint);

    often("DoNotSchedule", constraint.whenUnsatisfiable() == WhenUnsatisfiable.DO_NOT_SCHEDULE, 35);
    often("ScheduleAnyway", constraint.whenUnsatisfiable() == WhenUnsatisfiable.SCHEDULE_ANYWAY, 35);
    for (int skew = 1; skew <= 3; skew++) {
      often("maxSkew " + skew, constraint.maxSkew() == skew, 20);
    }
    often("has minDomains above 1", constraint.minDomains() > 1, 10);
    for (var policy : InclusionPolicy.values()) {
      often("nodeAffinityPolicy " + policy, constraint.nodeAffinityPolicy() == policy, 35);
      often("nodeTaintsPolicy " + policy, constraint.nodeTaintsPolicy() == policy, 35);
    }
    often("has no label selector", constraint.labelSelector() == null, 5);
    var selector = constraint.labelSelector();
    often("has the empty label selector", selector != null && selector.isEmpty(), 5);
    often("has matchLabelKeys", !constraint.matchLabelKeys().isEmpty(), 5);
    for (var key : TOPOLOGY_KEYS) {
      often("topology key " + key, constraint.topologyKey().equals(key), 12);
    }
  }

  @Property
  @Label("scheduling gates are one or two distinct names")
  void schedulingGates(@ForAll("gates") List<String> gates) {
    assertTrue(gates.size() >= 1 && gates.size() <= 2, gates::toString);
    assertEquals(gates.size(), new HashSet<>(gates).size(), gates::toString);
    often("two gates", gates.size() == 2, 20);
  }

  @Property
  @Label("constrained pods reach gates, affinity, anti-affinity against themselves, and spreading, and their absence")
  void constrainedPods(@ForAll("constrainedPods") PodInfo pod) {
    assertEquals("", pod.nodeName());
    pod.podAffinity().required().forEach(PlacementArbitrariesProperties::requireValidTerm);
    pod.podAntiAffinity().required().forEach(PlacementArbitrariesProperties::requireValidTerm);
    requireValidSpread(pod.topologySpreadConstraints());

    often("is gated", !pod.schedulingGates().isEmpty(), 15);
    often("is not gated", pod.schedulingGates().isEmpty(), 60);
    often("has pod affinity", !pod.podAffinity().isEmpty(), 35);
    often("has pod anti-affinity", !pod.podAntiAffinity().isEmpty(), 35);
    often("has spread constraints", !pod.topologySpreadConstraints().isEmpty(), 35);
    often("has none of them", !hasInterPodConstraints(pod), 5);
    often(
        "has required affinity that selects itself",
        pod.podAffinity().required().stream().anyMatch(t -> selectsOwnLabels(t.labelSelector(), pod)),
        5);
    often(
        "has required anti-affinity that selects itself",
        pod.podAntiAffinity().required().stream().anyMatch(t -> selectsOwnLabels(t.labelSelector(), pod)),
        5);
    often(
        "has a spread constraint that counts itself",
        pod.topologySpreadConstraints().stream().anyMatch(c -> selectsOwnLabels(c.labelSelector(), pod)),
        10);
  }

  @Property
  @Label("topology clusters label every node with its hostname, and reach nodes without a zone or a rack")
  void topologyClusters(@ForAll("topologyClusters") Cluster cluster) {
    for (var node : cluster.nodes()) {
      assertEquals(node.name(), node.labels().get(KubeArbitraries.TOPOLOGY_HOSTNAME), node::toString);
      for (var pod : node.pods()) {
        assertTrue(pod.schedulingGates().isEmpty(), () -> "a placed pod is gated: " + pod);
        pod.podAntiAffinity().required().forEach(PlacementArbitrariesProperties::requireValidTerm);
        requireValidSpread(pod.topologySpreadConstraints());
      }
    }
    often("has two nodes or more", cluster.size() >= 2, 50);
    if (cluster.size() >= 2) {
      often("a node lacks the zone", anyLacks(cluster.nodes(), KubeArbitraries.TOPOLOGY_ZONE), 30);
      often("every node has the zone", !anyLacks(cluster.nodes(), KubeArbitraries.TOPOLOGY_ZONE), 10);
      often("a node lacks the rack", anyLacks(cluster.nodes(), KubeArbitraries.TOPOLOGY_RACK), 60);
      often("a node has the rack", !allLack(cluster.nodes(), KubeArbitraries.TOPOLOGY_RACK), 40);
      often("two nodes share a zone", twoShareAZone(cluster.nodes()), 30);
      often(
          "a placed pod has required anti-affinity",
          placedPods(cluster.nodes()).anyMatch(p -> !p.podAntiAffinity().required().isEmpty()),
          40);
      often(
          "a placed pod has pod affinity",
          placedPods(cluster.nodes()).anyMatch(p -> !p.podAffinity().isEmpty()),
          20);
      often(
          "a placed pod has spread constraints",
          placedPods(cluster.nodes()).anyMatch(p -> !p.topologySpreadConstraints().isEmpty()),
          20);
    }
  }

  @Property
  @Label("snapshots carry labelled namespaces and workloads whose selectors match some placed pods")
  void snapshots(@ForAll("snapshots") ClusterSnapshot snapshot) {
    assertEquals(Set.copyOf(PlacementDraws.NAMESPACES), snapshot.namespaces().keySet());
    snapshot
        .namespaces()
        .forEach(
            (name, labels) -> assertEquals(name, labels.get(KubeArbitraries.NAMESPACE_NAME_LABEL), labels::toString));
    var names = snapshot.nodes().stream().map(NodeInfo::name).toList();
    assertEquals(names.size(), new HashSet<>(names).size(), names::toString);
    for (var workload : snapshot.workloads()) {
      assertFalse(workload.selector().isEmpty(), () -> "a workload without a selector: " + workload);
    }

    often("has no nodes", snapshot.nodes().isEmpty(), 4);
    often("has workloads", !snapshot.workloads().isEmpty(), 50);
    often("has a zone", !allLack(snapshot.nodes(), KubeArbitraries.TOPOLOGY_ZONE), 50);
    often(
        "a placed pod has required anti-affinity",
        placedPods(snapshot.nodes()).anyMatch(p -> !p.podAntiAffinity().required().isEmpty()),
        40);
    often(
        "a workload selects a placed pod",
        snapshot.workloads().stream()
            .anyMatch(
                w ->
                    placedPods(snapshot.nodes())
                        .anyMatch(p -> p.namespace().equals(w.namespace()) && w.selector().matches(p.labels()))),
        25);
    often(
        "two namespaces differ in labels beyond their name",
        snapshot.namespaces().values().stream().map(l -> l.size()).distinct().count() > 1
            || snapshot.namespaces().values().stream().map(l -> l.get("env")).distinct().count() > 1,
        50);
  }

  @Property
  @Label("snapshot scenarios reach placed pods whose anti-affinity selects the pending pod, missing keys and gates")
  void snapshotScenarios(@ForAll("snapshotScenarios") SnapshotScenario scenario) {
    var pod = scenario.pod();
    var snapshot = scenario.snapshot();
    assertEquals("", pod.nodeName());
    assertTrue(scenario.toString().contains("namespaces="), "a scenario prints its snapshot");

    // Each case is collected in every try, not only where it could arise: a label never collected would pass.
    var antiAffinityTerms =
        placedPods(snapshot.nodes())
            .flatMap(p -> p.podAntiAffinity().required().stream().map(t -> new Owned(p, t)))
            .toList();
    often("a placed pod has required anti-affinity", !antiAffinityTerms.isEmpty(), 40);
    often(
        "a placed pod's required anti-affinity selects the pending pod",
        antiAffinityTerms.stream().anyMatch(o -> selects(o.pod(), o.term(), pod, snapshot)),
        20);
    often(
        "a placed pod's required anti-affinity selects other pods than the pending one",
        antiAffinityTerms.stream().anyMatch(o -> !selects(o.pod(), o.term(), pod, snapshot)),
        20);
    often(
        "a node lacks a topology key of the pending pod's constraints",
        topologyKeysOf(pod).stream().anyMatch(key -> anyLacks(snapshot.nodes(), key)),
        20);
    often(
        "a node has every topology key of the pending pod's constraints while another lacks one",
        snapshot.nodes().stream().anyMatch(n -> n.labels().keySet().containsAll(topologyKeysOf(pod)))
            && topologyKeysOf(pod).stream().anyMatch(key -> anyLacks(snapshot.nodes(), key)),
        10);
    often(
        "the pending pod has a DoNotSchedule constraint",
        hasConstraint(pod, WhenUnsatisfiable.DO_NOT_SCHEDULE),
        15);
    often(
        "the pending pod has a ScheduleAnyway constraint",
        hasConstraint(pod, WhenUnsatisfiable.SCHEDULE_ANYWAY),
        15);
    often("the pending pod is gated", !pod.schedulingGates().isEmpty(), 10);
    often(
        "a pending pod's term selects namespaces by labels that match one",
        Stream.concat(pod.podAffinity().required().stream(), pod.podAntiAffinity().required().stream())
            .map(PodAffinityTerm::namespaceSelector)
            .anyMatch(s -> s != null && !s.isEmpty() && snapshot.namespaces().values().stream().anyMatch(s::matches)),
        3);
    often(
        "a workload selects the pending pod",
        snapshot.workloadsIn(pod.namespace()).stream().anyMatch(w -> w.selector().matches(pod.labels())),
        15);
  }

  // ---- what the API server demands ----

  private static void requireValidRequirement(LabelSelectorRequirement requirement) {
    switch (requirement.operator()) {
      case IN, NOT_IN -> assertFalse(requirement.values().isEmpty(), requirement::toString);
      case EXISTS, DOES_NOT_EXIST -> assertTrue(requirement.values().isEmpty(), requirement::toString);
    }
  }

  private static void requireValidTerm(PodAffinityTerm term) {
    assertTrue(TOPOLOGY_KEYS.contains(term.topologyKey()), term::toString);
    var selector = term.labelSelector();
    if (selector != null) {
      selector.matchExpressions().forEach(PlacementArbitrariesProperties::requireValidRequirement);
    }
    if (term.namespaceSelector() != null) {
      term.namespaceSelector().matchExpressions().forEach(PlacementArbitrariesProperties::requireValidRequirement);
    }
    requireValidLabelKeys(term.matchLabelKeys(), selector, term.toString());
    requireValidLabelKeys(term.mismatchLabelKeys(), selector, term.toString());
    var both = new HashSet<>(term.matchLabelKeys());
    both.retainAll(term.mismatchLabelKeys());
    assertTrue(both.isEmpty(), () -> "a key is in matchLabelKeys and mismatchLabelKeys: " + term);
  }

  private static void requireValidConstraint(TopologySpreadConstraint constraint) {
    assertTrue(constraint.maxSkew() >= 1 && constraint.maxSkew() <= 3, constraint::toString);
    assertTrue(TOPOLOGY_KEYS.contains(constraint.topologyKey()), constraint::toString);
    assertTrue(constraint.minDomains() >= 1, constraint::toString);
    if (constraint.whenUnsatisfiable() == WhenUnsatisfiable.SCHEDULE_ANYWAY) {
      assertEquals(1, constraint.minDomains(), () -> "minDomains only with DoNotSchedule: " + constraint);
    }
    requireValidLabelKeys(constraint.matchLabelKeys(), constraint.labelSelector(), constraint.toString());
  }

  private static void requireValidSpread(List<TopologySpreadConstraint> constraints) {
    var kinds = new HashSet<String>();
    for (var constraint : constraints) {
      requireValidConstraint(constraint);
      assertTrue(
          kinds.add(constraint.topologyKey() + ":" + constraint.whenUnsatisfiable()),
          () -> "two constraints of one topology key and action: " + constraints);
    }
  }

  private static void requireValidLabelKeys(List<String> keys, @Nullable LabelSelector selector, String where) {
    if (keys.isEmpty()) {
      return;
    }
    assertNotNull(selector, () -> "label keys without a selector: " + where);
    for (var key : keys) {
      assertFalse(selector.matchLabels().containsKey(key), () -> "a label key the selector names: " + where);
      assertTrue(
          selector.matchExpressions().stream().noneMatch(r -> r.key().equals(key)),
          () -> "a label key the selector names: " + where);
    }
  }

  // ---- what the cases are ----

  private record Owned(PodInfo pod, PodAffinityTerm term) {}

  /** Whether {@code owner}'s term selects {@code pod}: by labels, and in one of the namespaces it looks in. */
  private static boolean selects(PodInfo owner, PodAffinityTerm term, PodInfo pod, ClusterSnapshot snapshot) {
    var selector = term.labelSelector();
    if (selector == null || !selector.matches(pod.labels())) {
      return false;
    }
    var namespaceSelector = term.namespaceSelector();
    if (term.namespaces().isEmpty() && namespaceSelector == null) {
      return owner.namespace().equals(pod.namespace());
    }
    return term.namespaces().contains(pod.namespace())
        || (namespaceSelector != null && namespaceSelector.matches(snapshot.namespaceLabels(pod.namespace())));
  }

  private static boolean selectsOwnLabels(@Nullable LabelSelector selector, PodInfo pod) {
    return selector != null && !pod.labels().isEmpty() && selector.matchLabels().equals(pod.labels());
  }

  private static boolean hasInterPodConstraints(PodInfo pod) {
    return !pod.podAffinity().isEmpty()
        || !pod.podAntiAffinity().isEmpty()
        || !pod.topologySpreadConstraints().isEmpty()
        || !pod.schedulingGates().isEmpty();
  }

  private static Set<String> topologyKeysOf(PodInfo pod) {
    var keys = new HashSet<String>();
    for (var affinity : List.of(pod.podAffinity(), pod.podAntiAffinity())) {
      affinity.required().forEach(t -> keys.add(t.topologyKey()));
      affinity.preferred().forEach(t -> keys.add(t.term().topologyKey()));
    }
    pod.topologySpreadConstraints().forEach(c -> keys.add(c.topologyKey()));
    return keys;
  }

  private static boolean anyLacks(List<NodeInfo> nodes, String key) {
    return nodes.stream().anyMatch(n -> !n.labels().containsKey(key));
  }

  private static boolean allLack(List<NodeInfo> nodes, String key) {
    return nodes.stream().noneMatch(n -> n.labels().containsKey(key));
  }

  private static boolean hasConstraint(PodInfo pod, WhenUnsatisfiable action) {
    return pod.topologySpreadConstraints().stream().anyMatch(c -> c.whenUnsatisfiable() == action);
  }

  private static boolean twoShareAZone(List<NodeInfo> nodes) {
    var seen = new ArrayList<String>();
    for (var node : nodes) {
      var zone = node.labels().get(KubeArbitraries.TOPOLOGY_ZONE);
      if (zone != null) {
        if (seen.contains(zone)) {
          return true;
        }
        seen.add(zone);
      }
    }
    return false;
  }

  private static Stream<PodInfo> placedPods(List<NodeInfo> nodes) {
    return nodes.stream().flatMap(n -> n.pods().stream());
  }

  /**
   * Collects {@code value} under {@code label} and requires {@code true} to make up at least {@code
   * minPercent} of the tries that collected the label.
   */
  private static void often(String label, boolean value, double minPercent) {
    var collector = Statistics.label(label);
    collector.collect(value);
    collector.coverage(coverage -> coverage.check(true).percentage(p -> p >= minPercent));
  }

  @Provide
  Arbitrary<LabelSelector> selectors() {
    return KubeArbitraries.labelSelectors();
  }

  @Provide
  Arbitrary<@Nullable LabelSelector> selectorsOrNull() {
    return KubeArbitraries.labelSelectorsOrNull();
  }

  @Provide
  Arbitrary<PodInfo> pods() {
    return KubeArbitraries.pods();
  }

  @Provide
  Arbitrary<PodAffinityTerm> terms() {
    return KubeArbitraries.podAffinityTerms();
  }

  @Provide
  Arbitrary<PodAffinity> affinities() {
    return KubeArbitraries.podAffinities();
  }

  @Provide
  Arbitrary<TopologySpreadConstraint> constraints() {
    return KubeArbitraries.topologySpreadConstraints();
  }

  @Provide
  Arbitrary<List<String>> gates() {
    return KubeArbitraries.schedulingGates();
  }

  @Provide
  Arbitrary<PodInfo> constrainedPods() {
    return KubeArbitraries.pods().withPlacementConstraints();
  }

  @Provide
  Arbitrary<Cluster> topologyClusters() {
    return KubeArbitraries.clusters().withTopology();
  }

  @Provide
  Arbitrary<ClusterSnapshot> snapshots() {
    return KubeArbitraries.snapshots();
  }

  @Provide
  Arbitrary<SnapshotScenario> snapshotScenarios() {
    return KubeArbitraries.snapshotScenarios();
  }
}
