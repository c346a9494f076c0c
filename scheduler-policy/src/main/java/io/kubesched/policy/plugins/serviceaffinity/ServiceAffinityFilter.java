package io.kubesched.policy.plugins.serviceaffinity;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Keeps the pods of a Service on nodes that agree on some labels: kube-scheduler's former {@code
 * CheckServiceAffinity} predicate, configured in a scheduler Policy by the argument {@code serviceAffinity:
 * {labels: [...]}}, and later the {@code ServiceAffinity} plugin (removed in Kubernetes 1.23). For example,
 * with the label {@code zone}, once the first pod of a Service runs in zone {@code a}, the Service's later
 * pods are placed in zone {@code a} too.
 *
 * <p>For each pod, {@link #prepare} works out the label values a node must carry, as kube's plugin of 1.20 did:
 * <ol>
 *   <li>each configured label that the pod's {@code nodeSelector} fixes takes the selector's value;
 *   <li>if some configured label is still open, at least one Service in the pod's namespace selects the pod,
 *       and some pod of the same namespace whose labels include all of the pod's labels is already placed, the
 *       first such pod (in the snapshot's node order, then the node's pod order) gives the rest: every open label
 *       that its node carries takes that node's value (a label its node lacks stays open).
 * </ol>
 * A node fits if it carries every fixed label with the fixed value; with nothing fixed every node fits.
 * Kube found "the Service's pods" by the pod's own labels, not by the Service's selector; so does this filter
 * (the predicate's first releases took the pods that the first Service's selector matches instead).
 *
 * <p>A rejection has kube's reason "node(s) didn't match service affinity" ({@link Violated}) and code
 * {@link FilterResult.Code#UNSCHEDULABLE}, as kube's plugin returned. Called without {@link #prepare}, {@link
 * #filter} cannot decide and says so (as kube's plugin without its PreFilter state). The filter reads the
 * snapshot's Services ({@link ClusterData#SERVICES}). Immutable and thread-safe; the filter {@link #prepare}
 * returns is immutable too.
 *
 * <p>Preemption: the filter {@link #prepare} returns is not {@link PodTracking} (this legacy
 * predicate has no counterpart in kube-scheduler 1.37, whose preemption this library follows). Preemption
 * therefore evaluates it with the potential victims still counted: the pod that fixes the required labels stays
 * the first one in the snapshot even when it would be evicted. That is conservative: a node this filter rejects
 * stays rejected, so preemption may miss a node where evicting that pod would have let the Service's pods move,
 * but it never evicts a pod for this filter's sake.
 */
public final class ServiceAffinityFilter implements Filter, PreFilter {

  /** The name of the kube-scheduler plugin that carried this predicate, {@value}. */
  public static final String NAME = "ServiceAffinity";

  private final List<String> labels;

  /**
   * @param labels the node label keys on which a Service's pods must agree, at least one, none empty
   * @throws IllegalArgumentException if {@code labels} is empty or holds an empty key
   */
  public ServiceAffinityFilter(List<String> labels) {
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("serviceAffinity.labels must not be empty");
    }
    for (int i = 0; i < labels.size(); i++) {
      if (labels.get(i).isEmpty()) {
        throw new IllegalArgumentException("serviceAffinity.labels[" + i + "] must not be empty, was " + labels);
      }
    }
    this.labels = List.copyOf(labels);
  }

  /** @return the label keys on which a Service's pods must agree */
  public List<String> labels() {
    return labels;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** @return {@link ClusterData#SERVICES} */
  @Override
  public Set<ClusterData> reads() {
    return Set.of(ClusterData.SERVICES);
  }

  /**
   * Not the way to use this filter: its decision needs the cluster, which only {@link #prepare} sees.
   *
   * @return always {@link FilterResult.Failed}, naming the missing step
   */
  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return FilterResult.error(NAME + " needs prepare(pod, cluster) before filtering pod " + pod.key());
  }

  /**
   * @return a filter for {@code pod} that accepts exactly the nodes carrying the {@linkplain #requiredLabels
   *     required labels}
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    return new Prepared(requiredLabels(pod, cluster));
  }

  /**
   * @return the label values a node must carry to take {@code pod}, by key, in the order of {@link #labels()};
   *     empty when nothing is fixed
   */
  public Map<String, String> requiredLabels(PodInfo pod, ClusterSnapshot cluster) {
    var required = new LinkedHashMap<String, String>();
    for (var label : labels) {
      var value = pod.nodeSelector().get(label);
      if (value != null) {
        required.put(label, value);
      }
    }
    if (required.size() < labels.size() && !PodServices.of(pod, cluster).isEmpty()) {
      var first = firstNodeOfSiblings(pod, cluster);
      if (first != null) {
        for (var label : labels) {
          var value = first.labels().get(label);
          if (value != null) {
            required.putIfAbsent(label, value);
          }
        }
      }
    }
    return Collections.unmodifiableMap(required);
  }

  /** The node of the first placed pod in {@code pod}'s namespace whose labels include all of {@code pod}'s. */
  private static @Nullable NodeInfo firstNodeOfSiblings(
      PodInfo pod, ClusterSnapshot cluster) {
    for (var node : cluster.nodes()) {
      for (var placed : node.pods()) {
        if (placed.namespace().equals(pod.namespace()) && includes(placed.labels(), pod.labels())) {
          return node;
        }
      }
    }
    return null;
  }

  private static boolean includes(Map<String, String> labels, Map<String, String> subset) {
    for (var pair : subset.entrySet()) {
      if (!pair.getValue().equals(labels.get(pair.getKey()))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return NAME + "{labels=" + labels + "}";
  }

  /**
   * The node does not carry the label values that the pod's Service (or its node selector) fixes.
   *
   * @param required the label values the node had to carry
   */
  public record Violated(Map<String, String> required) implements Reason {

    public Violated {
      required = Map.copyOf(required);
    }

    @Override
    public String message() {
      return "node(s) didn't match service affinity";
    }
  }

  /** The filter for one pod: the required labels are known. */
  private record Prepared(Map<String, String> required) implements Filter {

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Set<ClusterData> reads() {
      return Set.of(ClusterData.SERVICES);
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      for (var pair : required.entrySet()) {
        if (!pair.getValue().equals(node.labels().get(pair.getKey()))) {
          return FilterResult.unschedulable(new Violated(required));
        }
      }
      return FilterResult.fit();
    }
  }
}
