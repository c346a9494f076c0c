package io.kubesched.policy.plugins.podtopologyspread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * Laws of kube's topology spreading, over small clusters: nodes in three zones (some without a zone or a
 * hostname label, some tainted, in two tiers), pods of two apps and two versions in two namespaces (some being
 * deleted), and incoming pods whose constraints vary every field the plugins read.
 */
class PodTopologySpreadProperties {

  private static final String ZONE = "zone";
  private static final String HOST = PodTopologySpreadArgs.HOSTNAME_LABEL;
  private static final Taint TAINT = new Taint("dedicated", "x", TaintEffect.NO_SCHEDULE);

  // ---------------------------------------------------------------- placing a sequence

  /**
   * Pods that share a {@code DoNotSchedule} constraint (and the node selector and tolerations that decide the
   * eligible nodes), each placed on a node the prepared filter accepts, never leave a domain more than {@code
   * maxSkew} above the smallest eligible one (above 0 while there are fewer than {@code minDomains} domains).
   */
  @Property
  @Label("placing pods only where the filter accepts never exceeds maxSkew among the eligible domains")
  void placementsKeepTheSkew(
      @ForAll("emptyNodes") List<NodeInfo> initial,
      @ForAll("incomingPods") PodInfo template,
      @ForAll("choices") List<Integer> choices) {
    var nodes = new ArrayList<>(initial);
    var filter = new PodTopologySpreadFilter();
    int placed = 0;
    for (int step = 0; step < choices.size(); step++) {
      // Every third pod is of another app: the constraint does not count it, and it may go where it fits.
      var pod = template.toBuilder().uid("p" + step)
          .labels(step % 3 == 2 ? Map.of("app", "b", "version", "v1") : template.labels()).build();
      var prepared = filter.prepare(pod, ClusterSnapshot.of(nodes));
      var accepted = new ArrayList<Integer>();
      for (int i = 0; i < nodes.size(); i++) {
        if (prepared.filter(pod, nodes.get(i)).fits()) {
          accepted.add(i);
        }
      }
      if (accepted.isEmpty()) {
        continue;
      }
      int chosen = accepted.get(choices.get(step) % accepted.size());
      nodes.set(chosen, nodes.get(chosen).withPod(pod.toBuilder().nodeName(nodes.get(chosen).name()).build()));
      placed++;
      for (var constraint : template.topologySpreadConstraints()) {
        var counts = eligibleCounts(template, constraint, template.topologySpreadConstraints(), nodes);
        int min = counts.size() < constraint.minDomains()
            ? 0
            : counts.values().stream().mapToInt(Integer::intValue).min().orElse(0);
        for (var entry : counts.entrySet()) {
          assertTrue(entry.getValue() - min <= constraint.maxSkew(),
              "after " + placed + " placements, " + constraint.topologyKey() + " " + entry.getKey() + " holds "
                  + entry.getValue() + " against a minimum of " + min + " with maxSkew " + constraint.maxSkew()
                  + ": " + counts);
        }
      }
    }
    Statistics.label("placed").collect(placed == 0 ? "none" : placed < 4 ? "1-3" : "4 or more");
    Statistics.label("placed").coverage(c -> c.check("4 or more").count(n -> n > 0));
  }

  // ---------------------------------------------------------------- against brute force

  /** The prepared filter decides every node as a direct reading of kube's definitions does. */
  @Property
  @Label("the prepared filter agrees with a brute-force skew computation")
  void filterAgreesWithBruteForce(@ForAll("clusters") List<NodeInfo> nodes, @ForAll("incomingPods") PodInfo pod) {
    var prepared = new PodTopologySpreadFilter().prepare(pod, ClusterSnapshot.of(nodes));
    for (var node : nodes) {
      var expected = bruteForce(pod, node, nodes);
      var result = prepared.filter(pod, node);
      assertEquals(expected, result.code(), () -> "node " + node.name() + " for " + pod.topologySpreadConstraints());
      Statistics.label("outcome").collect(switch (expected) {
        case SUCCESS -> "accepted";
        case UNSCHEDULABLE -> "skew exceeded";
        default -> "missing label";
      });
    }
    Statistics.label("outcome").coverage(c -> {
      c.check("accepted").count(n -> n > 0);
      c.check("skew exceeded").count(n -> n > 0);
      c.check("missing label").count(n -> n > 0);
    });
  }

