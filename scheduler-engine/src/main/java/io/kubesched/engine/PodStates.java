package io.kubesched.engine;

import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Every pod the {@link SchedulerCache} knows, by uid, as kube-scheduler's {@code podStates} and {@code
 * assumedPods}: bound pods as the pod watch shows them, and assumed pods with their expiry deadlines. An
 * assumption expires only once its binding finished and its deadline passed; a confirmed one never does.
 * Which node a pod counts on is the {@link NodeList}'s business: the cache keeps the two in step. Every pod
 * known counts as placed for its {@linkplain PodInfo#podGroup() pod group}, if any: the count per group is
 * kept on every change (kube's {@code ScheduledPodsCount}), so that reading it costs one lookup.
 *
 * <p>Not thread-safe: guarded by the cache's lock. Time is handed in, never read here.
 */
final class PodStates {

  /** What is known of one pod. */
  static final class State {
    /** The pod, with {@link PodInfo#nodeName()} the node it counts on. */
    private PodInfo pod;

    private boolean assumed;
    private boolean bindingFinished;
    private long deadline;

    private State(PodInfo pod, boolean assumed) {
      this.pod = pod;
      this.assumed = assumed;
    }

    /** @return the pod as counted, with the node it counts on as its node name */
    PodInfo pod() {
      return pod;
    }

    /** @return whether the pod is assumed and not yet confirmed */
    boolean isAssumed() {
      return assumed;
    }
  }

  /** How long a finished binding's assumption lives unconfirmed, in nanoseconds; 0 means forever. */
  private final long assumedTtlNanos;

  private final Map<String, State> pods = new HashMap<>();

  /** The assumed subset of {@link #pods}, in the order they were assumed. */
  private final LinkedHashMap<String, State> assumed = new LinkedHashMap<>();

  /** How many of {@link #pods} name each pod group; a group with none has no key. */
  private final Map<PodGroupRef, Integer> placedByGroup = new HashMap<>();

  /** @param assumedTtlNanos how long an assumption lives after its binding finished; 0 keeps it forever */
  PodStates(long assumedTtlNanos) {
    this.assumedTtlNanos = assumedTtlNanos;
  }

  /** @return whether assumptions ever expire (the TTL is not 0) */
  boolean expires() {
    return assumedTtlNanos != 0;
  }

  /** @return what is known of the pod of this uid, or null if it is unknown */
  @Nullable State get(String uid) {
    return pods.get(uid);
  }

  /** Records a pod whose uid is unknown, bound ({@code assumed} false) or assumed. */
  void add(PodInfo pod, boolean assumed) {
    var state = new State(pod, assumed);
    pods.put(pod.uid(), state);
    count(pod, 1);
    if (assumed) {
      this.assumed.put(pod.uid(), state);
    }
  }

  /** Replaces a known pod by the same pod (same uid) as the pod watch now shows it. */
  void replace(State state, PodInfo next) {
    count(state.pod, -1);
    state.pod = next;
    count(next, 1);
  }

  /** Confirms the pod bound, if it was assumed: from now it never expires. */
  void confirm(State state) {
    if (state.assumed) {
      state.assumed = false;
      assumed.remove(state.pod.uid());
    }
  }

  /**
   * Forgets the pod of this uid, bound or assumed.
   *
   * @return the pod as it was counted, or null if it was unknown
   */
  @Nullable PodInfo remove(String uid) {
    var state = pods.remove(uid);
    if (state == null) {
      return null;
    }
    assumed.remove(uid);
    count(state.pod, -1);
    return state.pod;
  }

  /**
   * Forgets the pod of this uid if it is assumed; a bound pod stays.
   *
   * @return the pod as it was counted, or null if it was not assumed
   */
  @Nullable PodInfo forget(String uid) {
    return assumed.containsKey(uid) ? remove(uid) : null;
  }

  /**
   * Forgets every bound pod whose uid is not in {@code uids}; assumed pods stay.
   *
   * @return the pods forgotten, as they were counted
   */
  List<PodInfo> retainBound(Set<String> uids) {
    var dropped = new ArrayList<PodInfo>();
    var it = pods.values().iterator();
    while (it.hasNext()) {
      var state = it.next();
      if (!state.assumed && !uids.contains(state.pod.uid())) {
        it.remove();
        count(state.pod, -1);
        dropped.add(state.pod);
      }
    }
    return dropped;
  }

  /**
   * Starts (or restarts) the wait of an assumed pod whose binding call returned.
   *
   * @param now the ticker's time now
   * @return whether the pod is assumed (if not, nothing changed)
   */
  boolean finishBinding(String uid, long now) {
    var state = assumed.get(uid);
    if (state == null) {
      return false;
    }
    state.bindingFinished = true;
    state.deadline = now + assumedTtlNanos;
    return true;
  }

  /**
   * Forgets every assumed pod whose binding finished and whose deadline is passed at {@code now} (not
   * merely reached). Times are compared as differences, so that a ticker wrapping around is no matter.
   *
   * @param now the ticker's time now
   * @return the pods forgotten, as they were counted, in the order they were assumed
   */
  List<PodInfo> expire(long now) {
    if (!expires()) {
      return List.of();
    }
    var expired = new ArrayList<PodInfo>();
    var it = assumed.values().iterator();
    while (it.hasNext()) {
      var state = it.next();
      if (state.bindingFinished && now - state.deadline > 0) {
        it.remove();
        pods.remove(state.pod.uid());
        count(state.pod, -1);
        expired.add(state.pod);
      }
    }
    return expired;
  }

  /** @return whether the pod of this uid is assumed and not yet confirmed */
  boolean isAssumed(String uid) {
    return assumed.containsKey(uid);
  }

  /** @return how many pods are known, bound or assumed */
  int size() {
    return pods.size();
  }

  /** @return how many pods are assumed and not yet confirmed */
  int assumedCount() {
    return assumed.size();
  }

  /** @return how many known pods, bound or assumed, name {@code group} as their pod group */
  int placedMembers(PodGroupRef group) {
    return placedByGroup.getOrDefault(group, 0);
  }

  /** Counts {@code pod} once more ({@code delta} 1) or once less (-1) for its pod group, if it has one. */
  private void count(PodInfo pod, int delta) {
    var group = pod.podGroup();
    if (group.isPresent()) {
      placedByGroup.merge(group.get(), delta, (a, b) -> a + b == 0 ? null : a + b);
    }
  }
}
