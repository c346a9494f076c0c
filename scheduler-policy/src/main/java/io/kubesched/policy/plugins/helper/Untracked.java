package io.kubesched.policy.plugins.helper;

import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodInfo;
import io.kubesched.policy.framework.FilterResult;
import io.kubesched.policy.framework.PodTracking;

/**
 * The tracker of a prepared filter that kube-scheduler's PreFilter would have skipped: kube then calls neither
 * {@code AddPod}/{@code RemovePod} nor the filter, so this tracker fits every node and ignores the pods it is
 * told of. Stateless, so one may be shared.
 *
 * @param name the filter's name
 */
public record Untracked(String name) implements PodTracking.Tracker {

  @Override
  public FilterResult filter(PodInfo pod, NodeInfo node) {
    return FilterResult.fit();
  }

  @Override
  public void addPod(PodInfo pod, NodeInfo node) {
    // kube does not call AddPod for a plugin whose PreFilter was skipped
  }

  @Override
  public void removePod(PodInfo pod, NodeInfo node) {
    // kube does not call RemovePod for a plugin whose PreFilter was skipped
  }
}