  /** Kube's rules read directly from the pod's constraints, without the plugin's code. */
  private static Code bruteForce(PodInfo pod, NodeInfo node, List<NodeInfo> nodes) {
    var constraints = pod.topologySpreadConstraints().stream()
        .filter(c -> c.whenUnsatisfiable() == WhenUnsatisfiable.DO_NOT_SCHEDULE)
        .toList();
    for (var c : constraints) {
      var value = node.labels().get(c.topologyKey());
      if (value == null) {
        return Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
      }
      var counts = eligibleCounts(pod, c, constraints, nodes);
      int min = counts.size() < c.minDomains()
          ? 0
          : counts.values().stream().mapToInt(Integer::intValue).min().orElse(0);
      int self = selects(c, pod, pod) ? 1 : 0;
      if (counts.getOrDefault(value, 0) + self - min > c.maxSkew()) {
        return Code.UNSCHEDULABLE;
      }
    }
    return Code.SUCCESS;
  }

  /** The selected pods per domain over the nodes that have every key and that {@code c}'s policies admit. */
  private static Map<String, Integer> eligibleCounts(
      PodInfo pod, TopologySpreadConstraint c, List<TopologySpreadConstraint> all, List<NodeInfo> nodes) {
    var counts = new HashMap<String, Integer>();
    for (var node : nodes) {
      boolean hasAllKeys = all.stream().allMatch(k -> node.labels().containsKey(k.topologyKey()));
      boolean affinityOk = c.nodeAffinityPolicy() == InclusionPolicy.IGNORE
          || pod.nodeSelector().entrySet().stream()
              .allMatch(e -> e.getValue().equals(node.labels().get(e.getKey())));
      boolean taintsOk = c.nodeTaintsPolicy() == InclusionPolicy.IGNORE
          || node.taints().stream().allMatch(t -> pod.tolerations().stream().anyMatch(tol -> tol.tolerates(t)));
      if (!hasAllKeys || !affinityOk || !taintsOk) {
        continue;
      }
      int count = 0;
      boolean emptySelector = c.labelSelector() == null || c.labelSelector().isEmpty() && c.matchLabelKeys().stream()
          .noneMatch(k -> pod.labels().containsKey(k));
      for (var other : node.pods()) {
        if (!emptySelector && !other.terminating() && other.namespace().equals(pod.namespace())
            && selects(c, pod, other)) {
          count++;
        }
      }
      counts.merge(node.labels().get(c.topologyKey()), count, Integer::sum);
    }
    return counts;
  }

