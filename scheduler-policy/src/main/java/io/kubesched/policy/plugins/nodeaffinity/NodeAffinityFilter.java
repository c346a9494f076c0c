package io.kubesched.policy.plugins.nodeaffinity;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.NodeSelectorRequirement;
import io.kubesched.api.NodeSelectorTerm;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Filter;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.OnlyNodes;
import io.kubesched.policy.framework.PreFilter;
import io.kubesched.policy.framework.Reason;
import io.kubesched.policy.plugins.helper.NodeSelectors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * kube-scheduler's {@code NodeAffinity} filter plugin (formerly the {@code MatchNodeSelector} predicate): the
 * node must carry every label of the pod's {@code nodeSelector} and match one of the terms of its required
 * node affinity, with Kubernetes' matching rules ({@link NodeSelectors#matchesRequired}).
 *
 * <p>The plugin's {@code addedAffinity} argument is supported in its required part: terms every pod's node
 * must match as well (one of them), checked first. A node that misses them is rejected with {@link
 * Reason.EnforcedNodeAffinityMismatch}; one that misses the pod's own rules with {@link
 * Reason.NodeAffinityMismatch}. Both with code {@link FilterResult.Code#UNSCHEDULABLE_AND_UNRESOLVABLE}:
 * evicting pods does not change a node's labels.
 *
 * <p>As kube's {@code PreFilter}, {@link #prepare} reads the pod's rules once (and skips the plugin for a pod
 * without any, when no affinity is added); {@link #filter} reads them itself, with the same result. When every
 * required term of the pod names nodes ({@code matchFields} {@code metadata.name In}, as a DaemonSet's pods
 * carry), the prepared filter names those nodes ({@link OnlyNodes}) and no other node is looked at; terms that
 * name no node in common turn the pod away ({@value #TERMS_CONFLICT}). Immutable
 * and thread-safe, and so are the filters it prepares.
 */
public final class NodeAffinityFilter implements Filter, PreFilter {

  /** The kube-scheduler plugin name, {@value}. */
  public static final String NAME = "NodeAffinity";

  private final List<NodeSelectorTerm> addedRequired;

  /** Creates the filter without added affinity: only the pod's own rules apply. */
  public NodeAffinityFilter() {
    this(List.of());
  }

  /**
   * Creates the filter with kube-scheduler's {@code addedAffinity} (its required part).
   *
   * @param addedRequired terms of which every pod's node must match one; empty for none
   */
  public NodeAffinityFilter(List<NodeSelectorTerm> addedRequired) {
    this.addedRequired = List.copyOf(addedRequired);
  }

  /** @return the terms of the added affinity; empty when there is none */
  public List<NodeSelectorTerm> addedRequired() {
    return addedRequired;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** {@inheritDoc} As kube-scheduler's: kube registers Node Add and UpdateNodeLabel. */
  @Override
  public Set<ClusterChange> retriedOn() {
    return ClusterChange.of(ClusterChange.NODE_ADDED, ClusterChange.NODE_LABELS);
  }

  /**
   * {@inheritDoc} As kube 1.37's hint: a node added that matches the added affinity and the pod's node selector and
   * required terms; a node relabelled that matches them now and did not match the pod's own before.
   */
  @Override
  public boolean isSchedulableAfter(PodInfo pod, ClusterUpdate update) {
    if (update instanceof ClusterUpdate.NodeAdded added) {
      return filter(pod, added.node()).fits();
    }
    if (update instanceof ClusterUpdate.NodeUpdated updated) {
      return filter(pod, updated.after()).fits() && !NodeSelectors.matchesRequired(pod, updated.before());
    }
    return true;
  }

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    if (!addedRequired.isEmpty() && !NodeSelectors.matchesAny(addedRequired, node)) {
      return FilterResult.unresolvable(new Reason.EnforcedNodeAffinityMismatch());
    }
    if (!NodeSelectors.matchesRequired(pod, node)) {
      return FilterResult.unresolvable(new Reason.NodeAffinityMismatch());
    }
    return FilterResult.fit();
  }

  /**
   * @return a filter of {@code pod} on any node with its node selector and required terms read once; {@link
   *     PreFilter#skip} when the pod has neither and no affinity is added
   */
  @Override
  public Filter prepare(PodInfo pod, ClusterSnapshot cluster) {
    var required = NodeSelectors.requiredOf(pod);
    if (required.isEmpty() && addedRequired.isEmpty()) {
      return PreFilter.skip(NAME);
    }
    var named = namedNodes(pod.affinity().required());
    if (named == null) {
      return new Prepared(addedRequired, required);
    }
    if (named.isEmpty()) {
      return PreFilter.rejectPod(NAME, FilterResult.unresolvable(new Reason.Other(TERMS_CONFLICT)));
    }
    return new PreparedForNodes(addedRequired, required, named);
  }

  /** kube-scheduler's message for required terms that name nodes but no node in common: {@value}. */
  public static final String TERMS_CONFLICT = "pod affinity terms conflict";

  /**
   * The nodes the pod's required terms name, as kube-scheduler's NodeAffinity PreFilter finds them: in each
   * term, the nodes every {@code metadata.name In} field requirement names; over the terms (which are ORed),
   * all of those.
   *
   * @return those nodes; null when some term names none (any node may match it) or there is no term; empty when
   *     the terms name nodes but their field requirements leave none
   */
  static @Nullable Set<String> namedNodes(List<NodeSelectorTerm> terms) {
    if (terms.isEmpty() || terms.get(0).matchFields().isEmpty()) {
      return null; // the common case, a term with no field requirement, decided without allocating
    }
    var named = new HashSet<String>();
    for (var term : terms) {
      Set<String> termNodes = null;
      for (var requirement : term.matchFields()) {
        if (requirement.key().equals(NodeSelectorTerm.NODE_NAME_FIELD)
            && requirement.operator() == NodeSelectorRequirement.Operator.IN) {
          if (termNodes == null) {
            termNodes = new HashSet<>(requirement.values());
          } else {
            termNodes.retainAll(requirement.values());
          }
        }
      }
      if (termNodes == null) {
        return null;
      }
      named.addAll(termNodes);
    }
    return named;
  }

  /** One pod's filter that also names the only nodes it can fit. */
  private static final class PreparedForNodes extends Prepared implements OnlyNodes {
    private final Set<String> nodeNames;

    PreparedForNodes(
        List<NodeSelectorTerm> addedRequired, NodeSelectors.RequiredNodeAffinity required, Set<String> nodeNames) {
      super(addedRequired, required);
      this.nodeNames = Set.copyOf(nodeNames);
    }

    @Override
    public Set<String> nodeNames() {
      return nodeNames;
    }
  }

  /** One pod's filter: its rules are fixed, the {@code pod} passed to {@link #filter} is not read. */
  private static class Prepared implements Filter {
    private final List<NodeSelectorTerm> addedRequired;
    private final NodeSelectors.RequiredNodeAffinity required;

    Prepared(List<NodeSelectorTerm> addedRequired, NodeSelectors.RequiredNodeAffinity required) {
      this.addedRequired = addedRequired;
      this.required = required;
    }

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public FilterResult filter(PodInfo pod, NodeInfo node) {
      if (!addedRequired.isEmpty() && !NodeSelectors.matchesAny(addedRequired, node)) {
        return FilterResult.unresolvable(new Reason.EnforcedNodeAffinityMismatch());
      }
      if (!required.matches(node)) {
        return FilterResult.unresolvable(new Reason.NodeAffinityMismatch());
      }
      return FilterResult.fit();
    }
  }

  @Override
  public String toString() {
    return addedRequired.isEmpty() ? NAME : NAME + "{addedAffinity=" + addedRequired + "}";
  }
}
