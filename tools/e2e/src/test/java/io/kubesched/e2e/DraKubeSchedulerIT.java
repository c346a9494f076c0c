package io.kubesched.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.testcluster.TestCluster;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link DraScenarios} scheduled by kube-scheduler 1.37.2, default profile, as admin: the reference whose
 * placements, allocations and messages the scenarios expect, so {@link DraIT} passing is the parity check.
 */
class DraKubeSchedulerIT extends DraScenarios {

  private static @Nullable KubeSchedulerProcess kubeScheduler;

  @BeforeAll
  static void startKubeScheduler(TestCluster cluster) throws Exception {
    kubeScheduler = KubeSchedulerProcess.startFor(cluster, "kube-scheduler-dra");
  }

  @AfterAll
  static void stopKubeScheduler() throws InterruptedException {
    if (kubeScheduler != null) {
      kubeScheduler.close();
      kubeScheduler = null;
    }
  }

  @Override
  String schedulerName() {
    return KubeSchedulerProcess.NAME;
  }

  @Override
  AutoCloseable startScheduler() {
    var process = Objects.requireNonNull(kubeScheduler);
    assertTrue(process.alive(), process::tail);
    return () -> assertTrue(process.alive(), process::tail);
  }
}
