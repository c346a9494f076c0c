package io.kubesched.e2e;

import io.kubesched.facade.Controller;
import io.kubesched.policy.DefaultPolicy;

/**
 * {@link PreemptionScenarios} scheduled by this library's {@link DefaultPolicy} (preemption on), running as
 * the restricted identity of the RBAC of docs/operations.md, one controller per test; the expectations are kube-scheduler
 * 1.37.2's ({@link PreemptionKubeSchedulerIT}).
 */
class PreemptionIT extends PreemptionScenarios {

  @Override
  String schedulerName() {
    return SCHEDULER;
  }

  /** The binder's {@code SchedulingReporter.preempted} names the preemptor, as kube-scheduler means to. */
  @Override
  boolean preemptedEventNamesPreemptor() {
    return true;
  }

  @Override
  AutoCloseable startScheduler() {
    Controller controller = client.newPodController(DefaultPolicy.builder().seed(13).build(), recorder);
    controller.start();
    return controller;
  }
}
