package io.kubesched.testkit;

import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.WeightedPodAffinityTerm;
import io.kubesched.api.WorkloadSelector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.jspecify.annotations.Nullable;

/**
 * The arbitraries of pod affinity, topology spread, scheduling gates, namespaces and workload selectors
 * behind {@link KubeArbitraries}. Most are drawn as functions of the labels of the pod that carries them, so
 * that a pod can select itself and its siblings, as a Deployment's replicas do.
 */
final class PlacementDraws {

  /** What a pod's constraint is, given the pod's own labels. */
  interface ForPod<T> extends Function<Map<String, String>, T> {}

  static final List<String> POD_LABEL_KEYS = List.of(KubeArbitraries.LABEL_APP, KubeArbitraries.LABEL_TIER);
  static final List<String> POD_LABEL_VALUES = List.of("web", "db");

  /** A value no generated pod carries: {@code In} on it matches nothing, {@code NotIn} everything. */
  static final String UNUSED_VALUE = "cache";

  static final List<String> NAMESPACES = List.of("default", "team-a", "team-b");
  static final List<String> GATES = List.of("example.com/quota", "example.com/gang", "kubesched.io/wait");

  private PlacementDraws() {}

  // ---- label selectors ----

  /** Selectors over the pods' labels; about one in six is the empty selector. */
  static Arbitrary<LabelSelector> podSelectors() {
    return selectors(POD_LABEL_KEYS, POD_LABEL_VALUES, withUnused(POD_LABEL_VALUES));
  }

  /** Selectors over the namespaces' labels; about one in six is the empty selector. */
  static Arbitrary<LabelSelector> namespaceSelectors() {
    var byName =
        Arbitraries.of(NAMESPACES)
            .map(
                name ->
                    LabelSelector.of(
                        LabelSelectorRequirement.of(
                            KubeArbitraries.NAMESPACE_NAME_LABEL, LabelSelectorRequirement.Operator.IN, name)));
    return Arbitraries.frequencyOf(
        Tuple.of(5, selectors(List.of("env"), List.of("prod", "dev"), List.of("prod", "dev", "test"))),
        Tuple.of(2, selectors(List.of("team"), List.of("a", "b"), List.of("a", "b"))),
        Tuple.of(1, byName));
  }

