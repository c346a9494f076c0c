package io.kubesched.testkit;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.List;

/**
 * One scheduling decision to make: a pending pod and the cluster to place it in.
 *
 * @param pod the pod to place, not bound to any node
 * @param cluster the nodes it may go to
 */
public record Scenario(PodInfo pod, Cluster cluster) {

  /** @return the cluster's nodes, as a {@link io.kubesched.api.FinderFunc} receives them; unmodifiable */
  public List<NodeInfo> nodes() {
    return cluster.nodes();
  }
}
