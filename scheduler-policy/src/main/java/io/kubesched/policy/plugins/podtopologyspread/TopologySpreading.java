package io.kubesched.policy.plugins.podtopologyspread;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.LabelSelector;
import io.kubesched.api.LabelSelectorRequirement;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.api.TopologySpreadConstraint;
import io.kubesched.api.TopologySpreadConstraint.InclusionPolicy;
import io.kubesched.api.TopologySpreadConstraint.WhenUnsatisfiable;
import io.kubesched.api.WorkloadSelector;
import io.kubesched.policy.plugins.helper.LabelMatches;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import io.kubesched.policy.plugins.tainttoleration.TaintTolerationFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What kube-scheduler's {@code PodTopologySpread} filter and scorer share ({@code common.go} and the default
 * selector of {@code helper/spread.go}): which constraints apply to a pod, which nodes and pods they count.
 */
final class TopologySpreading {

  /** What both plugins read when default constraints are in use. */
  static final Set<ClusterData> WORKLOAD_SELECTORS =
      Set.of(
          ClusterData.SERVICES,
          ClusterData.REPLICATION_CONTROLLERS,
          ClusterData.REPLICA_SETS,
          ClusterData.STATEFUL_SETS);

  private TopologySpreading() {}

  /**
   * A constraint as the plugins apply it: its selector resolved for the incoming pod.
   *
   * @param maxSkew the constraint's {@code maxSkew}
   * @param topologyKey the node label whose values are the domains
   * @param selector the pods counted; {@code null} selects none (kube's {@code labels.Nothing()})
   * @param minDomains the constraint's {@code minDomains}
   * @param nodeAffinityPolicy whether nodes the pod's node affinity excludes are left out
   * @param nodeTaintsPolicy whether nodes with taints the pod does not tolerate are left out
   */
  record Constraint(
      int maxSkew,
      String topologyKey,
      @Nullable LabelSelector selector,
      int minDomains,
      InclusionPolicy nodeAffinityPolicy,
      InclusionPolicy nodeTaintsPolicy) {

    /** @return whether the selector selects {@code labels}; the empty selector selects every set */
    boolean selects(Map<String, String> labels) {
      return selector != null && selector.matches(labels);
    }

    /**
     * Kube's {@code countPodsMatchSelector}: the pods of {@code pods} in {@code namespace}, not being deleted,
     * that the selector selects; none when the selector is empty.
     */
    int count(List<PodInfo> pods, String namespace) {
      return count(pods, namespace, null);
    }

    /**
     * {@link #count(List, String)} through {@code selected}, which remembers the selector's answers over one
     * walk.
     *
     * @param selected this constraint's {@link #matches()}, confined to the calling thread; null to ask the
     *     selector itself (a single node's count, where there is nothing to remember)
     */
    int count(List<PodInfo> pods, String namespace, @Nullable LabelMatches selected) {
      if (selector == null || selector.isEmpty()) {
        return 0;
      }
      int count = 0;
      // Indexed: this runs for every node, and an iterator per node is not optimised away.
      for (int i = 0; i < pods.size(); i++) {
        var pod = pods.get(i);
        if (!pod.terminating()
            && pod.namespace().equals(namespace)
            && (selected == null ? selector.matches(pod.labels()) : selected.test(pod.labels()))) {
          count++;
        }
      }
      return count;
    }

    /** @return this constraint's selector, to ask over one walk of the cluster's pods */
    LabelMatches matches() {
      return new LabelMatches(selector);
    }

    /**
     * Kube's {@code matchNodeInclusionPolicies}: whether {@code node} counts for {@code pod} under this
     * constraint's node affinity and taint policies.
     */
    boolean includes(PodInfo pod, NodeInfo node) {
      if (nodeAffinityPolicy == InclusionPolicy.HONOR && !NodeSelectors.matchesRequired(pod, node)) {
        return false;
      }
      return nodeTaintsPolicy != InclusionPolicy.HONOR
          || TaintTolerationFilter.firstUntoleratedTaint(pod, node).isEmpty();
    }
  }

  /** @return each constraint's {@link Constraint#matches()}, by index, for one walk */
  static LabelMatches[] matches(List<Constraint> constraints) {
    var selected = new LabelMatches[constraints.size()];
    for (int i = 0; i < selected.length; i++) {
      selected[i] = constraints.get(i).matches();
    }
    return selected;
  }

  /**
   * The constraints of {@code pod} with {@code action}: its own if it has any, else {@code defaults} with the
   * selector its Services and controller give (none if that selector is empty).
   */
  static List<Constraint> constraints(
      PodInfo pod, WhenUnsatisfiable action, List<TopologySpreadConstraint> defaults, ClusterSnapshot cluster) {
    if (!pod.topologySpreadConstraints().isEmpty()) {
      return select(pod.topologySpreadConstraints(), pod.labels(), action);
    }
    var constraints = select(defaults, pod.labels(), action);
    if (constraints.isEmpty()) {
      return constraints;
    }
    var selector = defaultSelector(pod, cluster);
    if (selector.isEmpty()) {
      return List.of();
    }
    var withSelector = new ArrayList<Constraint>(constraints.size());
    for (var c : constraints) {
      withSelector.add(
          new Constraint(
              c.maxSkew(), c.topologyKey(), selector, c.minDomains(), c.nodeAffinityPolicy(), c.nodeTaintsPolicy()));
    }
    return withSelector;
  }

