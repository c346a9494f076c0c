package io.kubesched.policy.config;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A KubeSchedulerConfiguration's {@code leaderElection}, defaulted as kube-scheduler does: on, a Lease named
 * {@code kube-scheduler} in {@code kube-system}, held 15 s, renewed within 10 s, retried every 2 s.
 *
 * <p>A second scheduler must not keep these defaults' lease name: a Lease is one leader's, so this scheduler and the
 * cluster's kube-scheduler would take turns rather than run side by side. Set {@code resourceName} (and
 * probably {@code resourceNamespace}) in the file.
 *
 * @param leaderElect whether to campaign before scheduling
 * @param leaseDuration how long a leader's lease lasts without renewal
 * @param renewDeadline how long the leader tries to renew before it gives up leading
 * @param retryPeriod how long candidates wait between tries
 * @param resourceLock the kind of lock: {@code leases}, the only one kube-scheduler 1.37 accepts when electing
 * @param resourceName the Lease's name
 * @param resourceNamespace the Lease's namespace
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record LeaderElectionSettings(
    boolean leaderElect,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod,
    String resourceLock,
    String resourceName,
    String resourceNamespace) {

  /** kube-scheduler's defaults. */
  public static final LeaderElectionSettings DEFAULT =
      new LeaderElectionSettings(
          true, Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2), "leases", "kube-scheduler",
          "kube-system");

  /** Checks that no component is null. */
  public LeaderElectionSettings {
    Objects.requireNonNull(leaseDuration, "leaseDuration");
    Objects.requireNonNull(renewDeadline, "renewDeadline");
    Objects.requireNonNull(retryPeriod, "retryPeriod");
    Objects.requireNonNull(resourceLock, "resourceLock");
    Objects.requireNonNull(resourceName, "resourceName");
    Objects.requireNonNull(resourceNamespace, "resourceNamespace");
  }
}
