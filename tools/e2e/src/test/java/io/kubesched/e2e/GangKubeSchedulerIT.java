package io.kubesched.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.PodGroupRef;
import io.kubesched.testcluster.TestCluster;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link GangScenarios} on the Workload API's PodGroups scheduled by kube-scheduler of the test cluster's
 * Kubernetes version (1.37.2), default profile, as admin, with {@code --feature-gates=GenericWorkload=true} (its
 * {@code GangScheduling} plugin and pod group queueing are on only then; the API server serves the PodGroups by
 * default in this suite): the reference for the expectations marked "both", kept as a check of the scenarios
 * themselves. One process serves the whole class ({@link KubeSchedulerProcess}).
 */
class GangKubeSchedulerIT extends GangScenarios {

  private static @Nullable KubeSchedulerProcess kubeScheduler;

  @BeforeAll
  static void startKubeScheduler(TestCluster cluster) throws Exception {
    kubeScheduler =
        KubeSchedulerProcess.startFor(cluster, "kube-scheduler-gang", "--feature-gates=GenericWorkload=true");
  }

  @AfterAll
  static void stopKubeScheduler() throws InterruptedException {
    if (kubeScheduler != null) {
      kubeScheduler.close();
      kubeScheduler = null;
    }
  }

  @Override
  PodGroupRef.Source source() {
    return PodGroupRef.Source.WORKLOAD_API;
  }

  @Override
  String schedulerName() {
    return KubeSchedulerProcess.NAME;
  }

  @Override
  boolean ours() {
    return false;
  }

  /** The process runs for the whole class; each test only checks it is still alive, and again at its end. */
  @Override
  AutoCloseable startScheduler(Duration groupTimeout) {
    var process = Objects.requireNonNull(kubeScheduler);
    assertTrue(process.alive(), process::tail);
    return () -> assertTrue(process.alive(), process::tail);
  }
}
