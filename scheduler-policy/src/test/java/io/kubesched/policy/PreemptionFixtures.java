package io.kubesched.policy;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodAffinity;
import io.kubesched.api.PodAffinityTerm;
import io.kubesched.api.PodDisruptionBudget;
import io.kubesched.api.PodInfo;
import io.kubesched.api.PreemptionPolicy;
import io.kubesched.api.Resources;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.framework.runtime.NodeStatuses;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/**
 * The fixtures of kube-scheduler's preemption tests ({@code default_preemption_test.go}): its priorities and
 * resource sizes, its pod and node wrappers ({@code st.MakePod()}, {@code st.MakeNode()}) and its fake filters.
 */
final class PreemptionFixtures {

  private PreemptionFixtures() {}

  static final int NEG = -100;
  static final int LOW = 0;
  static final int MID = 100;
  static final int HIGH = 1000;
  static final int VERY_HIGH = 10000;

  /** CPU millicores and memory bytes. */
  record Res(long milliCpu, long memory) {}

  static final Res SMALL = new Res(100, 100);
  static final Res MEDIUM = new Res(200, 200);
  static final Res LARGE = new Res(300, 300);
  static final Res VERY_LARGE = new Res(500, 500);

  static final String NS = "default";

  /** kube's {@code metav1.NewTime(time.Unix(0, n))}. */
  static Instant epoch(long nanos) {
    return Instant.ofEpochSecond(0, nanos);
  }

  static PodW pod(String name) {
    return new PodW(name);
  }

  /** kube's {@code st.MakePod()}: namespace {@value #NS}, uid = name, no requests, priority 0. */
  static final class PodW {
    private final PodInfo.Builder builder;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final List<TopologySpreadConstraint> spread = new ArrayList<>();

    PodW(String name) {
      builder = PodInfo.builder(NS, name).uid(name);
    }

    PodW uid(String uid) {
      builder.uid(uid);
      return this;
    }

    PodW node(String node) {
      builder.nodeName(node);
      return this;
    }

    PodW priority(int priority) {
      builder.priority(priority);
      return this;
    }

    PodW req(Res res) {
      builder.requests(res.milliCpu(), res.memory());
      return this;
    }

    PodW label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    PodW startTime(Instant time) {
      builder.startTime(time);
      return this;
    }

    PodW preemptNever() {
      builder.preemptionPolicy(PreemptionPolicy.NEVER);
      return this;
    }

    PodW preemptLowerPriority() {
      builder.preemptionPolicy(PreemptionPolicy.PREEMPT_LOWER_PRIORITY);
      return this;
    }

    PodW nominatedNodeName(String node) {
      builder.nominatedNodeName(node);
      return this;
    }

    PodW terminating() {
      builder.terminating(true);
      return this;
    }

    /** kube's {@code Condition(v1.DisruptionTarget, v1.ConditionTrue, v1.PodReasonPreemptionByScheduler)}. */
    PodW preemptedByScheduler() {
      builder.preemptedByScheduler(true);
      return this;
    }

    /** kube's {@code PodAntiAffinityExists(key, topologyKey, st.PodAntiAffinityWithRequiredReq)}. */
    PodW podAntiAffinityExists(String key, String topologyKey) {
      builder.podAntiAffinity(new PodAffinity(List.of(PodAffinityTerm.of(exists(key), topologyKey)), List.of()));
      return this;
    }

    /** kube's {@code SpreadConstraint(maxSkew, key, v1.DoNotSchedule, selector, nil, nil, nil, nil)}. */
    PodW spreadConstraint(int maxSkew, String key, LabelSelector selector) {
      spread.add(
          TopologySpreadConstraint.of(
              maxSkew, key, TopologySpreadConstraint.WhenUnsatisfiable.DO_NOT_SCHEDULE, selector));
      builder.topologySpreadConstraints(spread);
      return this;
    }

    PodInfo obj() {
      return builder.labels(labels).build();
    }
  }

  /** kube's {@code st.MakeLabelSelector().Exists(key)}. */
  static LabelSelector exists(String key) {
    return LabelSelector.of(LabelSelectorRequirement.of(key, LabelSelectorRequirement.Operator.EXISTS));
  }

  /**
   * kube's test nodes: {@code name} split at {@code /} into the labels {@code hostname}, {@code zone} and {@code
   * region}, the first part the name; {@code capacity} allocatable and 32 pods.
   */
  static NodeInfo.Builder node(String spec, Res capacity) {
    return node(spec, capacity, 32);
  }

  static NodeInfo.Builder node(String spec, Res capacity, long pods) {
    var parts = spec.split("/");
    var keys = List.of("hostname", "zone", "region");
    var labels = new HashMap<String, String>();
    for (int i = 0; i < parts.length; i++) {
      labels.put(keys.get(i), parts[i]);
    }
    return NodeInfo.builder(parts[0])
        .labels(labels)
        .allocatable(new Resources(capacity.milliCpu(), capacity.memory(), 0, pods, Map.of()));
  }

  /** kube's {@code internalcache.NewSnapshot(pods, nodes)}: each pod on the node it names, in the order given. */
  static ClusterSnapshot snapshot(List<NodeInfo.Builder> nodes, List<PodInfo> pods) {
    var built = new ArrayList<NodeInfo>();
    for (var node : nodes) {
      var name = node.build().name();
      built.add(node.pods(pods.stream().filter(p -> p.nodeName().equals(name)).toList()).build());
    }
    return ClusterSnapshot.of(built);
  }

  static PodDisruptionBudget pdb(Map<String, String> matchLabels, int allowed, String... disrupted) {
    return new PodDisruptionBudget(NS, "pdb", LabelSelector.of(matchLabels), allowed, Set.of(disrupted));
  }

