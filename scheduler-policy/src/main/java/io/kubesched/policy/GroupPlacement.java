package io.kubesched.policy;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodInfo;
import java.util.List;

/**
 * All or nothing for a pod group (kube-scheduler 1.37's pod group cycle, {@code scheduleOnePodGroup}): the
 * pending members are tried one after the other against one snapshot, each seeing the earlier ones that fit
 * ({@link ClusterSnapshot#withPodOn}); the group is placed only if at least its {@link PodGroup#minMember()}
 * fit, counting those placed before. Pure: it assumes nothing anywhere; the caller acts on the decision.
 */
public final class GroupPlacement {

  private GroupPlacement() {}

  /**
   * @param group the group
   * @param pending its members to place, in the order to try them
   * @param placed how many of its members are already assumed or bound (not in {@code pending})
   * @param snapshot the cluster, without the pending members
   * @param finder the profile's finder; called once per member tried, with preemption off ({@link
   *     FinderFunc#withoutPreemption()} is applied here)
   * @return the decision
   */
  public static GroupDecision place(
      PodGroup group, List<PodInfo> pending, int placed, ClusterSnapshot snapshot, FinderFunc finder) {
    throw new UnsupportedOperationException("issue 15: policy helper");
  }
}
