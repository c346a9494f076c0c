package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * One change of a node or of a bound pod, as the scheduling queue asks the filters that rejected a waiting pod
 * whether it may let the pod fit (kube-scheduler's cluster event with its old and new object, handed to a plugin's
 * queueing hint function). Immutable.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface ClusterUpdate {

  /** @return what the update changed, never empty: the kinds a filter registers to be retried on */
  Set<ClusterChange> changes();

  /**
   * A node was added.
   *
   * @param node the node as added, without pods
   */
  record NodeAdded(NodeInfo node) implements ClusterUpdate {
    public NodeAdded {
      Objects.requireNonNull(node, "node");
    }

    /** @return {@link ClusterChange#NODE_ADDED} */
    @Override
    public Set<ClusterChange> changes() {
      return ClusterChange.of(ClusterChange.NODE_ADDED);
    }
  }

  /**
   * A node changed what placement reads of it. The constructor throws {@link IllegalArgumentException} when
   * {@code changes} is empty or names an addition or a pod's deletion.
   *
   * @param before the node as it was, without pods
   * @param after the node as it is now, without pods
   * @param changes what changed from {@code before} to {@code after}
   */
  record NodeUpdated(NodeInfo before, NodeInfo after, Set<ClusterChange> changes) implements ClusterUpdate {
    public NodeUpdated {
      Objects.requireNonNull(before, "before");
      Objects.requireNonNull(after, "after");
      if (changes.isEmpty()
          || changes.contains(ClusterChange.NODE_ADDED)
          || changes.contains(ClusterChange.ASSIGNED_POD_DELETED)) {
        throw new IllegalArgumentException("a node update changes its labels, taints, allocatable or declared "
            + "features, not " + changes);
      }
      changes = Collections.unmodifiableSet(EnumSet.copyOf(changes));
    }
  }

  /**
   * A pod bound to a node was deleted, or finished: its node has room again.
   *
   * @param pod the pod as it was, with its node name
   */
  record AssignedPodDeleted(PodInfo pod) implements ClusterUpdate {
    public AssignedPodDeleted {
      Objects.requireNonNull(pod, "pod");
    }

    /** @return {@link ClusterChange#ASSIGNED_POD_DELETED} */
    @Override
    public Set<ClusterChange> changes() {
      return ClusterChange.of(ClusterChange.ASSIGNED_POD_DELETED);
    }

    /**
     * @return whether the pod held room on a node, bound or nominated there: kube's hints skip the deletion of a
     *     pod that did not
     */
    public boolean heldRoom() {
      return !pod.nodeName().isEmpty() || !pod.nominatedNodeName().isEmpty();
    }
  }
}
