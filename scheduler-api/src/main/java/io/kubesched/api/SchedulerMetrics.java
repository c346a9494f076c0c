package io.kubesched.api;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * What the scheduling loop tells about itself: each attempt and its result, how long the policy and the
 * bind took, and how many pods wait where. The calls sit where kube-scheduler measures (its {@code
 * schedule_one.go}), so an implementation can record them under kube-scheduler's metric names and they mean
 * the same; {@code io.kubesched:scheduler-micrometer} is one that does, into a Micrometer registry.
 *
 * <p>Every method has an empty default, so an implementation overrides only what it records; {@link #NONE}
 * records nothing.
 *
 * <p>Threads: the scheduling thread calls {@link #algorithm} and {@link #attempt}, the binding threads call
 * {@link #bound}, {@link #attempt} and {@link #scheduled}, all at the same time: implementations must be
 * thread-safe and quick, and must not block. A call that throws is logged and otherwise ignored.
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface SchedulerMetrics {

  /** Records nothing. */
  SchedulerMetrics NONE = new SchedulerMetrics() {};

  /** How one scheduling attempt ended: kube-scheduler's {@code result} label. */
  enum Result {
    /** The pod was bound to a node. */
    SCHEDULED,
    /** The policy found no node for the pod, or the pod uses a feature this library refuses. */
    UNSCHEDULABLE,
    /** Something failed that is not the pod's fault: the policy threw, or the bind failed. */
    ERROR;

    /** @return kube-scheduler's label for it: {@code scheduled}, {@code unschedulable} or {@code error} */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * How many pods wait where, at one instant: kube-scheduler's {@code scheduler_pending_pods} by queue.
   *
   * @param active pods ready to be tried now
   * @param backoff pods waiting out a backoff after a failed attempt
   * @param unschedulable pods that fit nowhere and wait for a cluster change (or the timeout)
   * @param gated pods with scheduling gates, not tried until the last one is removed
   */
  record PendingPods(int active, int backoff, int unschedulable, int gated) {

    /** @throws IllegalArgumentException if a count is negative */
    public PendingPods {
      if (active < 0 || backoff < 0 || unschedulable < 0 || gated < 0) {
        throw new IllegalArgumentException(
            "pending pod counts must not be negative: active=" + active + ", backoff=" + backoff
                + ", unschedulable=" + unschedulable + ", gated=" + gated);
      }
    }

    /** @return the pods waiting in any of the four queues */
    public int total() {
      return active + backoff + unschedulable + gated;
    }
  }

  /**
   * The policy ({@link FinderFunc}) call of one attempt took {@code took}. Called once per attempt that
   * reached the policy, whatever it decided.
   */
  default void algorithm(Duration took) {}

  /**
   * One scheduling attempt of a pod ended.
   *
   * @param profile the scheduler name the pod asked for; never blank
   * @param result how it ended; {@link Result#SCHEDULED} once the bind succeeded
   * @param took from taking the pod off the queue to the end of the attempt, bind included; never negative
   */
  default void attempt(String profile, Result result, Duration took) {}

  /**
   * A pod was bound: the end-to-end scheduling latency, kube-scheduler's SLI. Called after {@link #attempt}
   * with {@link Result#SCHEDULED}.
   *
   * @param attempts how many attempts it took, this one included; at least 1
   * @param sinceFirstQueued from the pod's first entry into the queue to the end of the bind
   */
  default void scheduled(int attempts, Duration sinceFirstQueued) {}

  /**
   * One bind call ended, whether it succeeded or not.
   *
   * @param profile the scheduler name the pod asked for; never blank
   * @param took how long the bind took
   * @param success whether the pod is now bound
   */
  default void bound(String profile, Duration took, boolean success) {}

  /**
   * Called once when a controller starts: {@code pending} reads the queue's counts whenever asked, from any
   * thread, cheaply. An implementation that exposes gauges keeps it until {@link #close()}.
   */
  default void pendingPods(Supplier<PendingPods> pending) {}

  /**
   * One attempt of a pod group ended (kube-scheduler's {@code podgroup_schedule_attempts_total} and
   * {@code podgroup_scheduling_attempt_duration_seconds}): {@link Result#SCHEDULED} when at least its minimum of
   * members fitted and were handed to binding, {@link Result#UNSCHEDULABLE} when they did not (nothing was
   * assumed), {@link Result#ERROR} when the group could not be tried (its members disagree on scheduler or
   * priority, or the policy threw).
   *
   * @param profile the scheduler name the members asked for; never blank
   * @param result how it ended
   * @param took from taking the group's first member off the queue to the end of the attempt
   */
  default void groupAttempt(String profile, Result result, Duration took) {}

  /**
   * A pod group waited longer than its timeout to be placed (once per group until it is placed or its object
   * changes); it goes on waiting.
   *
   * @param profile the scheduler name the members asked for; never blank
   */
  default void groupTimedOut(String profile) {}

  /**
   * How many pod groups wait, at one instant.
   *
   * @param waitingForMembers groups with fewer members than their minimum, or whose group object is not known
   *     yet: not tried
   * @param waitingToFit groups with enough members whose last attempt did not fit them
   */
  record PendingGroups(int waitingForMembers, int waitingToFit) {

    /** @throws IllegalArgumentException if a count is negative */
    public PendingGroups {
      if (waitingForMembers < 0 || waitingToFit < 0) {
        throw new IllegalArgumentException(
            "pending group counts must not be negative: waitingForMembers=" + waitingForMembers
                + ", waitingToFit=" + waitingToFit);
      }
    }
  }

  /**
   * Called once when a controller starts: {@code pending} reads the pod groups' counts whenever asked, from
   * any thread, cheaply. Kept until {@link #close()}, as {@link #pendingPods}.
   */
  default void pendingGroups(Supplier<PendingGroups> pending) {}

  /**
   * The controller stopped: forget the {@link #pendingPods} supplier (it would keep the stopped controller
   * alive and report its last state). Cumulative records (counts, latencies) may stay. Idempotent.
   */
  default void close() {}
}
