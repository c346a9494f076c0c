package io.kubesched.e2e;

import io.kubesched.api.PodGroupRef;
import java.time.Duration;

/**
 * {@link GangScenarios} on the coscheduling plugin's PodGroups ({@code scheduling.x-k8s.io/v1alpha1}, the CRD
 * this project ships, pods naming their group with the label {@code scheduling.x-k8s.io/pod-group}), scheduled
 * by this library's {@code DefaultPolicy} as the restricted identity of the RBAC of docs/operations.md, one controller per
 * test. kube-scheduler does not read these groups: the expectations marked "both" are those {@link
 * GangKubeSchedulerIT} shows for the Workload API's.
 */
class GangCoschedulingIT extends GangScenarios {

  @Override
  PodGroupRef.Source source() {
    return PodGroupRef.Source.COSCHEDULING;
  }

  @Override
  String schedulerName() {
    return SCHEDULER;
  }

  @Override
  boolean ours() {
    return true;
  }

  @Override
  AutoCloseable startScheduler(Duration groupTimeout) {
    return startThisLibrary(groupTimeout);
  }
}
