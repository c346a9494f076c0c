package io.kubesched.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.testcluster.TestCluster;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link PreemptionScenarios} scheduled by kube-scheduler of the test cluster's Kubernetes version (1.37.2),
 * default profile, as admin: the reference whose messages and choices the scenarios expect, kept as a parity
 * check of the scenarios themselves. One process serves the whole class ({@link KubeSchedulerProcess}, built by
 * {@code tools/test-cluster/cluster.sh build-scheduler} on first use).
 */
class PreemptionKubeSchedulerIT extends PreemptionScenarios {

  private static @Nullable KubeSchedulerProcess kubeScheduler;

  @BeforeAll
  static void startKubeScheduler(TestCluster cluster) throws Exception {
    kubeScheduler = KubeSchedulerProcess.startFor(cluster, "kube-scheduler-preemption");
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

  /** 1.37.2's executor passes its preemptor wrapper, not the pod, as the event's related object: none is written. */
  @Override
  boolean preemptedEventNamesPreemptor() {
    return false;
  }

  /** The process runs for the whole class; each test only checks it is still alive, and again at its end. */
  @Override
  AutoCloseable startScheduler() {
    var process = Objects.requireNonNull(kubeScheduler);
    assertTrue(process.alive(), process::tail);
    return () -> assertTrue(process.alive(), process::tail);
  }
}
