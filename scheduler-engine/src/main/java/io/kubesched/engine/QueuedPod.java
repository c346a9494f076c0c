package io.kubesched.engine;

import io.kubesched.api.MalformedObjectException;
import io.kubesched.api.PodInfo;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One pod waiting in the {@link SchedulingQueue}, and everything the scheduling loop keeps about it, as
 * kube-scheduler's {@code QueuedPodInfo}: the pod as the last update showed it (converted once, when the
 * update arrived) and the {@link Progress} of its attempts. When the queue forgets the pod (bound, deleted,
 * done), all of it goes at once: no other per-pod state exists.
 *
 * <p>The queue knows a pod by its {@code uid} alone: two values with the same uid are two versions of the
 * same pod. The queue keeps the pod fields of the latest version {@linkplain SchedulingQueue#add added} and
 * the {@link Progress} of the latest version its attempt {@linkplain SchedulingQueue#requeueAfterError
 * returned}: an update never resets the attempts, and an attempt never undoes an update.
 *
 * @param uid the pod's {@code metadata.uid}; not blank
 * @param namespace the pod's namespace; not null
 * @param name the pod's name; not blank
 * @param priority the pod's {@code spec.priority} (0 when it has none); higher is taken first
 * @param profile the scheduler profile the pod asks for ({@code spec.schedulerName}); opaque to the
 *     queue, carried for the scheduling cycle and for metrics; not null
 * @param gated whether the pod has {@code spec.schedulingGates}, or a {@code spec.resourceClaims} entry naming a
 *     template whose claim its status does not name yet: kube-scheduler's {@code SchedulingGates} and {@code
 *     DynamicResources} PreEnqueue plugins keep such a pod out of the queues it is taken from until its last gate is
 *     removed, or the resource claim controller has made its claims and named them in its status (an update of the
 *     pod either way, which ungates it without a backoff, as it was never tried)
 * @param info the pod as the policy sees it; null if it could not be read ({@code unreadable} says why), or
 *     where a test queues a pod by its identity only
 * @param unreadable why the pod could not be converted (a malformed quantity), or null
 * @param progress the pod's attempts so far; set by the queue and the scheduling loop, never by an update
 */
public record QueuedPod(
    String uid,
    String namespace,
    String name,
    int priority,
    String profile,
    boolean gated,
    @Nullable PodInfo info,
    @Nullable MalformedObjectException unreadable,
    Progress progress) {

  /**
   * What the loop learnt about a pod's attempts.
   *
   * @param attempts how often the pod was taken off the queue; 0 before the first time
   * @param initialAttemptNanos the {@link Ticker} time the pod was first taken; 0 before that
   * @param unconfirmedNode the node of a binding whose outcome is unknown (the request, or the read-back
   *     after a conflict, failed): if the watch later shows the pod there, the binding had landed; or null
   * @param lastMessage the last unschedulable message logged for the pod, so that a pod that keeps waiting
   *     for the same reason is logged once; or null
   */
  public record Progress(
      int attempts, long initialAttemptNanos, @Nullable String unconfirmedNode, @Nullable String lastMessage) {

    /** A pod never taken. */
    public static final Progress NONE = new Progress(0, 0, null, null);

    /** @return this progress with one attempt more, the first one starting at {@code nowNanos} */
    Progress attempted(long nowNanos) {
      return new Progress(attempts + 1, attempts == 0 ? nowNanos : initialAttemptNanos, unconfirmedNode, lastMessage);
    }

    /**
     * @return this progress without its last attempt, as it was before {@link #attempted}: for a pod taken
     *     and then parked, which was not tried
     */
    Progress unattempted() {
      if (attempts == 0) {
        return this;
      }
      int left = attempts - 1;
      return new Progress(left, left == 0 ? 0 : initialAttemptNanos, unconfirmedNode, lastMessage);
    }

    /** @return this progress with the node of a binding whose outcome is unknown */
    public Progress withUnconfirmedNode(@Nullable String node) {
      return new Progress(attempts, initialAttemptNanos, node, lastMessage);
    }

    /** @return this progress with the last unschedulable message logged */
    public Progress withLastMessage(@Nullable String message) {
      return new Progress(attempts, initialAttemptNanos, unconfirmedNode, message);
    }
  }

  /**
   * @throws IllegalArgumentException if uid or name is blank, namespace or profile is null, or info is of
   *     another uid
   */
  public QueuedPod {
    if (uid == null || uid.isBlank()) {
      throw new IllegalArgumentException("uid must not be blank: '" + uid + "'");
    }
    if (namespace == null) {
      throw new IllegalArgumentException("namespace must not be null (pod " + name + ")");
    }
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank: '" + name + "'");
    }
    if (profile == null) {
      throw new IllegalArgumentException("profile must not be null (pod " + namespace + "/" + name + ")");
    }
    Objects.requireNonNull(progress, "progress");
    if (info != null && !info.uid().equals(uid)) {
      throw new IllegalArgumentException(
          "info of pod " + namespace + "/" + name + " has uid " + info.uid() + ", not " + uid);
    }
  }

  /** A pod known by its identity only, never taken; validated as the canonical constructor. */
  public QueuedPod(String uid, String namespace, String name, int priority, String profile, boolean gated) {
    this(uid, namespace, name, priority, profile, gated, null, null, Progress.NONE);
  }

  /** As {@link #QueuedPod(String, String, String, int, String, boolean)}, without scheduling gates. */
  public QueuedPod(String uid, String namespace, String name, int priority, String profile) {
    this(uid, namespace, name, priority, profile, false);
  }

  /** @return the queue's item for a pod read from an update, never taken */
  public static QueuedPod of(PodInfo info) {
    return new QueuedPod(
        info.uid(),
        info.namespace(),
        info.name(),
        info.priority(),
        info.schedulerName(),
        !info.schedulingGates().isEmpty() || awaitsGeneratedClaim(info),
        info,
        null,
        Progress.NONE);
  }

  /**
   * Whether a claim of the pod is still to be made from its template. Before this gate such a pod was tried at once,
   * found its claim missing and waited out a backoff (1 s at first) after the controller's status update; kube
   * tries it only once the claim is named.
   */
  private static boolean awaitsGeneratedClaim(PodInfo info) {
    for (var claim : info.resourceClaims()) {
      if (claim.awaitsGeneratedClaim()) {
        return true;
      }
    }
    return false;
  }

  /** @return this pod with the given progress */
  public QueuedPod withProgress(Progress newProgress) {
    return new QueuedPod(uid, namespace, name, priority, profile, gated, info, unreadable, newProgress);
  }

  /**
   * @return this pod with another version of its {@link PodInfo}, every other field kept: for an update
   *     of the pod's status only, which changes neither its priority nor its gates
   */
  QueuedPod withInfo(PodInfo newInfo) {
    return new QueuedPod(uid, namespace, name, priority, profile, gated, newInfo, unreadable, progress);
  }

  /** @return {@code namespace/name} */
  public String key() {
    return namespace + "/" + name;
  }
}
