package io.kubesched.informer;

import io.kubesched.binder.BindMode;
import io.kubesched.binder.TokenBucket;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link SchedulingLoop} runs.
 *
 * @param schedulerName the {@code spec.schedulerName} of the pods to place (the first profile's name), also
 *     used to name the controller's threads
 * @param bindMode how bindings are written (the fake cluster needs {@link BindMode#SET_NODE_NAME})
 * @param bindTimeout how long one binding request may take
 * @param initialBackoff how long a pod waits after its first failed attempt
 * @param maxBackoff the longest a pod waits between attempts
 * @param syncTimeout how long {@link SchedulingLoop#start()} waits for the first full list of nodes and pods
 * @param unschedulableTimeout the longest a pod that fits nowhere waits for a cluster event before it is
 *     tried again anyway (kube-scheduler's {@code podMaxInUnschedulablePodsDuration}, 5 minutes)
 * @param assumedPodTtl how long a pod whose binding succeeded may stay unconfirmed by the watch before the
 *     assumption is dropped and the pod tried again; {@link Duration#ZERO} for never
 * @param qps the sustained rate of writes to the API server (bindings, events, conditions), per second
 * @param burst how many writes may go at once before {@code qps} applies
 * @param parallelBindings how many bindings may be in flight at once
 * @param shutdownTimeout how long {@link SchedulingLoop#close()} waits for bindings in flight
 * @param leaderElection where and how to campaign; null schedules without leader election
 */
public record ControllerSettings(
    String schedulerName,
    BindMode bindMode,
    Duration bindTimeout,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration syncTimeout,
    Duration unschedulableTimeout,
    Duration assumedPodTtl,
    double qps,
    int burst,
    int parallelBindings,
    Duration shutdownTimeout,
    @Nullable LeaderSettings leaderElection) {

  /** kube-scheduler's {@code podMaxInUnschedulablePodsDuration}. */
  public static final Duration DEFAULT_UNSCHEDULABLE_TIMEOUT = Duration.ofMinutes(5);

  /** kube-scheduler's assumed-pod expiry before it stopped expiring them. */
  public static final Duration DEFAULT_ASSUMED_POD_TTL = Duration.ofMinutes(15);

  /** Bindings in flight at once by default. */
  public static final int DEFAULT_PARALLEL_BINDINGS = 16;

  /**
   * @throws IllegalArgumentException naming the setting and value, if the name is blank, a duration is not
   *     positive (the TTL may be zero), qps or burst or parallelBindings is not positive, or the maximum
   *     backoff is shorter than the initial one
   */
  public ControllerSettings {
    if (schedulerName.isBlank()) {
      throw new IllegalArgumentException("schedulerName must not be blank");
    }
    requirePositive("bindTimeout", bindTimeout);
    requirePositive("initialBackoff", initialBackoff);
    requirePositive("maxBackoff", maxBackoff);
    requirePositive("syncTimeout", syncTimeout);
    requirePositive("unschedulableTimeout", unschedulableTimeout);
    requirePositive("shutdownTimeout", shutdownTimeout);
    if (assumedPodTtl.isNegative()) {
      throw new IllegalArgumentException("assumedPodTtl must not be negative, was " + assumedPodTtl);
    }
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "maxBackoff " + maxBackoff + " must not be shorter than initialBackoff " + initialBackoff);
    }
    if (!(qps > 0) || Double.isInfinite(qps)) {
      throw new IllegalArgumentException("qps must be a positive number, was " + qps);
    }
    if (burst < 1) {
      throw new IllegalArgumentException("burst must be at least 1, was " + burst);
    }
    if (parallelBindings < 1) {
      throw new IllegalArgumentException("parallelBindings must be at least 1, was " + parallelBindings);
    }
  }

  /**
   * @return kube-scheduler's defaults for {@code schedulerName}: 30 s bind timeout, backoff from 1 s to 10 s,
   *     60 s to list, 5 min unschedulable timeout, 15 min assumed-pod TTL, 50 writes per second with bursts of
   *     100, 16 bindings in flight, 30 s to shut down, no leader election
   */
  public static ControllerSettings defaults(String schedulerName, BindMode bindMode) {
    return new ControllerSettings(
        schedulerName,
        bindMode,
        Duration.ofSeconds(30),
        Duration.ofSeconds(1),
        Duration.ofSeconds(10),
        Duration.ofSeconds(60),
        DEFAULT_UNSCHEDULABLE_TIMEOUT,
        DEFAULT_ASSUMED_POD_TTL,
        TokenBucket.DEFAULT_QPS,
        TokenBucket.DEFAULT_BURST,
        DEFAULT_PARALLEL_BINDINGS,
        Duration.ofSeconds(30),
        null);
  }

  /**
   * @return these settings for {@code name}; a lease named after the old scheduler name is named after the
   *     new one, a lease named explicitly keeps its name
   */
  public ControllerSettings withSchedulerName(String name) {
    var leader = leaderElection;
    if (leader != null && leader.lockName().equals(schedulerName)) {
      leader =
          new LeaderSettings(
              leader.lockNamespace(), name, leader.leaseDuration(), leader.renewDeadline(), leader.retryPeriod());
    }
    return new ControllerSettings(
        name,
        bindMode,
        bindTimeout,
        initialBackoff,
        maxBackoff,
        syncTimeout,
        unschedulableTimeout,
        assumedPodTtl,
        qps,
        burst,
        parallelBindings,
        shutdownTimeout,
        leader);
  }

  private static void requirePositive(String name, Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }
}
