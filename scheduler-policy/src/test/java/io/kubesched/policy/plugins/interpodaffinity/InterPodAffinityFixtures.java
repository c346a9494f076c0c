package io.kubesched.policy.plugins.interpodaffinity;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.LabelSelectorRequirement.Operator;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Fixtures of the inter-pod affinity tests, in the spirit of kube-scheduler's {@code st.MakePod()} with its
 * {@code PodAffinityIn(labelKey, topologyKey, values, kind)} family: pods carry the name of the node they run
 * on, and {@link #cluster} places them, as kube's {@code cache.NewSnapshot(pods, nodes)} does.
 */
final class InterPodAffinityFixtures {

  private InterPodAffinityFixtures() {}

  /** kube's {@code v1.LabelHostname}. */
  static final String HOSTNAME = "kubernetes.io/hostname";

  /** The namespaces of kube's {@code scoring_test.go} (also used by {@code TestRequiredAffinitySingleNode}). */
  static final Map<String, Map<String, String>> TEAM_NAMESPACES =
      Map.of(
          "subteam1.team1", Map.of("team", "team1"),
          "subteam2.team1", Map.of("team", "team1"),
          "subteam1.team2", Map.of("team", "team2"),
          "subteam2.team2", Map.of("team", "team2"));

  // ---------------------------------------------------------------- selectors and terms

  static LabelSelectorRequirement in(String key, String... values) {
    return LabelSelectorRequirement.of(key, Operator.IN, values);
  }

  static LabelSelectorRequirement notIn(String key, String... values) {
    return LabelSelectorRequirement.of(key, Operator.NOT_IN, values);
  }

  static LabelSelectorRequirement exists(String key) {
    return LabelSelectorRequirement.of(key, Operator.EXISTS);
  }

  static LabelSelectorRequirement doesNotExist(String key) {
    return LabelSelectorRequirement.of(key, Operator.DOES_NOT_EXIST);
  }

  static LabelSelector selector(LabelSelectorRequirement... requirements) {
    return LabelSelector.of(requirements);
  }

  /** @return a term of {@code selector} over {@code topologyKey} in the owner's namespace */
  static PodAffinityTerm term(@Nullable LabelSelector selector, String topologyKey) {
    return new PodAffinityTerm(selector, Set.of(), null, topologyKey, List.of(), List.of());
  }

  /** @return a term with namespaces and a namespace selector */
  static PodAffinityTerm term(
      @Nullable LabelSelector selector,
      String topologyKey,
      Set<String> namespaces,
      @Nullable LabelSelector namespaceSelector) {
    return new PodAffinityTerm(selector, namespaces, namespaceSelector, topologyKey, List.of(), List.of());
  }

  static WeightedPodAffinityTerm weighted(int weight, PodAffinityTerm term) {
    return new WeightedPodAffinityTerm(weight, term);
  }

  // ---------------------------------------------------------------- pods

  /** @return a pod in kube's default test namespace {@code ""} */
  static Pod pod() {
    return new Pod();
  }

  /** A pod under construction; {@link #node} is where it runs (empty: the pod to place). */
  static final class Pod {
    private String namespace = "";
    private String name = "";
    private String node = "";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final List<PodAffinityTerm> affinity = new ArrayList<>();
    private final List<PodAffinityTerm> antiAffinity = new ArrayList<>();
    private final List<WeightedPodAffinityTerm> preferredAffinity = new ArrayList<>();
    private final List<WeightedPodAffinityTerm> preferredAntiAffinity = new ArrayList<>();

    Pod namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    Pod name(String name) {
      this.name = name;
      return this;
    }

    Pod node(String node) {
      this.node = node;
      return this;
    }

    String nodeName() {
      return node;
    }

    Pod label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    Pod labels(Map<String, String> labels) {
      this.labels.putAll(labels);
      return this;
    }

    /** Adds required affinity terms. */
    Pod affinity(PodAffinityTerm... terms) {
      affinity.addAll(List.of(terms));
      return this;
    }

    /** Adds required anti-affinity terms. */
    Pod antiAffinity(PodAffinityTerm... terms) {
      antiAffinity.addAll(List.of(terms));
      return this;
    }

    /** Adds preferred affinity terms. */
    Pod preferredAffinity(WeightedPodAffinityTerm... terms) {
      preferredAffinity.addAll(List.of(terms));
      return this;
    }

    /** Adds preferred anti-affinity terms. */
    Pod preferredAntiAffinity(WeightedPodAffinityTerm... terms) {
      preferredAntiAffinity.addAll(List.of(terms));
      return this;
    }

    /** kube's {@code PodAffinityIn(key, topologyKey, values, PodAffinityWithRequiredReq)}. */
    Pod affinityIn(String key, String topologyKey, String... values) {
      return affinity(term(selector(in(key, values)), topologyKey));
    }

    Pod affinityNotIn(String key, String topologyKey, String... values) {
      return affinity(term(selector(notIn(key, values)), topologyKey));
    }

    Pod affinityExists(String key, String topologyKey) {
      return affinity(term(selector(exists(key)), topologyKey));
    }

    Pod antiAffinityIn(String key, String topologyKey, String... values) {
      return antiAffinity(term(selector(in(key, values)), topologyKey));
    }

    Pod antiAffinityNotIn(String key, String topologyKey, String... values) {
      return antiAffinity(term(selector(notIn(key, values)), topologyKey));
    }

    Pod antiAffinityExists(String key, String topologyKey) {
      return antiAffinity(term(selector(exists(key)), topologyKey));
    }

    PodInfo build() {
      return PodInfo.builder(namespace, name)
          .labels(labels)
          .nodeName(node)
          .podAffinity(new PodAffinity(affinity, preferredAffinity))
          .podAntiAffinity(new PodAffinity(antiAffinity, preferredAntiAffinity))
          .build();
    }
  }

  // ---------------------------------------------------------------- nodes and clusters

  /** A node as kube's tests give it: a name and labels. */
  record Node(String name, Map<String, String> labels) {}

  static Node node(String name, Map<String, String> labels) {
    return new Node(name, labels);
  }

  /**
   * @return a snapshot of {@code nodes}, in order, each with the pods that name it; pods naming no node of the
   *     list are left out
   */
  static ClusterSnapshot cluster(
      List<Node> nodes, List<Pod> pods, Map<String, Map<String, String>> namespaces) {
    var infos = new ArrayList<NodeInfo>();
    for (var node : nodes) {
      var placed = pods.stream().filter(p -> p.nodeName().equals(node.name())).map(Pod::build).toList();
      infos.add(NodeInfo.builder(node.name()).labels(node.labels()).pods(placed).build());
    }
    return ClusterSnapshot.of(infos, namespaces, List.of());
  }
}
