package io.kubesched.e2e;

import io.kubesched.facade.Controller;
import io.kubesched.policy.DefaultPolicy;

/**
 * {@link DraScenarios} scheduled by this library's {@link DefaultPolicy}, as the restricted identity of the RBAC of
 * docs/operations.md, one controller per test; the expectations are kube-scheduler 1.37.2's ({@link
 * DraKubeSchedulerIT}).
 */
class DraIT extends DraScenarios {

  @Override
  String schedulerName() {
    return SCHEDULER;
  }

  @Override
  AutoCloseable startScheduler() {
    Controller controller = client.newPodController(DefaultPolicy.builder().seed(13).build(), recorder);
    controller.start();
    return controller;
  }
}
