package io.kubesched.samples.boot;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.Scorer;

/**
 * Prefers spot capacity: 100 for a node whose {@value #TIER} label is the pod's, 0 for any other, where a pod
 * without the label wants {@value #SPOT} (a pod labelled {@value #TIER}{@code =}{@value #ON_DEMAND} prefers
 * on-demand nodes instead). A preference only: the filters still decide where a pod fits. A pure function of
 * the pod and the node: called concurrently for different nodes.
 */
final class SpotNodes implements Scorer {

  /** The label that says which capacity a node is (and a pod wants). */
  static final String TIER = "tier";

  static final String SPOT = "spot";

  static final String ON_DEMAND = "on-demand";

  @Override
  public String name() {
    return "SpotNodes";
  }

  @Override
  public long score(PodInfo pod, NodeInfo node) {
    var wanted = pod.labels().getOrDefault(TIER, SPOT);
    return wanted.equals(node.labels().get(TIER)) ? MAX_SCORE : 0;
  }
}
