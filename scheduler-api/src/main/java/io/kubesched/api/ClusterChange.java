package io.kubesched.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * A change of the cluster's nodes or bound pods that may let a waiting pod fit: what a filter registers to be
 * retried on (kube-scheduler's {@code EventsToRegister} with the node and assigned-pod action types: {@code Add},
 * {@code UpdateNodeAllocatable}, {@code UpdateNodeLabel}, {@code UpdateNodeTaint}, {@code
 * UpdateNodeDeclaredFeature}, {@code Delete}). The scheduling queue retries a pod no node fitted on such a change
 * only if one of the filters that rejected it registers it.
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum ClusterChange {
  /** A node was added. */
  NODE_ADDED,
  /** A node's {@code status.allocatable} changed. */
  NODE_ALLOCATABLE,
  /** A node's labels changed. */
  NODE_LABELS,
  /** A node's taints or {@code spec.unschedulable} changed (kube counts both as a taint change). */
  NODE_TAINTS,
  /** A node's {@code status.declaredFeatures} changed. */
  NODE_DECLARED_FEATURES,
  /** A pod bound to a node was deleted, or finished: its node has room again. */
  ASSIGNED_POD_DELETED;

  /** Every change: what a filter that registers nothing in particular is retried on. */
  public static final Set<ClusterChange> ALL = Collections.unmodifiableSet(EnumSet.allOf(ClusterChange.class));

  /** @return the changes given, as an unmodifiable set */
  public static Set<ClusterChange> of(ClusterChange first, ClusterChange... rest) {
    return Collections.unmodifiableSet(EnumSet.of(first, rest));
  }
}
