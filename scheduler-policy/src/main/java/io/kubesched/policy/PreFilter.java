package io.kubesched.policy;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.PodInfo;

/**
 * An optional capability of a {@link Filter} that computes something once per pod before any node is
 * filtered, as kube-scheduler's {@code PreFilter}: for example which topology domains hold pods that a pod's
 * anti-affinity terms select, so that no node's check has to look at every pod of the cluster.
 */
public interface PreFilter {

  /**
   * Called once per pod, from the scheduling thread, before any node is filtered.
   *
   * @param pod the pod to place
   * @param cluster the whole snapshot
   * @return the filter to use for this pod's nodes: a new object carrying what it computed (this filter is
   *     not changed). It may reject every node, for example when the pod's own rules cannot be met anywhere.
   */
  Filter prepare(PodInfo pod, ClusterSnapshot cluster);
}
