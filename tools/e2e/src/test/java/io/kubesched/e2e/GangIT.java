package io.kubesched.e2e;

import io.kubesched.api.PodGroupRef;
import java.time.Duration;

/**
 * {@link GangScenarios} on the Workload API's PodGroups ({@code scheduling.k8s.io/v1beta1}, pods naming their
 * group in {@code spec.schedulingGroup}), scheduled by this library's {@code DefaultPolicy} as the restricted
 * identity of the RBAC of docs/operations.md, one controller per test; the expectations marked "both" are kube-scheduler
 * 1.37.2's ({@link GangKubeSchedulerIT}).
 */
class GangIT extends GangScenarios {

  @Override
  PodGroupRef.Source source() {
    return PodGroupRef.Source.WORKLOAD_API;
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
