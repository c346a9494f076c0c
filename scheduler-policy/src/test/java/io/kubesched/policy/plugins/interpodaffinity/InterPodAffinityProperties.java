package io.kubesched.policy.plugins.interpodaffinity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.LabelSelectorRequirement.Operator;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WeightedPodAffinityTerm;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.ScoreNormalizer;
import io.kubesched.policy.plugins.FilterFixtures;
import io.kubesched.policy.plugins.FilterFixtures.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
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
 * The prepared InterPodAffinity filter and scorer against brute-force references that look at every pod of
 * every node for every node, written from kube-scheduler's rules rather than from its counting; the queueing hint
 * against the filter's verdicts before and after the change it skips. Clusters are
 * small and drawn from small alphabets (three topology keys that nodes may lack, two apps, three namespaces
 * of which one is unknown to the snapshot), so that matches, misses and missing keys are all frequent.
 */
class InterPodAffinityProperties {

  private static final List<String> KEYS = List.of("zone", "region", "host");
  private static final Map<String, Map<String, String>> NAMESPACES =
      Map.of("ns1", Map.of("team", "t1"), "ns2", Map.of("team", "t2"));

  private final InterPodAffinityFilter filter = new InterPodAffinityFilter();

  /** A pod to place and a cluster. */
  record Scenario(PodInfo pod, ClusterSnapshot cluster) {}

  // ---------------------------------------------------------------- the filter

  @Property
  @Label("the prepared filter agrees with a brute-force check of every pod of every node")
  void filterAgreesWithBruteForce(@ForAll("scenarios") Scenario scenario) {
    var pod = scenario.pod();
    var cluster = scenario.cluster();
    var prepared = filter.prepare(pod, cluster);

    for (var node : cluster.nodes()) {
      var expected = bruteForce(pod, node, cluster);
      var actual = prepared.filter(pod, node);
      assertEquals(expected, Outcome.of(actual), () -> "node " + node.name() + " of " + cluster.nodes());

      Statistics.label("outcome").collect(kind(actual));
      Statistics.label("node lacks a topology key of a term").collect(lacksKey(pod, node, cluster));
      Statistics.label("first pod of its group, accepted")
          .collect(actual.fits() && !pod.podAffinity().required().isEmpty() && !anyMatchesAllCounted(pod, cluster));
    }
    Statistics.label("outcome").coverage(c -> {
      c.check("fit").count(n -> n > 0);
      c.check("affinity").count(n -> n > 0);
      c.check("anti-affinity").count(n -> n > 0);
      c.check("existing anti-affinity").count(n -> n > 0);
    });
    Statistics.label("node lacks a topology key of a term").coverage(c -> c.check(true).count(n -> n > 0));
    Statistics.label("first pod of its group, accepted").coverage(c -> c.check(true).count(n -> n > 0));
  }

  @Property
  @Label("when neither the pod nor any existing pod's required anti-affinity constrains it, every node fits")
  void unconstrainedPodsFitEverywhere(@ForAll("scenarios") Scenario scenario) {
    var pod = scenario.pod().toBuilder().podAffinity(PodAffinity.NONE).podAntiAffinity(PodAffinity.NONE).build();
    var nodes = scenario.cluster().nodes().stream()
        .map(node -> NodeInfo.builder(node.name())
            .labels(node.labels())
            .pods(node.pods().stream().map(p -> p.toBuilder().podAntiAffinity(PodAffinity.NONE).build()).toList())
            .build())
        .toList();
    var cluster = ClusterSnapshot.of(nodes, NAMESPACES, List.of());
    var prepared = (InterPodAffinityFilter.Prepared) filter.prepare(pod, cluster);
    assertTrue(prepared.skipped());
    cluster.nodes().forEach(node -> assertTrue(prepared.filter(pod, node).fits()));
  }

  /** @return the kind of {@code result}: "fit", "affinity", "anti-affinity" or "existing anti-affinity" */
  static String kind(FilterResult result) {
    if (result.fits()) {
      return "fit";
    }
    var reason = FilterFixtures.reasons(result).get(0);
    if (reason instanceof InterPodAffinityFilter.AffinityRulesNotMatch) {
      return "affinity";
    }
    if (reason instanceof InterPodAffinityFilter.AntiAffinityRulesNotMatch) {
      return "anti-affinity";
    }
    return "existing anti-affinity";
  }

