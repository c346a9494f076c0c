package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import org.apiguardian.api.API;

/**
 * An optional capability of the filter a {@link PreFilter} prepares for one pod when its state depends on pods
 * of other nodes (inter-pod affinity, topology spreading, {@code ReadWriteOncePod} claims): a private copy that
 * can be told of pods added or removed, as kube-scheduler's PreFilter extensions {@code AddPod}/{@code
 * RemovePod} update a cloned cycle state. Preemption asks for one copy per node it evaluates, removes the
 * potential victims from it and adds back those it spares; a decision adds the nominated pods of higher
 * priority to it.
 *
 * <p>Filters whose verdict depends only on the node they are given need no such capability: the node itself
 * is handed over with the pods added or removed ({@link NodeInfo#withPod}, {@link NodeInfo#withoutPod}).
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface PodTracking {

  /**
   * Called for each node that has nominated pods to add, concurrently for different nodes when the policy
   * {@linkplain io.kubesched.policy.Policy#withParallelism shares its node loop out}: it must only read this filter's
   * state.
   *
   * @return a new tracker starting from this filter's prepared state; changes to it never reach this filter or
   *     other trackers
   */
  Tracker track();

  /**
   * A mutable copy of a prepared filter. Confined to the thread that made it (the one filtering the node it
   * was made for); never shared.
   */
  interface Tracker extends Filter {

    /**
     * Counts {@code pod} as placed on {@code node}.
     *
     * @param pod the pod added
     * @param node the node it is on, as the filter will be given it (with the pod)
     */
    void addPod(PodInfo pod, NodeInfo node);

    /**
     * Counts {@code pod} as gone from {@code node}.
     *
     * @param pod the pod removed
     * @param node the node it was on
     */
    void removePod(PodInfo pod, NodeInfo node);
  }
}