  /** Each filter that is a {@link PreFilter} replaced by what it prepares for {@code pod}, as a policy does. */
  static List<Filter> prepare(List<Filter> filters, PodInfo pod, ClusterSnapshot cluster) {
    var prepared = new ArrayList<Filter>();
    for (var filter : filters) {
      prepared.add(filter instanceof PreFilter preFilter ? preFilter.prepare(pod, cluster) : filter);
    }
    return prepared;
  }

  /**
   * kube's {@code tf.FakeFilterPlugin}: counts its calls and rejects the nodes named in its map with their code
   * ({@code injecting failure for pod <name>}).
   */
  static final class FakeFilter implements Filter {
    final AtomicInteger calls = new AtomicInteger();
    private final Map<String, FilterResult.Code> codes;

    FakeFilter(Map<String, FilterResult.Code> codes) {
      this.codes = codes;
    }

    @Override
    public String name() {
      return "FakeFilter";
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      calls.incrementAndGet();
      var code = codes.get(node.name());
      if (code == null || code == FilterResult.Code.SUCCESS) {
        return FilterResult.fit();
      }
      var reason = Reason.of("injecting failure for pod " + pod.name());
      return code == FilterResult.Code.ERROR
          ? FilterResult.error(reason.message())
          : new FilterResult.Rejected(code, List.of(reason));
    }
  }

  /** kube's {@code tf.ErrReasonFake}. */
  static final String ERR_REASON_FAKE = "Nodes failed the fake plugin";

  /** kube's {@code tf.FalseFilterPlugin}: rejects every node. */
  static Filter falseFilter() {
    return simple("FalseFilter", (pod, node) -> FilterResult.unschedulable(Reason.of(ERR_REASON_FAKE)));
  }

  /** kube's {@code tf.TrueFilterPlugin}: fits every node. */
  static Filter trueFilter() {
    return simple("TrueFilter", (pod, node) -> FilterResult.fit());
  }

  /** kube's {@code tf.MatchFilterPlugin}: fits the node of the pod's name only. */
  static Filter matchFilter() {
    return simple(
        "MatchFilter",
        (pod, node) -> pod.name().equals(node.name())
            ? FilterResult.fit()
            : FilterResult.unschedulable(Reason.of(ERR_REASON_FAKE)));
  }

  private interface FilterFunction {
    FilterResult apply(PodInfo pod, NodeInfo node);
  }

  private static Filter simple(String name, FilterFunction function) {
    return new Filter() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public FilterResult filter(PodInfo pod, NodeInfo node) {
        return function.apply(pod, node);
      }
    };
  }

  /** kube's seeded {@code getOffsetRand} replaced by fixed offsets: each {@code nextInt} returns the next. */
  static RandomGenerator offsets(int... values) {
    var next = new AtomicInteger();
    return new RandomGenerator() {
      @Override
      public long nextLong() {
        return values[next.getAndIncrement() % values.length];
      }

      @Override
      public int nextInt(int bound) {
        return (int) (nextLong() % bound);
      }
    };
  }

  /** @return the statuses kube's tests hand the PostFilter: these nodes rejected with {@code code}, others absent */
  static NodeStatuses statuses(Map<String, FilterResult.Code> codes) {
    var byNode = new HashMap<String, FilterResult.Rejected>();
    codes.forEach((node, code) -> byNode.put(node, new FilterResult.Rejected(code, List.of(Reason.of("")))));
    return NodeStatuses.of(byNode);
  }


  /**
   * Fits while fewer than {@code limit} pods labelled {@code key=value} are in the whole cluster: a filter whose
   * prepared state depends on other nodes' pods, like inter-pod affinity; prepared once, then tracked. Its
   * trackers log what they are told to {@code log} ({@code "add|remove <pod>@<node> <whether node holds pod>"}).
   */
  record LabelLimit(String key, String value, int limit, List<String> log) implements Filter, PreFilter {
    /** A limit whose trackers' log nobody reads. */
    LabelLimit(String key, String value, int limit) {
      this(key, value, limit, new ArrayList<>());
    }

    @Override
    public String name() {
      return "LabelLimit";
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      throw new AssertionError("only the prepared filter runs");
    }

    @Override
    public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
      int count = 0;
      for (var node : cluster.nodes()) {
        count += (int) node.pods().stream().filter(this::counted).count();
      }
      return new Counted(count);
    }

    boolean counted(PodInfo pod) {
      return value.equals(pod.labels().get(key));
    }

    final class Counted implements PodTracking, PodTracking.Tracker {
      private int count;

      Counted(int count) {
        this.count = count;
      }

      @Override
      public String name() {
        return "LabelLimit";
      }

      @Override
      public FilterResult filter(PodInfo pod, NodeInfo node) {
        return count < limit
            ? FilterResult.fit()
            : FilterResult.unschedulable(Reason.of("too many " + key + "=" + value));
      }

      @Override
      public Tracker track() {
        return new Counted(count);
      }

      @Override
      public void addPod(PodInfo pod, NodeInfo node) {
        log.add("add " + pod.name() + "@" + node.name() + " " + node.pods().contains(pod));
        if (counted(pod)) {
          count++;
        }
      }

      @Override
      public void removePod(PodInfo pod, NodeInfo node) {
        log.add("remove " + pod.name() + "@" + node.name() + " " + node.pods().contains(pod));
        if (counted(pod)) {
          count--;
        }
      }
    }
  }

  static List<String> names(List<PodInfo> pods) {
    return pods.stream().map(PodInfo::name).toList();
  }
}