  private static Arbitrary<LabelSelector> selectors(
      List<String> keys, List<String> pairValues, List<String> expressionValues) {
    var matchLabels = Arbitraries.of(KubeArbitraries.labelMaps(keys, pairValues, 1, 2));
    var requirement =
        Combinators.combine(
                Arbitraries.of(keys),
                Arbitraries.of(LabelSelectorRequirement.Operator.class),
                Arbitraries.of(expressionValues).list().ofMinSize(1).ofMaxSize(2).uniqueElements())
            .as(
                (key, op, values) ->
                    new LabelSelectorRequirement(
                        key,
                        op,
                        op == LabelSelectorRequirement.Operator.IN || op == LabelSelectorRequirement.Operator.NOT_IN
                            ? values
                            : List.of()));
    var expressions = requirement.list().ofMinSize(1).ofMaxSize(2);
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(LabelSelector.EVERYTHING)),
        Tuple.of(4, matchLabels.map(LabelSelector::of)),
        Tuple.of(4, expressions.map(e -> new LabelSelector(Map.of(), e))),
        Tuple.of(2, Combinators.combine(matchLabels, expressions).as(LabelSelector::new)));
  }

  /**
   * A pod's selector: often its own labels (its siblings and itself), else one drawn from the vocabulary,
   * sometimes none at all ({@code null}, which selects no pod).
   */
  private static Arbitrary<ForPod<@Nullable LabelSelector>> podSelectorsFor(boolean self) {
    Arbitrary<ForPod<@Nullable LabelSelector>> drawn = podSelectors().map(s -> labels -> s);
    Arbitrary<ForPod<@Nullable LabelSelector>> none = Arbitraries.just(labels -> null);
    if (!self) {
      return Arbitraries.frequencyOf(Tuple.of(9, drawn), Tuple.of(1, none));
    }
    Arbitrary<ForPod<@Nullable LabelSelector>> own =
        Arbitraries.just(labels -> labels.isEmpty() ? LabelSelector.EVERYTHING : LabelSelector.of(labels));
    return Arbitraries.frequencyOf(Tuple.of(4, own), Tuple.of(5, drawn), Tuple.of(1, none));
  }

  // ---- pod affinity ----

  static Arbitrary<ForPod<PodAffinityTerm>> affinityTerms(boolean self) {
    var namespaces =
        Arbitraries.frequency(
            Tuple.of(6, Set.<String>of()),
            Tuple.of(1, Set.of("default")),
            Tuple.of(1, Set.of("team-a")),
            Tuple.of(1, Set.of("default", "team-a")),
            Tuple.of(1, Set.of("team-b")));
    // Null (unset) in seven terms of ten; the empty selector, every namespace, is among the others.
    Arbitrary<@Nullable LabelSelector> namespaceSelector = namespaceSelectors().injectNull(0.7);
    var extraKeys =
        Arbitraries.frequency(
            Tuple.of(4, Tuple.of(List.<String>of(), List.<String>of())),
            Tuple.of(1, Tuple.of(List.of(KubeArbitraries.LABEL_APP), List.<String>of())),
            Tuple.of(1, Tuple.of(List.<String>of(), List.of(KubeArbitraries.LABEL_TIER))));
    return Combinators.combine(podSelectorsFor(self), namespaces, namespaceSelector, topologyKeys(), extraKeys)
        .as(
            (selector, names, nsSelector, topologyKey, keys) ->
                labels -> {
                  var labelSelector = selector.apply(labels);
                  return new PodAffinityTerm(
                      labelSelector,
                      names,
                      nsSelector,
                      topologyKey,
                      allowedLabelKeys(keys.get1(), labelSelector),
                      allowedLabelKeys(keys.get2(), labelSelector));
                });
  }

  /**
   * Pod affinity or anti-affinity with at least one term: required only, preferred only (weights 1 to 100,
   * the bounds included often), or both.
   */
  static Arbitrary<ForPod<PodAffinity>> affinities(boolean self) {
    var terms = affinityTerms(self).list().ofMinSize(1).ofMaxSize(2);
    var weights =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just(1)),
            Tuple.of(1, Arbitraries.just(100)),
            Tuple.of(4, Arbitraries.integers().between(1, 100)));
    var weighted =
        Combinators.combine(weights, affinityTerms(self))
            .as(
                (weight, term) ->
                    (ForPod<WeightedPodAffinityTerm>)
                        labels -> new WeightedPodAffinityTerm(weight, term.apply(labels)))
            .list()
            .ofMinSize(1)
            .ofMaxSize(2);
    var none = Arbitraries.just(List.<ForPod<PodAffinityTerm>>of());
    var noWeighted = Arbitraries.just(List.<ForPod<WeightedPodAffinityTerm>>of());
    return Arbitraries.frequencyOf(
            Tuple.of(2, Combinators.combine(terms, noWeighted).as(Tuple::of)),
            Tuple.of(1, Combinators.combine(none, weighted).as(Tuple::of)),
            Tuple.of(1, Combinators.combine(terms, weighted).as(Tuple::of)))
        .map(
            draw ->
                labels ->
                    new PodAffinity(
                        draw.get1().stream().map(t -> t.apply(labels)).toList(),
                        draw.get2().stream().map(t -> t.apply(labels)).toList()));
  }

  /** Half none; otherwise as {@link #affinities(boolean)}. */
  static Arbitrary<ForPod<PodAffinity>> affinitiesOrNone(boolean self, int noneWeight, int someWeight) {
    return Arbitraries.frequencyOf(
        Tuple.of(noneWeight, Arbitraries.just(labels -> PodAffinity.NONE)), Tuple.of(someWeight, affinities(self)));
  }

  // ---- topology spread ----

  static Arbitrary<ForPod<TopologySpreadConstraint>> spreadConstraints(boolean self) {
    var minDomains =
        Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(1)), Tuple.of(2, Arbitraries.integers().between(2, 4)));
    var matchLabelKeys =
        Arbitraries.frequency(
            Tuple.of(5, List.<String>of()),
            Tuple.of(1, List.of(KubeArbitraries.LABEL_APP)),
            Tuple.of(1, List.of(KubeArbitraries.LABEL_TIER)));
    var policies =
        Combinators.combine(Arbitraries.of(InclusionPolicy.class), Arbitraries.of(InclusionPolicy.class)).as(Tuple::of);
    return Combinators.combine(
            Arbitraries.integers().between(1, 3),
            topologyKeys(),
            Arbitraries.of(WhenUnsatisfiable.class),
            podSelectorsFor(self),
            minDomains,
            policies,
            matchLabelKeys)
        .as(
            (maxSkew, topologyKey, when, selector, domains, policy, keys) ->
                labels -> {
                  var labelSelector = selector.apply(labels);
                  return new TopologySpreadConstraint(
                      maxSkew,
                      topologyKey,
                      when,
                      labelSelector,
                      // The API server accepts minDomains only with DoNotSchedule.
                      when == WhenUnsatisfiable.DO_NOT_SCHEDULE ? domains : 1,
                      policy.get1(),
                      policy.get2(),
                      allowedLabelKeys(keys, labelSelector));
                });
  }

  /** One to three constraints, unique by topology key and action, as the API server demands. */
  static Arbitrary<ForPod<List<TopologySpreadConstraint>>> spreadConstraintLists(boolean self) {
    return spreadConstraints(self)
        .list()
        .ofMinSize(1)
        .ofMaxSize(3)
        .map(
            draws ->
                labels -> {
                  var unique = new LinkedHashMap<String, TopologySpreadConstraint>();
                  for (var draw : draws) {
                    var constraint = draw.apply(labels);
                    unique.putIfAbsent(constraint.topologyKey() + ":" + constraint.whenUnsatisfiable(), constraint);
                  }
                  return List.copyOf(unique.values());
                });
  }

  static Arbitrary<ForPod<List<TopologySpreadConstraint>>> spreadConstraintListsOrNone(
      boolean self, int noneWeight, int someWeight) {
    return Arbitraries.frequencyOf(
        Tuple.of(noneWeight, Arbitraries.just(labels -> List.of())), Tuple.of(someWeight, spreadConstraintLists(self)));
  }

  // ---- gates, namespaces, workloads ----

  static Arbitrary<List<String>> gates() {
    return Arbitraries.of(GATES).list().ofMinSize(1).ofMaxSize(2).uniqueElements();
  }

  /**
   * Every namespace of {@link #NAMESPACES} with the label Kubernetes gives it ({@value
   * KubeArbitraries#NAMESPACE_NAME_LABEL}) and, each, an optional {@code env} ({@code prod} or {@code dev})
   * and {@code team} ({@code a} or {@code b}).
   */
  static Arbitrary<Map<String, Map<String, String>>> namespaces() {
    var env = Arbitraries.of("prod", "dev").injectNull(0.3);
    var team = Arbitraries.of("a", "b").injectNull(0.5);
    var labels = Combinators.combine(env, team).as(Tuple::of).list().ofSize(NAMESPACES.size());
    return labels.map(
        drawn -> {
          var namespaces = new TreeMap<String, Map<String, String>>();
          for (int i = 0; i < NAMESPACES.size(); i++) {
            var name = NAMESPACES.get(i);
            var nsLabels = new TreeMap<String, String>();
            nsLabels.put(KubeArbitraries.NAMESPACE_NAME_LABEL, name);
            if (drawn.get(i).get1() != null) {
              nsLabels.put("env", drawn.get(i).get1());
            }
            if (drawn.get(i).get2() != null) {
              nsLabels.put("team", drawn.get(i).get2());
            }
            namespaces.put(name, Map.copyOf(nsLabels));
          }
          return Map.copyOf(namespaces);
        });
  }

  /**
   * Zero to four Services, ReplicaSets, StatefulSets and ReplicationControllers in the pods' namespaces,
   * each selecting by the pods' labels (never empty: kube-scheduler ignores an object without a selector).
   * The ReplicaSet {@code web-5d4f} and the StatefulSet {@code db} are the owners generated pods name.
   */
  static Arbitrary<List<WorkloadSelector>> workloads() {
    var pairs = Arbitraries.of(KubeArbitraries.labelMaps(POD_LABEL_KEYS, POD_LABEL_VALUES, 1, 2));
    var kindAndName =
        Arbitraries.frequency(
            Tuple.of(3, Tuple.of(WorkloadSelector.Kind.SERVICE, "web")),
            Tuple.of(2, Tuple.of(WorkloadSelector.Kind.SERVICE, "db")),
            Tuple.of(3, Tuple.of(WorkloadSelector.Kind.REPLICA_SET, "web-5d4f")),
            Tuple.of(1, Tuple.of(WorkloadSelector.Kind.REPLICA_SET, "other-7c9b")),
            Tuple.of(2, Tuple.of(WorkloadSelector.Kind.STATEFUL_SET, "db")),
            Tuple.of(1, Tuple.of(WorkloadSelector.Kind.REPLICATION_CONTROLLER, "legacy")));
    var workload =
        Combinators.combine(kindAndName, Arbitraries.of("default", "team-a"), pairs)
            .as(
                (kind, namespace, selector) ->
                    new WorkloadSelector(kind.get1(), namespace, kind.get2(), LabelSelector.of(selector)));
    return workload
        .list()
        .ofMaxSize(4)
        .uniqueElements(w -> w.kind() + "/" + w.namespace() + "/" + w.name());
  }

  // ---- helpers ----

  /**
   * Topology keys: the hostname (every node of a topology cluster has it), the zone (most have it) and the
   * rack (most lack it).
   */
  static Arbitrary<String> topologyKeys() {
    return Arbitraries.frequency(
        Tuple.of(4, KubeArbitraries.TOPOLOGY_HOSTNAME),
        Tuple.of(4, KubeArbitraries.TOPOLOGY_ZONE),
        Tuple.of(2, KubeArbitraries.TOPOLOGY_RACK));
  }

  /**
   * The API server accepts {@code matchLabelKeys} and {@code mismatchLabelKeys} only with a selector, and not
   * a key the selector already names.
   */
  private static List<String> allowedLabelKeys(List<String> keys, @Nullable LabelSelector selector) {
    if (selector == null || keys.isEmpty()) {
      return List.of();
    }
    var named = new HashSet<>(selector.matchLabels().keySet());
    selector.matchExpressions().forEach(r -> named.add(r.key()));
    var allowed = new ArrayList<String>();
    for (var key : keys) {
      if (!named.contains(key)) {
        allowed.add(key);
      }
    }
    return List.copyOf(allowed);
  }

  private static List<String> withUnused(List<String> values) {
    var all = new ArrayList<>(values);
    all.add(UNUSED_VALUE);
    return List.copyOf(all);
  }
}
