package io.kubesched.informer;

import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What the scheduling loop tells about itself: attempts and their outcome, how long the policy and the bind
 * took, and how many pods wait. The calls follow kube-scheduler's own measuring points (schedule_one.go), so
 * that the meters behind them can carry kube-scheduler's metric names and mean the same.
 *
 * <p>This interface names no Micrometer type on purpose: Micrometer is an optional dependency, and a
 * controller built without a meter registry uses {@link #NONE}, which never loads a Micrometer class. Use
 * {@link #of(Object)} to get one.
 *
 * <p>Implementations are thread-safe: the worker records attempts while bind threads record binds. Every
 * method validates its arguments the same way whether or not anything is recorded, so that a caller's
 * mistake shows without a registry too.
 */
interface SchedulerMetrics extends AutoCloseable {

  /** {@link #attempt} result: the pod was bound to a node. */
  String SCHEDULED = "scheduled";

  /** {@link #attempt} result: the policy found no node for the pod. */
  String UNSCHEDULABLE = "unschedulable";

  /** {@link #attempt} result: something failed that is not the pod's fault, a failed bind included. */
  String ERROR = "error";

  /** {@link #queueDepths} key: pods ready to be tried now. */
  String QUEUE_ACTIVE = "active";

  /** {@link #queueDepths} key: pods waiting out a backoff after a failed attempt. */
  String QUEUE_BACKOFF = "backoff";

  /** {@link #queueDepths} key: pods that were unschedulable and wait for a cluster change. */
  String QUEUE_UNSCHEDULABLE = "unschedulable";

  /** {@link #queueDepths} key: pods with scheduling gates, not tried until the last one is removed. */
  String QUEUE_GATED = "gated";

  /** Records nothing; loads no Micrometer class. Still validates its arguments. */
  SchedulerMetrics NONE =
      new SchedulerMetrics() {
        @Override
        public void algorithm(long nanos) {
          MetricsArguments.duration("algorithm duration", nanos);
        }

        @Override
        public void attempt(String profile, String result, long attemptNanos) {
          MetricsArguments.profile(profile);
          MetricsArguments.result(result);
          MetricsArguments.duration("attempt duration", attemptNanos);
        }

        @Override
        public void scheduled(int attempts, long sinceFirstQueuedNanos) {
          MetricsArguments.attempts(attempts);
          MetricsArguments.duration("time since first queued", sinceFirstQueuedNanos);
        }

        @Override
        public void bound(String profile, long bindNanos, boolean success) {
          MetricsArguments.profile(profile);
          MetricsArguments.duration("bind duration", bindNanos);
        }

        @Override
        public void queueDepths(Supplier<Map<String, Integer>> depths) {
          Objects.requireNonNull(depths, "depths");
        }

        @Override
        public void pendingPods(Supplier<Integer> pending) {
          Objects.requireNonNull(pending, "pending");
        }

        @Override
        public void close() {}

        @Override
        public String toString() {
          return "SchedulerMetrics.NONE";
        }
      };

  /**
   * The metrics for a controller.
   *
   * @param registry a {@code io.micrometer.core.instrument.MeterRegistry} to record into, or {@code null}
   *     for none. Typed {@code Object} so that callers compile and run without Micrometer; Micrometer
   *     classes are loaded only when this is non-null. On the module path the application that made the
   *     registry reads {@code micrometer.core}, which is what resolves that module for this one.
   * @return {@link #NONE} for {@code null}, else metrics that record into {@code registry}
   * @throws IllegalArgumentException if {@code registry} is not a Micrometer {@code MeterRegistry}
   * @throws IllegalStateException if {@code registry} is non-null but Micrometer cannot be loaded
   */
  static SchedulerMetrics of(@Nullable Object registry) {
    if (registry == null) {
      return NONE;
    }
    try {
      return MicrometerMetrics.over(registry);
    } catch (NoClassDefFoundError e) {
      throw new IllegalStateException(
          "a meter registry was given ("
              + registry.getClass().getName()
              + ") but Micrometer (micrometer-core) cannot be loaded",
          e);
    }
  }

  /**
   * The policy ({@code FinderFunc}) call of one attempt took {@code nanos}. Called once per attempt that
   * reached the policy, whatever it decided; not called when the attempt failed before it.
   *
   * @throws IllegalArgumentException if {@code nanos} is negative
   */
  void algorithm(long nanos);

  /**
   * One scheduling attempt of a pod ended.
   *
   * @param profile the scheduler name the pod asked for; not blank
   * @param result {@link #SCHEDULED} once the bind succeeded, {@link #UNSCHEDULABLE} when no node fits,
   *     {@link #ERROR} for any other failure (a failed bind included)
   * @param attemptNanos from taking the pod off the queue to the end of this attempt, bind included
   * @throws IllegalArgumentException if {@code profile} is blank, {@code result} is none of the three, or
   *     {@code attemptNanos} is negative
   */
  void attempt(String profile, String result, long attemptNanos);

  /**
   * A pod was bound: the end-to-end scheduling latency. Called after {@link #attempt} with
   * {@link #SCHEDULED}. Not per profile, as in kube-scheduler.
   *
   * @param attempts how many attempts it took, this one included; at least 1
   * @param sinceFirstQueuedNanos from the pod's first entry into the queue to the end of the bind
   * @throws IllegalArgumentException if {@code attempts} is below 1 or the duration is negative
   */
  void scheduled(int attempts, long sinceFirstQueuedNanos);

  /**
   * One bind call ended.
   *
   * @param profile the scheduler name the pod asked for; not blank
   * @param bindNanos how long the bind took, whether it succeeded or not
   * @param success whether the pod is now bound
   * @throws IllegalArgumentException if {@code profile} is blank or {@code bindNanos} is negative
   */
  void bound(String profile, long bindNanos, boolean success);

  /**
   * Registers the gauges of the queue: one per {@link #QUEUE_ACTIVE}, {@link #QUEUE_BACKOFF},
   * {@link #QUEUE_UNSCHEDULABLE} and {@link #QUEUE_GATED}. Each reads {@code depths} whenever the registry is read, on the reader's
   * thread, so it must be cheap and thread-safe; a key missing from the map reads as 0, other keys are
   * ignored. Call once.
   *
   * @throws IllegalStateException if queue gauges were registered already, by this or another controller
   *     on the same registry that has not been closed
   */
  void queueDepths(Supplier<Map<String, Integer>> depths);

  /**
   * Registers the gauge of all pods this scheduler still has to place, wherever they wait. {@code pending}
   * is read as in {@link #queueDepths}. Call once.
   *
   * @throws IllegalStateException if the gauge was registered already, as in {@link #queueDepths}
   */
  void pendingPods(Supplier<Integer> pending);

  /**
   * Unregisters the gauges, whose suppliers would otherwise keep a stopped controller alive and report its
   * last state. Counters and timers stay: they are cumulative and a new controller carries them on.
   * Idempotent.
   */
  @Override
  void close();
}
