package io.kubesched.policy.framework;

import static org.apiguardian.api.API.Status.MAINTAINED;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import java.util.List;
import org.apiguardian.api.API;

/**
 * An optional capability of a {@link Scorer} that needs to see the whole cluster, or all feasible nodes,
 * before it scores a node, as kube-scheduler's {@code PreScore}: for example how many nodes hold an image, or
 * how many matching pods each topology domain of the feasible nodes runs.
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface PreScorer {

  /**
   * Called once per pod, from the scheduling thread, before any node is scored.
   *
   * @param pod the pod to place
   * @param feasibleNodes the nodes every filter accepted, in the order they will be scored
   * @param cluster the whole snapshot, feasible nodes or not
   * @return the scorer to use for this pod's feasible nodes: a new object carrying what it computed (this
   *     scorer is not changed)
   */
  Scorer prepare(PodInfo pod, List<NodeInfo> feasibleNodes, ClusterSnapshot cluster);
}
