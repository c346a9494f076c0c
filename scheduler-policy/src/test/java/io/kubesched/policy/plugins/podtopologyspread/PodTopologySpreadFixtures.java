package io.kubesched.policy.plugins.podtopologyspread;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.NodeAffinity;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.Owner;
import io.kubesched.api.PodInfo;
import io.kubesched.api.Taint;
import io.kubesched.api.TaintEffect;
import io.kubesched.api.Toleration;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.framework.FilterResult.Code;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs;
import io.kubesched.policy.plugins.args.PodTopologySpreadArgs.DefaultingType;
import io.kubesched.policy.plugins.podtopologyspread.TopologySpreading.Constraint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Fixtures for the ports of kube-scheduler's {@code podtopologyspread} tests: builders named after kube's
 * {@code st.MakePod()} / {@code st.MakeNode()} / {@code st.MakeLabelSelector()} wrappers and after the fields
 * of kube's test tables, so that each ported case reads as kube's does.
 */
public final class PodTopologySpreadFixtures {

  private PodTopologySpreadFixtures() {}

  public static final WhenUnsatisfiable DO_NOT_SCHEDULE = WhenUnsatisfiable.DO_NOT_SCHEDULE;
  public static final WhenUnsatisfiable SCHEDULE_ANYWAY = WhenUnsatisfiable.SCHEDULE_ANYWAY;
  static final InclusionPolicy HONOR = InclusionPolicy.HONOR;
  static final InclusionPolicy IGNORE = InclusionPolicy.IGNORE;
  static final DefaultingType SYSTEM = DefaultingType.SYSTEM;
  static final DefaultingType LIST = DefaultingType.LIST;
  static final String HOSTNAME = PodTopologySpreadArgs.HOSTNAME_LABEL;
  static final String ZONE = PodTopologySpreadArgs.ZONE_LABEL;
  static final String MATCH_EXPRESSIONS = "matchExpressions";
  static final String MATCH_FIELDS = "matchFields";

  /** Kube's expected PreFilter / PreScore status Skip. */
  static final String SKIP = "Skip";

  static final LabelSelector fooSelector = makeLabelSelector().exists("foo").obj();
  static final LabelSelector barSelector = makeLabelSelector().exists("bar").obj();
  static final List<Taint> taints =
      List.of(new Taint("node.kubernetes.io/unschedulable", "", TaintEffect.NO_SCHEDULE));

  // ---------------------------------------------------------------- st wrappers

  static PodW makePod() {
    return new PodW();
  }

  static NodeW makeNode() {
    return new NodeW();
  }

  static SelectorW makeLabelSelector() {
    return new SelectorW();
  }

  /** {@code st.PodWrapper}. */
  static final class PodW {
    private String name = "";
    private String namespace = "";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private String node = "";
    private final List<TopologySpreadConstraint> constraints = new ArrayList<>();
    private Map<String, String> nodeSelector = Map.of();
    private List<NodeSelectorTerm> required = List.of();
    private final List<Toleration> tolerations = new ArrayList<>();
    private @Nullable Owner owner;
    private boolean terminating;

    PodW name(String name) {
      this.name = name;
      return this;
    }

    PodW namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    PodW label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    PodW node(String node) {
      this.node = node;
      return this;
    }

    PodW spreadConstraint(
        int maxSkew,
        String key,
        WhenUnsatisfiable when,
        @Nullable LabelSelector selector,
        @Nullable Integer minDomains,
        @Nullable InclusionPolicy nodeAffinityPolicy,
        @Nullable InclusionPolicy nodeTaintsPolicy,
        @Nullable List<String> matchLabelKeys) {
      constraints.add(
          new TopologySpreadConstraint(
              maxSkew,
              key,
              when,
              selector,
              minDomains == null ? 1 : minDomains,
              nodeAffinityPolicy == null ? HONOR : nodeAffinityPolicy,
              nodeTaintsPolicy == null ? IGNORE : nodeTaintsPolicy,
              matchLabelKeys == null ? List.of() : matchLabelKeys));
      return this;
    }

    PodW nodeSelector(Map<String, String> nodeSelector) {
      this.nodeSelector = nodeSelector;
      return this;
    }