  private static boolean lacksKey(PodInfo pod, NodeInfo node, ClusterSnapshot cluster) {
    var terms = new ArrayList<PodAffinityTerm>(pod.podAffinity().required());
    terms.addAll(pod.podAntiAffinity().required());
    cluster.nodes().forEach(n -> n.pods().forEach(p -> terms.addAll(p.podAntiAffinity().required())));
    return terms.stream().anyMatch(t -> !node.labels().containsKey(t.topologyKey()));
  }

  /** kube's verdict, from its rules, looking at every pod of every node. */
  static Outcome bruteForce(PodInfo pod, NodeInfo node, ClusterSnapshot cluster) {
    var affinity = pod.podAffinity().required();
    if (!affinity.isEmpty()) {
      for (var term : affinity) {
        if (!node.labels().containsKey(term.topologyKey())) {
          return InterPodAffinityFilterTest.AFFINITY;
        }
      }
      boolean everyTermHasAPodInTheNodesDomain = affinity.stream().allMatch(term ->
          cluster.nodes().stream().anyMatch(other -> sameDomain(node, other, term.topologyKey())
              && other.pods().stream().anyMatch(p -> incomingMatchesAll(pod, p, cluster))));
      boolean firstOfGroup = !anyMatchesAllCounted(pod, cluster) && incomingMatchesAll(pod, pod, cluster);
      if (!everyTermHasAPodInTheNodesDomain && !firstOfGroup) {
        return InterPodAffinityFilterTest.AFFINITY;
      }
    }
    for (var term : pod.podAntiAffinity().required()) {
      for (var other : cluster.nodes()) {
        if (sameDomain(node, other, term.topologyKey())
            && other.pods().stream().anyMatch(p -> incomingMatches(pod, term, p, cluster))) {
          return InterPodAffinityFilterTest.ANTI_AFFINITY;
        }
      }
    }
    for (var other : cluster.nodes()) {
      for (var existing : other.pods()) {
        for (var term : existing.podAntiAffinity().required()) {
          if (sameDomain(node, other, term.topologyKey()) && existingMatches(existing, term, pod, cluster)) {
            return InterPodAffinityFilterTest.EXISTING_ANTI_AFFINITY;
          }
        }
      }
    }
    return Outcome.FIT;
  }

  /**
   * Whether some pod matches all of the pod's affinity terms on a node that has at least one of their
   * topology keys: kube counts such a pod, and then no longer lets the pod be the first of its group.
   */
  private static boolean anyMatchesAllCounted(PodInfo pod, ClusterSnapshot cluster) {
    var terms = pod.podAffinity().required();
    return cluster.nodes().stream().anyMatch(node ->
        terms.stream().anyMatch(t -> node.labels().containsKey(t.topologyKey()))
            && node.pods().stream().anyMatch(p -> incomingMatchesAll(pod, p, cluster)));
  }

  private static boolean sameDomain(NodeInfo a, NodeInfo b, String key) {
    var value = a.labels().get(key);
    return value != null && value.equals(b.labels().get(key));
  }

  private static boolean incomingMatchesAll(PodInfo pod, PodInfo target, ClusterSnapshot cluster) {
    var terms = pod.podAffinity().required();
    return !terms.isEmpty() && terms.stream().allMatch(t -> incomingMatches(pod, t, target, cluster));
  }

  /** A term of the incoming pod: its namespace selector selects among the namespaces the snapshot knows. */
  private static boolean incomingMatches(PodInfo owner, PodAffinityTerm term, PodInfo target, ClusterSnapshot cluster) {
    var nsSelector = term.namespaceSelector();
    boolean inNamespace;
    if (nsSelector == null) {
      inNamespace = term.namespaces().isEmpty()
          ? owner.namespace().equals(target.namespace())
          : term.namespaces().contains(target.namespace());
    } else if (nsSelector.isEmpty()) {
      inNamespace = true;
    } else {
      var labels = cluster.namespaces().get(target.namespace());
      inNamespace = term.namespaces().contains(target.namespace()) || (labels != null && nsSelector.matches(labels));
    }
    return inNamespace && term.labelSelector() != null && term.labelSelector().matches(target.labels());
  }

