package io.kubesched.testkit;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One scheduling decision to make: a pending pod and the cluster to place it in.
 *
 * @param pod the pod to place, not bound to any node
 * @param cluster the nodes it may go to
 */
@API(status = MAINTAINED, since = "0.1.0")
public record Scenario(PodInfo pod, Cluster cluster) {

  /** @return the cluster's nodes, as a {@link io.kubesched.api.FinderFunc} receives them; unmodifiable */
  public List<NodeInfo> nodes() {
    return cluster.nodes();
  }
}