    PodW nodeAffinityIn(String key, List<String> values, String type) {
      var requirement = new NodeSelectorRequirement(key, NodeSelectorRequirement.Operator.IN, values);
      required = List.of(type.equals(MATCH_FIELDS)
          ? new NodeSelectorTerm(List.of(), List.of(requirement))
          : new NodeSelectorTerm(List.of(requirement), List.of()));
      return this;
    }

    PodW nodeAffinityNotIn(String key, List<String> values) {
      required = List.of(NodeSelectorTerm.ofExpressions(
          new NodeSelectorRequirement(key, NodeSelectorRequirement.Operator.NOT_IN, values)));
      return this;
    }

    PodW toleration(String key) {
      tolerations.add(new Toleration(key, Toleration.Operator.EXISTS, "", null));
      return this;
    }

    PodW ownerReference(String name, String kind) {
      this.owner = new Owner(kind, name, "uid-" + name);
      return this;
    }

    PodW terminating() {
      this.terminating = true;
      return this;
    }

    PodInfo obj() {
      return PodInfo.builder(namespace, name)
          .labels(labels)
          .nodeName(node)
          .topologySpreadConstraints(constraints)
          .nodeSelector(nodeSelector)
          .affinity(new NodeAffinity(required, List.of()))
          .tolerations(tolerations)
          .owner(owner)
          .terminating(terminating)
          .build();
    }
  }

  /** {@code st.NodeWrapper}: the node without pods; a case's existing pods are placed on it later. */
  static final class NodeW {
    private String name = "";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private List<Taint> taints = List.of();

    NodeW name(String name) {
      this.name = name;
      return this;
    }

    NodeW label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    NodeW taints(List<Taint> taints) {
      this.taints = taints;
      return this;
    }

    NodeInfo obj() {
      return NodeInfo.builder(name).labels(labels).taints(taints).allocatable(1000, 1L << 30, 110).build();
    }
  }

  /** {@code st.LabelSelectorWrapper}. */
  static final class SelectorW {
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final List<LabelSelectorRequirement> expressions = new ArrayList<>();

    SelectorW label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    SelectorW exists(String key) {
      expressions.add(LabelSelectorRequirement.of(key, LabelSelectorRequirement.Operator.EXISTS));
      return this;
    }

    SelectorW in(String key, List<String> values) {
      expressions.add(new LabelSelectorRequirement(key, LabelSelectorRequirement.Operator.IN, values));
      return this;
    }

    SelectorW notIn(String key, List<String> values) {
      expressions.add(new LabelSelectorRequirement(key, LabelSelectorRequirement.Operator.NOT_IN, values));
      return this;
    }

    LabelSelector obj() {
      return new LabelSelector(labels, expressions);
    }
  }

  // ---------------------------------------------------------------- Go literals

  static Map<String, String> strs(String... pairs) {
    var map = new LinkedHashMap<String, String>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }

  static Map<String, Integer> ints(Object... pairs) {
    var map = new LinkedHashMap<String, Integer>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], (Integer) pairs[i + 1]);
    }
    return map;
  }

  static Map<String, Long> longs(Object... pairs) {
    var map = new LinkedHashMap<String, Long>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], (Long) pairs[i + 1]);
    }
    return map;
  }

  static Map<String, Code> codes(Object... pairs) {
    var map = new LinkedHashMap<String, Code>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], (Code) pairs[i + 1]);
    }
    return map;
  }

  /** One of kube's two critical paths: a domain and its count. */
  record Path(String topologyValue, int matchNum) {}

  /** Kube's {@code criticalPaths}: the first holds the smallest count. */
  record Paths(Path first, Path second) {}

  static Path cp(String value, int count) {
    return new Path(value, count);
  }

  static Paths paths(Path first, Path second) {
    return new Paths(first, second);
  }

  static Paths newCriticalPaths() {
    return new Paths(new Path("", Integer.MAX_VALUE), new Path("", Integer.MAX_VALUE));
  }

  static double topologyNormalizingWeight(int size) {
    return PodTopologySpreadScorer.topologyNormalizingWeight(size);
  }

  // ---------------------------------------------------------------- kube's structs

  /** Both {@code v1.TopologySpreadConstraint} and kube's internal {@code topologySpreadConstraint}. */
  static TscW topologySpreadConstraint() {
    return new TscW();
  }

  static final class TscW {
    int maxSkew;
    String topologyKey = "";
    @Nullable WhenUnsatisfiable whenUnsatisfiable;
    @Nullable LabelSelector selector;
    int minDomains = 1;
    InclusionPolicy nodeAffinityPolicy = HONOR;
    InclusionPolicy nodeTaintsPolicy = IGNORE;

    TscW maxSkew(int maxSkew) {
      this.maxSkew = maxSkew;
      return this;
    }

    TscW topologyKey(String topologyKey) {
      this.topologyKey = topologyKey;
      return this;
    }

    TscW whenUnsatisfiable(WhenUnsatisfiable whenUnsatisfiable) {
      this.whenUnsatisfiable = whenUnsatisfiable;
      return this;
    }

    TscW selector(@Nullable LabelSelector selector) {
      this.selector = selector;
      return this;
    }

    TscW labelSelector(@Nullable LabelSelector selector) {
      return selector(selector);
    }

    TscW minDomains(int minDomains) {
      this.minDomains = minDomains;
      return this;
    }

    TscW nodeAffinityPolicy(InclusionPolicy policy) {
      this.nodeAffinityPolicy = policy;
      return this;
    }

    TscW nodeTaintsPolicy(InclusionPolicy policy) {
      this.nodeTaintsPolicy = policy;
      return this;
    }

    TopologySpreadConstraint api() {
      return new TopologySpreadConstraint(
          maxSkew, topologyKey, whenUnsatisfiable, selector, minDomains, nodeAffinityPolicy, nodeTaintsPolicy,
          List.of());
    }

    Constraint internal() {
      return new Constraint(maxSkew, topologyKey, selector, minDomains, nodeAffinityPolicy, nodeTaintsPolicy);
    }
  }

  /** Kube's internal {@code topologySpreadConstraint}, positionally. */
  static TscW tsc(
      int maxSkew, String key, @Nullable LabelSelector selector, int minDomains, InclusionPolicy affinity,
      InclusionPolicy taints) {
    return topologySpreadConstraint().maxSkew(maxSkew).topologyKey(key).selector(selector).minDomains(minDomains)
        .nodeAffinityPolicy(affinity).nodeTaintsPolicy(taints);
  }

  /** A {@code v1.TopologySpreadConstraint} of the plugin's arguments: no selector. */
  static TscW defaultConstraint(int maxSkew, String key, WhenUnsatisfiable when) {
    return topologySpreadConstraint().maxSkew(maxSkew).topologyKey(key).whenUnsatisfiable(when);
  }

  static List<TopologySpreadConstraint> api(List<TscW> constraints) {
    return constraints.stream().map(TscW::api).toList();
  }

  /** A constraint with its selector reduced to a set of requirements, to compare selectors by meaning. */
  record ComparableConstraint(
      int maxSkew,
      String topologyKey,
      @Nullable Set<LabelSelectorRequirement> selector,
      int minDomains,
      InclusionPolicy nodeAffinityPolicy,
      InclusionPolicy nodeTaintsPolicy) {

    static ComparableConstraint of(Constraint c) {
      return new ComparableConstraint(
          c.maxSkew(), c.topologyKey(), requirements(c.selector()), c.minDomains(), c.nodeAffinityPolicy(),
          c.nodeTaintsPolicy());
    }
  }

  /** @return the selector's requirements, {@code matchLabels} written as {@code key In (value)}; null for none */
  static @Nullable Set<LabelSelectorRequirement> requirements(@Nullable LabelSelector selector) {
    if (selector == null) {
      return null;
    }
    var set = new HashSet<LabelSelectorRequirement>(selector.matchExpressions());
    selector.matchLabels().forEach(
        (k, v) -> set.add(LabelSelectorRequirement.of(k, LabelSelectorRequirement.Operator.IN, v)));
    return set;
  }

  static void assertConstraints(List<TscW> want, List<Constraint> got) {
    assertEquals(
        want.stream().map(w -> ComparableConstraint.of(w.internal())).toList(),
        got.stream().map(ComparableConstraint::of).toList(),
        "constraints");
  }

  static PreFilterStateW preFilterState() {
    return new PreFilterStateW();
  }

  static final class PreFilterStateW {
    List<TscW> constraints = List.of();
    List<Paths> criticalPaths = List.of();
    List<Map<String, Integer>> tpValueToMatchNum = List.of();

    PreFilterStateW constraints(List<TscW> constraints) {
      this.constraints = constraints;
      return this;
    }

    PreFilterStateW criticalPaths(List<Paths> criticalPaths) {
      this.criticalPaths = criticalPaths;
      return this;
    }

    PreFilterStateW tpValueToMatchNum(List<Map<String, Integer>> tpValueToMatchNum) {
      this.tpValueToMatchNum = tpValueToMatchNum;
      return this;
    }
  }

  static PreScoreStateW preScoreState() {
    return new PreScoreStateW();
  }

  static final class PreScoreStateW {
    List<TscW> constraints = List.of();
    Set<String> ignoredNodes = Set.of();
    List<Map<String, Long>> topologyValueToPodCounts = List.of();
    List<Double> topologyNormalizingWeight = List.of();

    PreScoreStateW constraints(List<TscW> constraints) {
      this.constraints = constraints;
      return this;
    }

    PreScoreStateW ignoredNodes(Set<String> ignoredNodes) {
      this.ignoredNodes = ignoredNodes;
      return this;
    }

    PreScoreStateW topologyValueToPodCounts(List<Map<String, Long>> counts) {
      this.topologyValueToPodCounts = counts;
      return this;
    }

    PreScoreStateW topologyNormalizingWeight(List<Double> weights) {
      this.topologyNormalizingWeight = weights;
      return this;
    }
  }

  /** {@code config.PodTopologySpreadArgs}. */
  static ArgsW podTopologySpreadArgs() {
    return new ArgsW();
  }

  static final class ArgsW {
    List<TscW> defaultConstraints = List.of();
    DefaultingType defaultingType = SYSTEM;

    ArgsW defaultConstraints(List<TscW> constraints) {
      this.defaultConstraints = constraints;
      return this;
    }

    ArgsW defaultingType(DefaultingType type) {
      this.defaultingType = type;
      return this;
    }

    PodTopologySpreadArgs args() {
      return new PodTopologySpreadArgs(api(defaultConstraints), defaultingType);
    }
  }

  /** {@code v1.Service}, {@code v1.ReplicationController}, {@code appsv1.ReplicaSet}, {@code StatefulSet}. */
  static ObjW service() {
    return new ObjW(WorkloadSelector.Kind.SERVICE);
  }

  static ObjW replicationController() {
    return new ObjW(WorkloadSelector.Kind.REPLICATION_CONTROLLER);
  }

  static ObjW replicaSet() {
    return new ObjW(WorkloadSelector.Kind.REPLICA_SET);
  }

  static ObjW statefulSet() {
    return new ObjW(WorkloadSelector.Kind.STATEFUL_SET);
  }

  static final class ObjW {
    final WorkloadSelector.Kind kind;
    String namespace = "";
    String name = "";
    LabelSelector selector = LabelSelector.EVERYTHING;

    ObjW(WorkloadSelector.Kind kind) {
      this.kind = kind;
    }

    ObjW objectMeta(MetaW meta) {
      this.namespace = meta.namespace;
      this.name = meta.name;
      return this;
    }

    ObjW spec(SpecW spec) {
      this.selector = spec.selector;
      return this;
    }

    WorkloadSelector obj() {
      return new WorkloadSelector(kind, namespace, name, selector);
    }
  }

  static MetaW objectMeta() {
    return new MetaW();
  }

  static final class MetaW {
    String namespace = "";
    String name = "";

    MetaW namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    MetaW name(String name) {
      this.name = name;
      return this;
    }
  }

  static SpecW serviceSpec() {
    return new SpecW();
  }

  static SpecW replicaSetSpec() {
    return new SpecW();
  }

  static final class SpecW {
    LabelSelector selector = LabelSelector.EVERYTHING;

    SpecW selector(Map<String, String> labels) {
      this.selector = LabelSelector.of(labels);
      return this;
    }

    SpecW selector(LabelSelector selector) {
      this.selector = selector;
      return this;
    }
  }

  static NodeScoreW nodeScore() {
    return new NodeScoreW();
  }

  /** {@code fwk.NodeScore}. */
  static final class NodeScoreW {
    String name = "";
    long score;

    NodeScoreW name(String name) {
      this.name = name;
      return this;
    }

    NodeScoreW score(long score) {
      this.score = score;
      return this;
    }

    @Override
    public String toString() {
      return name + "=" + score;
    }
  }

  // ---------------------------------------------------------------- a test case

  static Case tc() {
    return new Case();
  }

  /** One row of any of kube's tables: the union of their fields. */
  static final class Case {
    String name = "";
    @Nullable PodInfo pod;
    List<NodeInfo> nodes = List.of();
    List<NodeInfo> failedNodes = List.of();
    List<PodInfo> existingPods = List.of();
    List<ObjW> objs = List.of();
    List<TscW> defaultConstraints = List.of();
    ArgsW config = podTopologySpreadArgs().defaultingType(LIST);
    @Nullable PreFilterStateW wantPreFilterState;
    @Nullable PreScoreStateW wantPreScoreState;
    List<NodeScoreW> wantScores = List.of();
    @Nullable String wantPrefilterStatus;
    Map<String, Code> wantStatusCode = Map.of();
    @Nullable PodInfo addedPod;
    @Nullable PodInfo deletedPod;
    int deletedPodIdx = -1;
    int nodeIdx;

    Case name(String name) {
      this.name = name;
      return this;
    }

    /** Kube's preemption tests name the incoming pod so. */
    Case preemptor(PodInfo pod) {
      return pod(pod);
    }

    Case addedPod(PodInfo pod) {
      this.addedPod = pod;
      return this;
    }

    Case deletedPod(PodInfo pod) {
      this.deletedPod = pod;
      return this;
    }

    Case deletedPodIdx(int index) {
      this.deletedPodIdx = index;
      return this;
    }

    Case nodeIdx(int index) {
      this.nodeIdx = index;
      return this;
    }

    Case pod(PodInfo pod) {
      this.pod = pod;
      return this;
    }

    Case nodes(List<NodeInfo> nodes) {
      this.nodes = nodes;
      return this;
    }

    Case failedNodes(List<NodeInfo> nodes) {
      this.failedNodes = nodes;
      return this;
    }

    /** Kube's tables write an empty cluster as {@code nil}. */
    Case existingPods(@Nullable List<PodInfo> pods) {
      this.existingPods = pods == null ? List.of() : pods;
      return this;
    }

    Case objs(List<ObjW> objs) {
      this.objs = objs;
      return this;
    }

    Case defaultConstraints(List<TscW> constraints) {
      this.defaultConstraints = constraints;
      return this;
    }

    Case config(ArgsW config) {
      this.config = config;
      return this;
    }

    Case want(PreFilterStateW want) {
      this.wantPreFilterState = want;
      return this;
    }

    Case want(PreScoreStateW want) {
      this.wantPreScoreState = want;
      return this;
    }

    Case want(List<NodeScoreW> want) {
      this.wantScores = want;
      return this;
    }

    Case wantPrefilterStatus(String status) {
      this.wantPrefilterStatus = status;
      return this;
    }

    Case wantStatusCode(Map<String, Code> codes) {
      this.wantStatusCode = codes;
      return this;
    }

    /** Kube's feature gate: GA and locked on in 1.37, so the ported cases hold with it on. */
    Case enableNodeInclusionPolicy(boolean enabled) {
      return this;
    }

    /** Kube's feature gate, on by default in 1.37: the ported cases hold with it on. */
    Case enableMatchLabelKeys(boolean enabled) {
      return this;
    }

    PodInfo pod() {
      if (pod == null) {
        throw new IllegalStateException(name + " has no pod");
      }
      return pod;
    }

    /** @return kube's {@code cache.NewSnapshot(existingPods, nodes + failedNodes)} with the case's objects */
    ClusterSnapshot cluster() {
      var all = new ArrayList<NodeInfo>(nodes);
      all.addAll(failedNodes);
      return ClusterSnapshot.of(withPods(all), Map.of(), objs.stream().map(ObjW::obj).toList());
    }

    /** @return the case's {@code nodes} as the snapshot holds them, with their pods */
    List<NodeInfo> feasibleNodes(ClusterSnapshot cluster) {
      return nodes.stream().map(n -> cluster.node(n.name()).orElseThrow()).toList();
    }

    private List<NodeInfo> withPods(List<NodeInfo> all) {
      var placed = new ArrayList<NodeInfo>(all.size());
      for (var node : all) {
        var pods = existingPods.stream().filter(p -> p.nodeName().equals(node.name())).toList();
        placed.add(NodeInfo.builder(node.name()).labels(node.labels()).taints(node.taints())
            .allocatable(node.allocatable()).pods(pods).build());
      }
      return placed;
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