  /** A term of an existing pod: its namespace selector sees the incoming pod's namespace labels, or none. */
  private static boolean existingMatches(PodInfo owner, PodAffinityTerm term, PodInfo target, ClusterSnapshot cluster) {
    var nsSelector = term.namespaceSelector();
    boolean inNamespace = term.namespaces().isEmpty() && nsSelector == null
        ? owner.namespace().equals(target.namespace())
        : term.namespaces().contains(target.namespace())
            || (nsSelector != null && nsSelector.matches(cluster.namespaceLabels(target.namespace())));
    return inNamespace && term.labelSelector() != null && term.labelSelector().matches(target.labels());
  }

  // ---------------------------------------------------------------- the queueing hint

  @Property
  @Label("when the hint skips a bound pod's deletion, no node turns from rejected to fitting")
  void hintSkipsOnlyDeletionsThatCannotHelp(
      @ForAll("scenarios") Scenario scenario, @ForAll("picks") int nodePick, @ForAll("picks") int podPick) {
    var before = scenario.cluster();
    var from = before.nodes().get(nodePick % before.nodes().size());
    if (from.pods().isEmpty()) {
      Statistics.label("hint").collect("not asked");
      return;
    }
    var gone = from.pods().get(podPick % from.pods().size());
    var remaining = new ArrayList<>(from.pods());
    remaining.remove(gone);
    var after = replaced(before, from, NodeInfo.builder(from.name()).labels(from.labels()).pods(remaining).build());
    checkSkipped(scenario.pod(), before, after, new ClusterUpdate.AssignedPodDeleted(gone));
  }

  @Property
  @Label("when the hint skips a node's relabelling, no node turns from rejected to fitting")
  void hintSkipsOnlyRelabellingsThatCannotHelp(
      @ForAll("scenarios") Scenario scenario, @ForAll("picks") int nodePick,
      @ForAll("labelSets") Map<String, String> labels) {
    var before = scenario.cluster();
    var node = before.nodes().get(nodePick % before.nodes().size());
    var relabelled = NodeInfo.builder(node.name()).labels(hostnamed(labels, node.name())).pods(node.pods()).build();
    var after = replaced(before, node, relabelled);
    checkSkipped(scenario.pod(), before, after, new ClusterUpdate.NodeUpdated(
        bare(node), bare(relabelled), Set.of(ClusterChange.NODE_LABELS)));
  }

  @Property
  @Label("when the hint skips a node's addition, no node turns from rejected to fitting, nor does the new one take "
      + "a pod rejected anywhere")
  void hintSkipsOnlyAdditionsThatCannotHelp(
      @ForAll("scenarios") Scenario scenario, @ForAll("labelSets") Map<String, String> labels) {
    var before = scenario.cluster();
    var added = NodeInfo.builder("added").labels(hostnamed(labels, "added")).build();
    var nodes = new ArrayList<>(before.nodes());
    nodes.add(added);
    checkSkipped(scenario.pod(), before, ClusterSnapshot.of(nodes, NAMESPACES, List.of()),
        new ClusterUpdate.NodeAdded(added));
  }