  /**
   * Kube's {@code filterTopologySpreadConstraints}: the constraints with {@code action}, their selectors
   * narrowed by the incoming pod's values of their {@code matchLabelKeys}.
   */
  static List<Constraint> select(
      List<TopologySpreadConstraint> constraints, Map<String, String> podLabels, WhenUnsatisfiable action) {
    var selected = new ArrayList<Constraint>(constraints.size());
    for (var c : constraints) {
      if (c.whenUnsatisfiable() != action) {
        continue;
      }
      selected.add(
          new Constraint(
              c.maxSkew(),
              c.topologyKey(),
              withMatchLabelKeys(c.labelSelector(), c.matchLabelKeys(), podLabels),
              c.minDomains(),
              c.nodeAffinityPolicy(),
              c.nodeTaintsPolicy()));
    }
    return selected;
  }

  /**
   * The selector narrowed by {@code key = value} for each of {@code keys} the pod carries. An absent selector
   * stays absent (it selects nothing). A 1.37 API server has already added {@code key In (value)} to the
   * selector when it created the pod; adding {@code key = value} again selects the same pods, and keeps pods
   * created without that merge right.
   */
  static @Nullable LabelSelector withMatchLabelKeys(
      @Nullable LabelSelector selector, List<String> keys, Map<String, String> podLabels) {
    if (selector == null || keys.isEmpty()) {
      return selector;
    }
    var added = new ArrayList<LabelSelectorRequirement>(keys.size());
    for (var key : keys) {
      var value = podLabels.get(key);
      if (value != null) {
        added.add(LabelSelectorRequirement.of(key, LabelSelectorRequirement.Operator.IN, value));
      }
    }
    return selector.and(added);
  }

  /**
   * Kube's {@code helper.DefaultSelector}: the labels of the selectors of the pod's namespace's Services that
   * select the pod, merged with the selector of the pod's controlling ReplicationController (whose labels win),
   * and with the requirements of its controlling ReplicaSet or StatefulSet added. Empty when none is found.
   */
  static LabelSelector defaultSelector(PodInfo pod, ClusterSnapshot cluster) {
    var workloads = cluster.workloadsIn(pod.namespace());
    var labels = new LinkedHashMap<String, String>();
    for (var workload : workloads) {
      if (workload.kind() == WorkloadSelector.Kind.SERVICE && workload.selector().matches(pod.labels())) {
        labels.putAll(workload.selector().matchLabels());
      }
    }
    var owner = pod.owner();
    if (owner == null) {
      return LabelSelector.of(labels);
    }
    var controller = controller(workloads, owner.kind(), owner.name());
    if (controller == null) {
      return LabelSelector.of(labels);
    }
    if (controller.kind() == WorkloadSelector.Kind.REPLICATION_CONTROLLER) {
      labels.putAll(controller.selector().matchLabels());
      return LabelSelector.of(labels);
    }
    var requirements = new ArrayList<LabelSelectorRequirement>();
    controller.selector().matchLabels().forEach(
        (key, value) -> requirements.add(LabelSelectorRequirement.of(key, LabelSelectorRequirement.Operator.IN, value)));
    requirements.addAll(controller.selector().matchExpressions());
    return new LabelSelector(labels, requirements);
  }

  private static @Nullable WorkloadSelector controller(List<WorkloadSelector> workloads, String kind, String name) {
    for (var workload : workloads) {
      if (workload.kind() != WorkloadSelector.Kind.SERVICE
          && workload.kind().apiKind().equals(kind)
          && workload.name().equals(name)) {
        return workload;
      }
    }
    return null;
  }

  /**
   * Kube's {@code nodeLabelsMatchSpreadConstraints} and the domains it then reads, with one look-up per key.
   *
   * @param values where the node's value of each constraint's topology key is written, by constraint
   * @return whether the node has every constraint's topology key ({@code values} is complete only then)
   */
  static boolean topologyValues(Map<String, String> nodeLabels, List<Constraint> constraints, String[] values) {
    for (int i = 0; i < constraints.size(); i++) {
      var value = nodeLabels.get(constraints.get(i).topologyKey());
      if (value == null) {
        return false;
      }
      values[i] = value;
    }
    return true;
  }

  /** Kube's {@code nodeLabelsMatchSpreadConstraints}: whether the node has every constraint's topology key. */
  static boolean hasAllTopologyKeys(Map<String, String> nodeLabels, List<Constraint> constraints) {
    for (int i = 0; i < constraints.size(); i++) {
      if (!nodeLabels.containsKey(constraints.get(i).topologyKey())) {
        return false;
      }
    }
    return true;
  }
}
