package io.kubesched.policy.plugins.serviceaffinity;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.PodInfo;
import io.kubesched.api.WorkloadSelector;
import java.util.ArrayList;
import java.util.List;

/** kube-scheduler's {@code helper.GetPodServices}: the Services of a pod's namespace that select the pod. */
final class PodServices {

  private PodServices() {}

  /**
   * @return the Services in {@code pod}'s namespace whose selector matches the pod's labels, in the snapshot's
   *     order (a Service without a selector is not in the snapshot: it selects nothing, as kube has it)
   */
  static List<WorkloadSelector> of(PodInfo pod, ClusterSnapshot cluster) {
    var services = new ArrayList<WorkloadSelector>();
    for (var workload : cluster.workloadsIn(pod.namespace())) {
      if (workload.kind() == WorkloadSelector.Kind.SERVICE && workload.selector().matches(pod.labels())) {
        services.add(workload);
      }
    }
    return services;
  }
}