  /** {@code c}'s selector, narrowed by {@code pod}'s values of its {@code matchLabelKeys}, selects {@code other}. */
  private static boolean selects(TopologySpreadConstraint c, PodInfo pod, PodInfo other) {
    if (c.labelSelector() == null || !c.labelSelector().matches(other.labels())) {
      return false;
    }
    for (var key : c.matchLabelKeys()) {
      var value = pod.labels().get(key);
      if (value != null && !value.equals(other.labels().get(key))) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- scores

  @Property
  @Label("normalised scores lie in 0..100, with the pod's constraints or the system defaults")
  void scoresLieIn0To100(
      @ForAll("clusters") List<NodeInfo> nodes,
      @ForAll("incomingPods") PodInfo constrained,
      @ForAll boolean ownConstraints,
      @ForAll("feasibleMasks") List<Boolean> mask) {
    var pod = ownConstraints ? soft(constrained) : constrained.toBuilder().topologySpreadConstraints(List.of()).build();
    var services = List.of(new WorkloadSelector(WorkloadSelector.Kind.SERVICE, "default", "web",
        LabelSelector.of(Map.of("app", "a"))));
    var cluster = ClusterSnapshot.of(nodes, Map.of(), services);
    var feasible = new ArrayList<NodeInfo>();
    for (int i = 0; i < nodes.size(); i++) {
      if (mask.get(i % mask.size())) {
        feasible.add(nodes.get(i));
      }
    }
    var scorer = new PodTopologySpreadScorer().prepare(pod, feasible, cluster);
    var scores = new long[feasible.size()];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = scorer.score(pod, feasible.get(i));
    }
    if (scorer instanceof ScoreNormalizer normalizer) {
      normalizer.normalize(pod, feasible, scores);
    }
    boolean spread = false;
    for (long score : scores) {
      assertTrue(score >= 0 && score <= 100, "score " + score);
      spread |= score < 100;
    }
    Statistics.label("scores").collect((ownConstraints ? "own" : "system defaults") + (spread ? ", spread" : ", equal"));
    Statistics.label("scores").coverage(c -> {
      c.check("own, spread").count(n -> n > 0);
      c.check("system defaults, spread").count(n -> n > 0);
    });
  }

  private static PodInfo soft(PodInfo pod) {
    var constraints = pod.topologySpreadConstraints().stream()
        .map(c -> new TopologySpreadConstraint(c.maxSkew(), c.topologyKey(), WhenUnsatisfiable.SCHEDULE_ANYWAY,
            c.labelSelector(), 1, c.nodeAffinityPolicy(), c.nodeTaintsPolicy(), c.matchLabelKeys()))
        .toList();
    return pod.toBuilder().topologySpreadConstraints(constraints).build();
  }

  // ---------------------------------------------------------------- the queueing hint

  @Property
  @Label("when the hint skips a bound pod's deletion, no node turns from rejected to fitting")
  void hintSkipsOnlyDeletionsThatCannotHelp(
      @ForAll("clusters") List<NodeInfo> nodes, @ForAll("incomingPods") PodInfo pod,
      @ForAll("picks") int nodePick, @ForAll("picks") int podPick) {
    var from = nodes.get(nodePick % nodes.size());
    if (from.pods().isEmpty()) {
      Statistics.label("hint").collect("not asked");
      return;
    }
    var gone = from.pods().get(podPick % from.pods().size());
    var after = nodes.stream().map(n -> n == from ? n.withoutPod(gone.uid()) : n).toList();
    checkSkipped(pod, nodes, after, new ClusterUpdate.AssignedPodDeleted(gone));
  }

  @Property
  @Label("when the hint skips a node's update, no node turns from rejected to fitting")
  void hintSkipsOnlyNodeUpdatesThatCannotHelp(
      @ForAll("clusters") List<NodeInfo> nodes, @ForAll("incomingPods") PodInfo pod,
      @ForAll("picks") int nodePick, @ForAll("shapes") NodeShape shape) {
    var node = nodes.get(nodePick % nodes.size());
    var updated = node(shape, node.name(), node.pods());
    var after = nodes.stream().map(n -> n == node ? updated : n).toList();
    checkSkipped(pod, nodes, after, new ClusterUpdate.NodeUpdated(
        node(shape(node), node.name(), List.of()), node(shape, node.name(), List.of()),
        Set.of(ClusterChange.NODE_LABELS, ClusterChange.NODE_TAINTS)));
  }

  @Property
  @Label("when the hint skips a node's addition, no node turns from rejected to fitting, nor does the new one take "
      + "a pod rejected anywhere")
  void hintSkipsOnlyAdditionsThatCannotHelp(
      @ForAll("clusters") List<NodeInfo> nodes, @ForAll("incomingPods") PodInfo pod,
      @ForAll("shapes") NodeShape shape) {
    var added = node(shape, "added", List.of());
    var after = new ArrayList<>(nodes);
    after.add(added);
    checkSkipped(pod, nodes, after, new ClusterUpdate.NodeAdded(added));
  }

  /**
   * Asserts that, if the hint skips {@code update}, which turned {@code before} into {@code after} (the same nodes in
   * the same order, and perhaps one more), no node of {@code before} turns from rejected to fitting, and a node added
   * does not fit a pod rejected on some node before.
   */
  private static void checkSkipped(PodInfo pod, List<NodeInfo> before, List<NodeInfo> after, ClusterUpdate update) {
    var filter = new PodTopologySpreadFilter();
    boolean hint = filter.isSchedulableAfter(pod, update);
    Statistics.label("hint").collect(hint ? "queue" : "skip");
    var preparedBefore = filter.prepare(pod, ClusterSnapshot.of(before));
    var preparedAfter = filter.prepare(pod, ClusterSnapshot.of(after));
    boolean rejectedSomewhere = false;
    for (int i = 0; i < after.size(); i++) {
      var node = after.get(i);
      boolean rejected = i < before.size() ? !preparedBefore.filter(pod, before.get(i)).fits() : rejectedSomewhere;
      rejectedSomewhere |= rejected;
      boolean fits = preparedAfter.filter(pod, node).fits();
      Statistics.label("node turned from rejected to fitting").collect(rejected && fits);
      if (!hint) {
        Statistics.label("rejected node, hint skips").collect(rejected);
        assertFalse(rejected && fits, () -> "node " + node.name() + " after " + update);
      }
    }
    Statistics.label("hint").coverage(c -> {
      c.check("queue").count(n -> n > 0);
      c.check("skip").count(n -> n > 0);
    });
    Statistics.label("node turned from rejected to fitting").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("rejected node, hint skips").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Provide
  Arbitrary<Integer> picks() {
    return Arbitraries.integers().between(0, 11);
  }

  @Provide
  Arbitrary<NodeShape> shapes() {
    return nodeShapes();
  }

  // ---------------------------------------------------------------- generators

  @Provide
  Arbitrary<List<Integer>> choices() {
    return Arbitraries.integers().between(0, 1000).list().ofMinSize(4).ofMaxSize(14);
  }

  @Provide
  Arbitrary<List<Boolean>> feasibleMasks() {
    return Arbitraries.of(true, true, true, false).list().ofMinSize(1).ofMaxSize(6);
  }

  @Provide
  Arbitrary<List<NodeInfo>> emptyNodes() {
    return nodeShapes().list().ofMinSize(2).ofMaxSize(6).map(shapes -> build(shapes, List.of()));
  }

  @Provide
  Arbitrary<List<NodeInfo>> clusters() {
    var shapes = nodeShapes().list().ofMinSize(2).ofMaxSize(6);
    var pods = placedPods().list().ofMaxSize(4).list().ofSize(6);
    return Combinators.combine(shapes, pods).as(PodTopologySpreadProperties::build);
  }

  /** A node's labels and taints. */
  record NodeShape(@Nullable String zone, boolean hostname, String tier, boolean tainted) {}

  private static Arbitrary<NodeShape> nodeShapes() {
    return Combinators.combine(
            Arbitraries.of("z1", "z2", "z3").injectNull(1.0 / 7),
            Arbitraries.of(true, true, true, true, true, false),
            Arbitraries.of("a", "b"),
            Arbitraries.of(false, false, false, true))
        .as(NodeShape::new);
  }

  private static List<NodeInfo> build(List<NodeShape> shapes, List<List<PodInfo>> pods) {
    var nodes = new ArrayList<NodeInfo>();
    for (int i = 0; i < shapes.size(); i++) {
      var name = "n" + i;
      var placed = new ArrayList<PodInfo>();
      if (i < pods.size()) {
        // uids unique as the API server's are: two pods of one name in two namespaces are two pods
        for (var p : pods.get(i)) {
          placed.add(p.toBuilder().uid(name + "/" + placed.size()).nodeName(name).build());
        }
      }
      nodes.add(node(shapes.get(i), name, placed));
    }
    return nodes;
  }

  /** @return the shape of a node {@link #node(NodeShape, String, List)} built */
  private static NodeShape shape(NodeInfo node) {
    return new NodeShape(node.labels().get(ZONE), node.labels().containsKey(HOST), node.labels().get("tier"),
        !node.taints().isEmpty());
  }

  /** @return the node {@code name} of {@code shape} with {@code pods}, already placed on it */
  private static NodeInfo node(NodeShape shape, String name, List<PodInfo> pods) {
    var labels = new LinkedHashMap<String, String>();
    if (shape.zone() != null) {
      labels.put(ZONE, shape.zone());
    }
    if (shape.hostname()) {
      labels.put(HOST, name);
    }
    labels.put("tier", shape.tier());
    return NodeInfo.builder(name).labels(labels).taints(shape.tainted() ? List.of(TAINT) : List.of())
        .allocatable(1000, 1L << 30, 110).pods(pods).build();
  }

  private static Arbitrary<PodInfo> placedPods() {
    return Combinators.combine(
            Arbitraries.of("a", "a", "b"),
            Arbitraries.of("v1", "v2"),
            Arbitraries.of("default", "default", "default", "other"),
            Arbitraries.of(false, false, false, false, false, false, false, true),
            Arbitraries.integers().between(0, 999))
        .as((app, version, namespace, terminating, id) -> PodInfo.builder(namespace, "q" + id)
            .labels(Map.of("app", app, "version", version))
            .terminating(terminating)
            .build());
  }

  @Provide
  Arbitrary<PodInfo> incomingPods() {
    var constraints = constraints().list().ofMinSize(1).ofMaxSize(2).uniqueElements(TopologySpreadConstraint::topologyKey);
    return Combinators.combine(
            constraints,
            Arbitraries.of("v1", "v2"),
            Arbitraries.of(Map.<String, String>of(), Map.<String, String>of(), Map.of("tier", "a")),
            Arbitraries.of(false, false, true))
        .as((cs, version, nodeSelector, tolerates) -> PodInfo.builder("default", "incoming")
            .labels(Map.of("app", "a", "version", version))
            .nodeSelector(nodeSelector)
            .tolerations(tolerates ? List.of(new Toleration("dedicated", Toleration.Operator.EXISTS, "", null)) : List.of())
            .topologySpreadConstraints(cs)
            .build());
  }

  private static Arbitrary<TopologySpreadConstraint> constraints() {
    var selectors = Arbitraries.of(
        LabelSelector.of(Map.of("app", "a")),
        LabelSelector.of(Map.of("app", "a")),
        LabelSelector.of(LabelSelectorRequirement.of("app", LabelSelectorRequirement.Operator.IN, "a", "b")),
        LabelSelector.of(LabelSelectorRequirement.of("app", LabelSelectorRequirement.Operator.EXISTS)),
        LabelSelector.EVERYTHING);
    return Combinators.combine(
            Arbitraries.integers().between(1, 3),
            Arbitraries.of(ZONE, ZONE, HOST),
            selectors.injectNull(0.05),
            Arbitraries.of(1, 1, 2, 4),
            Arbitraries.of(InclusionPolicy.HONOR, InclusionPolicy.IGNORE),
            Arbitraries.of(InclusionPolicy.IGNORE, InclusionPolicy.HONOR),
            Arbitraries.of(List.<String>of(), List.<String>of(), List.of("version")))
        .as((maxSkew, key, selector, minDomains, affinity, taints, keys) -> new TopologySpreadConstraint(
            maxSkew, key, WhenUnsatisfiable.DO_NOT_SCHEDULE, selector, minDomains, affinity, taints, keys));
  }
}
