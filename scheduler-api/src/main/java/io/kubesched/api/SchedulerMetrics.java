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
 * <p>Threads: the scheduling thread calls {@link #algorithm}, {@link #attempt} and {@link #preemptionAttempt},
 * the binding threads call {@link #bound}, {@link #attempt} and {@link #scheduled}, the informers' threads and
 * the scheduling thread call {@link #queueIncoming} (under the queue's lock), the leader elector's threads
 * call {@link #leaderElection}, and every thread that talks to the API server calls {@link #request}, all at
 * the same time: implementations must be thread-safe and quick, and must not block. A call that throws is
 * logged and otherwise ignored.
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
   * The policy ran preemption for a pod that fits no node (kube-scheduler's PostFilter, counted in {@code
   * scheduler_preemption_attempts_total} whatever it found). Called on the scheduling thread, once per attempt
   * whose decision carries a preemption outcome.
   *
   * @param victims how many pods the chosen node's eviction takes ({@code scheduler_preemption_victims}); 0
   *     when preemption chose no node (the pod may not preempt, or no node would make room)
   */
  default void preemptionAttempt(int victims) {}

  /**
   * Pods entered one of the scheduling queue's sub-queues: kube-scheduler's {@code
   * scheduler_queue_incoming_pods_total}. Called under the queue's lock, on whichever thread moved them (an
   * informer's, the scheduling thread, the housekeeping thread), so it must be quick.
   *
   * @param queue where the pod went, kube-scheduler's label: {@code active}, {@code backoff} or {@code
   *     unschedulable} (which holds the pods with scheduling gates too, as kube-scheduler's does)
   * @param event why, kube-scheduler's label: a cluster event ({@code NodeAdd}, {@code AssignedPodDelete},
   *     ...) or one of the queue's own ({@code UnscheduledPodAdd}, {@code UnscheduledPodUpdate}, {@code
   *     ScheduleAttemptFailure}, {@code BackoffComplete}, {@code PopFromBackoffQ}, {@code UnschedulableTimeout},
   *     {@code ForceActivate})
   */
  default void queueIncoming(String queue, String event) {}

  /**
   * This process started or stopped leading {@code lease} (client-go's {@code leader_election_master_status}):
   * called with {@code false} when the elector starts, {@code true} once it holds the lease, {@code false}
   * when it loses or releases it. Called on the leader elector's threads.
   *
   * @param lease the lease's name, client-go's {@code name} label
   * @param leading whether this process holds it now
   */
  default void leaderElection(String lease, boolean leading) {}

  /**
   * One request to the API server ended (client-go's {@code rest_client_requests_total} and {@code
   * rest_client_request_duration_seconds}): every request of the library's own clients, the informers'
   * lists and watches, the lease, bindings, evictions, events and status writes. A retried request counts
   * once per try, as client-go counts its attempts. Called on the thread that saw the answer (the HTTP
   * client's, or a binding thread), for every request: it must cost next to nothing.
   *
   * @param method the HTTP method, {@code GET}, {@code POST}, ...
   * @param host the API server's {@code host:port}
   * @param code the HTTP status code, or {@code <error>} if no answer came (client-go's label)
   * @param took from sending the request to its answer's status line (for a watch, until it was opened)
   */
  default void request(String method, String host, String code, Duration took) {}

  /**
   * The controller stopped: forget the {@link #pendingPods} supplier (it would keep the stopped controller
   * alive and report its last state). Cumulative records (counts, latencies) may stay. Idempotent.
   */
  default void close() {}
}