  /**
   * Asserts that, if the hint skips {@code update}, which turned {@code before} into {@code after} (the same nodes in
   * the same order, and perhaps one more), no node of {@code before} turns from rejected to fitting, and a node added
   * does not fit a pod rejected on some node before.
   */
  private void checkSkipped(PodInfo pod, ClusterSnapshot before, ClusterSnapshot after, ClusterUpdate update) {
    boolean hint = filter.isSchedulableAfter(pod, update);
    Statistics.label("hint").collect(hint ? "queue" : "skip");
    var preparedBefore = filter.prepare(pod, before);
    var preparedAfter = filter.prepare(pod, after);
    boolean rejectedSomewhere = false;
    for (int i = 0; i < after.nodes().size(); i++) {
      var node = after.nodes().get(i);
      boolean rejected = i < before.nodes().size()
          ? !preparedBefore.filter(pod, before.nodes().get(i)).fits()
          : rejectedSomewhere;
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
  Arbitrary<Map<String, String>> labelSets() {
    return nodeLabels();
  }

  /** @return {@code labels} with the hostname label, where present, set to {@code name}, as scenarios do */
  private static Map<String, String> hostnamed(Map<String, String> labels, String name) {
    var named = new HashMap<>(labels);
    named.computeIfPresent("host", (k, v) -> name);
    return named;
  }

  /** @return the node without its pods, as the queue hands nodes to the hints */
  private static NodeInfo bare(NodeInfo node) {
    return NodeInfo.builder(node.name()).labels(node.labels()).build();
  }

  private static ClusterSnapshot replaced(ClusterSnapshot cluster, NodeInfo old, NodeInfo replacement) {
    var nodes = cluster.nodes().stream().map(n -> n == old ? replacement : n).toList();
    return ClusterSnapshot.of(nodes, NAMESPACES, List.of());
  }

  // ---------------------------------------------------------------- the scorer

  @Property
  @Label("normalised scores lie within 0..100, and are kube's normalisation of brute-force raw scores")
  void scoresAgreeWithBruteForce(
      @ForAll("scenarios") Scenario scenario,
      @ForAll("hardWeights") int hardWeight,
      @ForAll boolean ignorePreferredTermsOfExistingPods) {
    var pod = scenario.pod();
    var cluster = scenario.cluster();
    var scorer = new InterPodAffinityScorer(hardWeight, ignorePreferredTermsOfExistingPods);
    var feasible = cluster.nodes();
    var prepared = scorer.prepare(pod, feasible, cluster);
    var scores = feasible.stream().mapToLong(node -> prepared.score(pod, node)).toArray();
    if (prepared instanceof ScoreNormalizer normalizer) {
      normalizer.normalize(pod, feasible, scores);
    }

    boolean hasPreferred = !pod.podAffinity().preferred().isEmpty() || !pod.podAntiAffinity().preferred().isEmpty();
    var expected = new long[feasible.size()];
    if (!(ignorePreferredTermsOfExistingPods && !hasPreferred)) {
      for (int i = 0; i < expected.length; i++) {
        expected[i] = rawScore(pod, feasible.get(i), cluster, hardWeight);
      }
      InterPodAffinityScorer.normalizeScores(expected);
    }
    assertArrayEquals(expected, scores);
    for (long score : scores) {
      assertTrue(score >= 0 && score <= 100, "score " + score);
      Statistics.label("score").collect(score == 0 ? "0" : score == 100 ? "100" : "between");
    }
    Statistics.label("score").coverage(c -> {
      c.check("0").count(n -> n > 0);
      c.check("100").count(n -> n > 0);
      c.check("between").count(n -> n > 0);
    });
  }

  /** kube's raw score of {@code node}: the weights of every pair of a term and a pod in the node's domains. */
  private static long rawScore(PodInfo pod, NodeInfo node, ClusterSnapshot cluster, int hardWeight) {
    long sum = 0;
    for (var other : cluster.nodes()) {
      if (other.labels().isEmpty()) {
        continue;
      }
      for (var existing : other.pods()) {
        for (var weighted : pod.podAffinity().preferred()) {
          if (sameDomain(node, other, weighted.term().topologyKey())
              && incomingMatches(pod, weighted.term(), existing, cluster)) {
            sum += weighted.weight();
          }
        }
        for (var weighted : pod.podAntiAffinity().preferred()) {
          if (sameDomain(node, other, weighted.term().topologyKey())
              && incomingMatches(pod, weighted.term(), existing, cluster)) {
            sum -= weighted.weight();
          }
        }
        for (var term : existing.podAffinity().required()) {
          if (hardWeight > 0 && sameDomain(node, other, term.topologyKey())
              && existingMatches(existing, term, pod, cluster)) {
            sum += hardWeight;
          }
        }
        for (var weighted : existing.podAffinity().preferred()) {
          if (sameDomain(node, other, weighted.term().topologyKey())
              && existingMatches(existing, weighted.term(), pod, cluster)) {
            sum += weighted.weight();
          }
        }
        for (var weighted : existing.podAntiAffinity().preferred()) {
          if (sameDomain(node, other, weighted.term().topologyKey())
              && existingMatches(existing, weighted.term(), pod, cluster)) {
            sum -= weighted.weight();
          }
        }
      }
    }
    return sum;
  }

  // ---------------------------------------------------------------- generators

  @Provide
  Arbitrary<Integer> hardWeights() {
    return Arbitraries.of(0, 1, 5, 100);
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    var incoming = pods(2, 2, 2);
    var nodes = Combinators.combine(nodeLabels(), pods(1, 2, 1).list().ofMaxSize(3)).as(NodeDraft::new)
        .list().ofMinSize(1).ofMaxSize(4);
    return Combinators.combine(incoming, nodes).as((pod, drafts) -> {
      var infos = new ArrayList<NodeInfo>();
      for (int i = 0; i < drafts.size(); i++) {
        var name = "n" + i;
        var labels = new HashMap<>(drafts.get(i).labels());
        labels.computeIfPresent("host", (k, v) -> name);
        var placed = drafts.get(i).pods().stream().map(p -> p.toBuilder().nodeName(name).build()).toList();
        infos.add(NodeInfo.builder(name).labels(labels).pods(placed).build());
      }
      return new Scenario(pod, ClusterSnapshot.of(infos, NAMESPACES, List.of()));
    });
  }

  private record NodeDraft(Map<String, String> labels, List<PodInfo> pods) {}

  private static Arbitrary<Map<String, String>> nodeLabels() {
    var zone = Arbitraries.of("z1", "z2").injectNull(0.2);
    var region = Arbitraries.of("r1", "r2").injectNull(0.2);
    var host = Arbitraries.of("h").injectNull(0.2);
    return Combinators.combine(zone, region, host).as((z, r, h) -> {
      var labels = new HashMap<String, String>();
      if (z != null) {
        labels.put("zone", z);
      }
      if (r != null) {
        labels.put("region", r);
      }
      if (h != null) {
        labels.put("host", h);
      }
      return Map.copyOf(labels);
    });
  }

  private static Arbitrary<PodInfo> pods(int maxAffinity, int maxAntiAffinity, int maxPreferred) {
    var namespace = Arbitraries.of("ns1", "ns2", "ns3");
    var app = Arbitraries.of("a", "b").injectNull(0.25);
    var tier = Arbitraries.of("x").injectNull(0.5);
    var affinity = Combinators.combine(
            terms().list().ofMaxSize(maxAffinity), weightedTerms().list().ofMaxSize(maxPreferred))
        .as(PodAffinity::new);
    var antiAffinity = Combinators.combine(
            terms().list().ofMaxSize(maxAntiAffinity), weightedTerms().list().ofMaxSize(maxPreferred))
        .as(PodAffinity::new);
    return Combinators.combine(namespace, app, tier, affinity, antiAffinity).as((ns, a, t, aff, anti) -> {
      var labels = new HashMap<String, String>();
      if (a != null) {
        labels.put("app", a);
      }
      if (t != null) {
        labels.put("tier", t);
      }
      return PodInfo.builder(ns, "p").labels(labels).podAffinity(aff).podAntiAffinity(anti).build();
    });
  }

  private static Arbitrary<WeightedPodAffinityTerm> weightedTerms() {
    return Combinators.combine(Arbitraries.integers().between(1, 100), terms()).as(WeightedPodAffinityTerm::new);
  }

  private enum Namespaces {
    OWN,
    LISTED,
    ALL,
    SELECTED,
    LISTED_AND_SELECTED
  }

  private static Arbitrary<PodAffinityTerm> terms() {
    var selector = Arbitraries.of(
            LabelSelector.of(Map.of("app", "a")),
            LabelSelector.of(req("app", Operator.IN, "a", "b")),
            LabelSelector.of(req("app", Operator.EXISTS)),
            LabelSelector.of(req("app", Operator.NOT_IN, "a")),
            LabelSelector.of(req("tier", Operator.DOES_NOT_EXIST)),
            LabelSelector.EVERYTHING)
        .injectNull(0.05);
    var namespaces = Arbitraries.of(Namespaces.class);
    return Combinators.combine(selector, Arbitraries.of(KEYS), namespaces).as((s, key, ns) -> term(s, key, ns));
  }

  private static PodAffinityTerm term(@Nullable LabelSelector selector, String key, Namespaces namespaces) {
    var teamT1 = LabelSelector.of(req("team", Operator.IN, "t1"));
    return switch (namespaces) {
      case OWN -> new PodAffinityTerm(selector, Set.of(), null, key, List.of(), List.of());
      case LISTED -> new PodAffinityTerm(selector, Set.of("ns2", "ns3"), null, key, List.of(), List.of());
      case ALL -> new PodAffinityTerm(selector, Set.of(), LabelSelector.EVERYTHING, key, List.of(), List.of());
      case SELECTED -> new PodAffinityTerm(selector, Set.of(),
          LabelSelector.of(req("team", Operator.NOT_IN, "t2")), key, List.of(), List.of());
      case LISTED_AND_SELECTED -> new PodAffinityTerm(selector, Set.of("ns3"), teamT1, key, List.of(), List.of());
    };
  }

  private static LabelSelectorRequirement req(String key, Operator operator, String... values) {
    return LabelSelectorRequirement.of(key, operator, values);
  }
}
