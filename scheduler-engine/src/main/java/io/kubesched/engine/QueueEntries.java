package io.kubesched.engine;

import io.kubesched.api.Nominations;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link SchedulingQueue} holds, without its lock, as kube-scheduler's {@code PriorityQueue} minus
 * its locking and waiting: one {@link QueueEntry} per known pod uid, in one of the sub-queues ({@link
 * ActiveQueue}, {@link BackoffQueue}, {@link UnschedulablePods}, {@link GatedPods}, {@link HeldPods}, {@link
 * ParkedPods}) or in flight, and every move between them, with the {@link MoveRequests} that decide where a
 * failed attempt goes; the known entries of each pod group, wherever they are, so that a group's operations
 * look at its members only; and kube's nominator, the {@link Nominations} of the known pods. The queue's
 * Javadoc states what each move does; this class does it.
 *
 * <p>Guarded by the {@link SchedulingQueue}'s lock; not thread-safe on its own, except {@link
 * #nominations()}, which any thread may read. Methods that change what {@link SchedulingQueue#take()} may
 * hand out or when say so in their result, so that the queue wakes its waiters. Time comes only from the
 * ticker, as elapsed nanos since construction.
 */
final class QueueEntries {

  // kube-scheduler's labels of scheduler_queue_incoming_pods_total: its queues, and its queue's own events
  // (framework/events.go) beside the cluster events' labels.
  static final String ACTIVE = "active";
  static final String BACKOFF = "backoff";
  static final String UNSCHEDULABLE = "unschedulable";
  static final String UNSCHEDULED_POD_ADD = "UnscheduledPodAdd";
  static final String UNSCHEDULED_POD_UPDATE = "UnscheduledPodUpdate";
  static final String SCHEDULE_ATTEMPT_FAILURE = "ScheduleAttemptFailure";
  static final String BACKOFF_COMPLETE = "BackoffComplete";
  static final String POP_FROM_BACKOFF_Q = "PopFromBackoffQ";
  static final String FORCE_ACTIVATE = "ForceActivate";
  static final String UNSCHEDULABLE_TIMEOUT = ClusterEvent.UNSCHEDULABLE_TIMEOUT.label();

  private final Ticker ticker;
  private final long origin;
  private final Map<String, QueueEntry> entries = new HashMap<>();
  private final ActiveQueue activeQ;
  private final BackoffQueue backoffQ;
  private final UnschedulablePods unschedulablePods;
  private final GatedPods gatedPods = new GatedPods();
  private final HeldPods heldPods = new HeldPods();
  private final ParkedPods parkedPods = new ParkedPods();
  /**
   * The known entries (waiting or in flight) whose pod, as the queue keeps it, names each pod group; a group
   * without any has no key.
   */
  private final Map<PodGroupRef, Set<QueueEntry>> groups = new HashMap<>();
  private final MoveRequests moveRequests = new MoveRequests();
  /**
   * The nominated pods among the known ones, none bound: replaced, never changed, under the lock, so that
   * readers take the current value without it.
   */
  private volatile Nominations nominations = Nominations.NONE;
  private long arrivals;
  private boolean closed;
  /** Told of every pod entering active, backoff or unschedulable (gated and held pods count as unschedulable). */
  private final SchedulerMetrics metrics;

  /** As {@link SchedulingQueue}'s constructor; the durations were validated where the user set them. */
  QueueEntries(
      Ticker ticker,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration maxInUnschedulable,
      SchedulerMetrics metrics) {
    assert positive(initialBackoff) && positive(maxInUnschedulable) && maxBackoff.compareTo(initialBackoff) >= 0
        : "backoff " + initialBackoff + ".." + maxBackoff + ", unschedulable " + maxInUnschedulable;
    this.ticker = ticker;
    this.metrics = metrics;
    this.activeQ = new ActiveQueue(ticker);
    this.backoffQ = new BackoffQueue(initialBackoff.toNanos(), maxBackoff.toNanos());
    this.unschedulablePods = new UnschedulablePods(maxInUnschedulable.toNanos());
    // Elapsed time from here on cannot overflow, whatever origin the ticker has.
    this.origin = ticker.nanoTime();
  }

  /** @return the elapsed nanos since construction */
  long now() {
    return ticker.nanoTime() - origin;
  }

  boolean isClosed() {
    return closed;
  }

  /** From now on nothing is accepted and nothing handed out. */
  void close() {
    closed = true;
  }

  /**
   * As {@link SchedulingQueue#add}.
   *
   * @return false if closed, and nothing changed
   */
  boolean add(QueuedPod pod) {
    if (closed) {
      return false;
    }
    long now = now();
    var entry = entries.get(pod.uid());
    var previous = entry == null ? null : entry.pod.info();
    // Before the pod can be handed out, as kube does, though the lock makes it moot here.
    renominate(pod.uid(), previous, pod.info());
    if (entry == null) {
      entry = new QueueEntry(pod);
      stamp(entry, now);
      entries.put(pod.uid(), entry);
      join(entry);
      if (pod.gated()) {
        toGated(entry, UNSCHEDULED_POD_ADD);
      } else {
        toActive(entry, UNSCHEDULED_POD_ADD);
      }
    } else if (entry.place == QueueEntry.Place.IN_FLIGHT) {
      replace(entry, pod.withProgress(entry.pod.progress()));
      entry.updatedInFlight = true;
    } else if (entry.place == QueueEntry.Place.HELD) {
      // Sorted by arrival only, so it can change in place. An ungated version would move (see below).
      replace(entry, pod.withProgress(entry.pod.progress()));
      entry.moveSuppressed |= !pod.gated();
      return false;
    } else {
      var was = entry.place;
      leave(entry);
      replace(entry, pod.withProgress(entry.pod.progress()));
      if (pod.gated()) {
        toGated(entry, UNSCHEDULED_POD_UPDATE);
      } else if (was == QueueEntry.Place.PARKED) {
        // Not an attempt, so no backoff to wait out; if the group is still incomplete the loop parks it again.
        toActive(entry, UNSCHEDULED_POD_UPDATE);
      } else if (was == QueueEntry.Place.ACTIVE || was == QueueEntry.Place.BACKOFF) {
        // Stays where it was; active re-sorts it by its new priority.
        (was == QueueEntry.Place.ACTIVE ? activeQ : backoffQ).add(entry);
      } else {
        toActiveOrBackoff(entry, now, UNSCHEDULED_POD_UPDATE);
      }
    }
    return true;
  }

  /**
   * Moves what is due at {@code now}, then hands out the head of active; if active is empty, the first pod
   * of backoff whose backoff counts attempts that found no node, however much of it is left (kube's
   * {@code SchedulerPopFromBackoffQ}: an idle scheduler retries it rather than wait).
   *
   * @return the pod handed out, or null if there is none to hand out or the queue is closed
   */
  @Nullable QueuedPod pop(long now) {
    if (closed) {
      return null;
    }
    flush(now);
    var pod = activeQ.pop();
    if (pod == null) {
      var early = backoffQ.pollUnschedulable();
      if (early != null) {
        activeQ.startCycle();
        metrics.queueIncoming(ACTIVE, POP_FROM_BACKOFF_Q);
        pod = activeQ.handOut(early);
      }
    }
    return pod;
  }

  /**
   * As {@link SchedulingQueue#flush()}, at {@code now}.
   *
   * @return how many pods moved
   */
  int flush(long now) {
    if (closed) {
      return 0;
    }
    int moved = 0;
    for (var entry = unschedulablePods.pollOverdue(now); entry != null; entry = unschedulablePods.pollOverdue(now)) {
      toActiveOrBackoff(entry, now, UNSCHEDULABLE_TIMEOUT);
      moved++;
    }
    for (var entry = backoffQ.pollCompleted(now); entry != null; entry = backoffQ.pollCompleted(now)) {
      toActive(entry, BACKOFF_COMPLETE);
      moved++;
    }
    return moved;
  }

  /** @return the elapsed nanos at which the next backoff or unschedulable wait ends, or Long.MAX_VALUE */
  long nextDue() {
    return Math.min(backoffQ.nextDue(), unschedulablePods.nextDue());
  }

  long schedulingCycle() {
    return activeQ.schedulingCycle();
  }

  /** As {@link SchedulingQueue#requeueUnschedulable(QueuedPod, long, QueueingHint)}. */
  boolean requeueUnschedulable(QueuedPod pod, long cycleAtTake, QueueingHint hint) {
    long cycle = activeQ.schedulingCycle();
    if (cycleAtTake < 0 || cycleAtTake > cycle) {
      throw new IllegalArgumentException(
          "cycleAtTake " + cycleAtTake + " is not a scheduling cycle started so far (0.." + cycle + ")");
    }
    return requeue(pod, entry -> {
      entry.unschedulableAttempts++;
      entry.consecutiveErrors = 0;
      entry.hint = hint;
      return moveRequests.missedBy(entry, cycleAtTake);
    });
  }

  /** As {@link SchedulingQueue#requeueAfterError}. */
  boolean requeueAfterError(QueuedPod pod) {
    return requeue(pod, entry -> {
      entry.consecutiveErrors++;
      return true;
    });
  }

  /**
   * Forgets a pod wherever it is. An entry in flight is in no sub-queue; dropping it is what makes a later
   * requeue a no-op.
   *
   * @return its entry, or null if the pod was not known
   */
  @Nullable QueueEntry remove(String uid) {
    var entry = entries.remove(uid);
    if (entry != null) {
      leave(entry);
      quit(entry);
    }
    nominations = nominations.without(uid);
    return entry;
  }

  /**
   * As the queue's {@code move…} methods: records the event for the pods in flight, then moves the
   * unschedulable pods it may help.
   *
   * @param onlyWaitingForPods whether only pods whose hint waits for bound pods are looked at
   * @param clusterChange whether the event is a cluster change (else an event about bound pods)
   * @return how many pods moved
   */
  int move(
      String event, boolean onlyWaitingForPods, BiPredicate<QueuedPod, QueueingHint> helps, boolean clusterChange) {
    if (closed) {
      return 0;
    }
    moveRequests.event(activeQ.schedulingCycle(), onlyWaitingForPods, clusterChange, helps);
    return moveWaiting(event, onlyWaitingForPods, helps);
  }

  /**
   * As {@link SchedulingQueue#moveProfile}: the profile's pods in flight count as updated, so that a failed
   * attempt of theirs goes to backoff whatever its hint; then its unschedulable pods move, whatever their hint.
   *
   * @return how many pods moved
   */
  int moveProfile(String event, String profile) {
    if (closed) {
      return 0;
    }
    for (var entry : entries.values()) {
      if (entry.place == QueueEntry.Place.IN_FLIGHT && entry.pod.profile().equals(profile)) {
        entry.updatedInFlight = true;
      }
    }
    return moveWaiting(event, false, (pod, hint) -> pod.profile().equals(profile));
  }

  /** Moves the unschedulable pods {@code helps} picks, and remembers the move of the held ones it picks. */
  private int moveWaiting(String event, boolean onlyWaitingForPods, BiPredicate<QueuedPod, QueueingHint> helps) {
    heldPods.suppressMoves(onlyWaitingForPods, helps);
    var moving = unschedulablePods.removeIf(onlyWaitingForPods, helps);
    if (!moving.isEmpty()) {
      long now = now();
      moving.forEach(entry -> toActiveOrBackoff(entry, now, event));
    }
    return moving.size();
  }

  /** As {@link SchedulingQueue#depths()}: held pods count as unschedulable, parked ones as gated. */
  QueueDepths depths() {
    int unschedulable = unschedulablePods.size() + heldPods.size();
    int gated = gatedPods.size() + parkedPods.size();
    int waiting = activeQ.size() + backoffQ.size() + unschedulable + gated;
    return new QueueDepths(activeQ.size(), backoffQ.size(), unschedulable, gated, entries.size() - waiting);
  }

  /**
   * As {@link SchedulingQueue#contents()}: held pods are among the unschedulable ones, parked ones among the
   * gated ones, in arrival order.
   */
  QueueContents contents() {
    var inFlight = new ArrayList<QueuedPod>();
    entries.values().stream()
        .filter(entry -> entry.place == QueueEntry.Place.IN_FLIGHT)
        .forEach(entry -> inFlight.add(entry.pod));
    var unschedulable = new ArrayList<QueueEntry>(unschedulablePods.size() + heldPods.size());
    unschedulablePods.entries().forEach(unschedulable::add);
    heldPods.entries().forEach(unschedulable::add);
    unschedulable.sort(SubQueue.ARRIVAL_ORDER);
    var gated = new ArrayList<QueueEntry>(gatedPods.size() + parkedPods.size());
    gatedPods.entries().forEach(gated::add);
    parkedPods.entries().forEach(gated::add);
    gated.sort(SubQueue.ARRIVAL_ORDER);
    return new QueueContents(
        activeQ.pods(),
        backoffQ.pods(),
        unschedulable.stream().map(entry -> entry.pod).toList(),
        gated.stream().map(entry -> entry.pod).toList(),
        inFlight);
  }

  /** @return the current nominations; safe to read without the lock */
  Nominations nominations() {
    return nominations;
  }

  /**
   * As {@link SchedulingQueue#nominate}.
   *
   * @return whether the pod is nominated now
   */
  boolean nominate(PodInfo pod, String nodeName) {
    var entry = closed ? null : entries.get(pod.uid());
    if (entry == null) {
      return false;
    }
    var latest = entry.pod.info() != null ? entry.pod.info() : pod;
    nominate(pod.uid(), latest, latest.nodeName().isEmpty() && pod.nodeName().isEmpty() ? nodeName : "");
    return !nominations.nodeOf(pod.uid()).isEmpty();
  }

  /** As {@link SchedulingQueue#clearNomination}. */
  void clearNomination(String uid) {
    nominations = nominations.without(uid);
  }

  /**
   * As {@link SchedulingQueue#observe}: the known pod's version is replaced (unless it could not be read)
   * without moving it, and its nomination follows.
   */
  void observe(PodInfo pod) {
    var entry = closed ? null : entries.get(pod.uid());
    if (entry == null) {
      return;
    }
    var previous = entry.pod.info();
    if (entry.pod.unreadable() == null) {
      // A status-only update: the fields a sub-queue sorts by are the spec's, unchanged.
      replace(entry, entry.pod.withInfo(pod));
    }
    renominate(pod.uid(), previous, entry.pod.info());
  }

  /**
   * As {@link SchedulingQueue#holdForPreemption}.
   *
   * @return false: nothing becomes takeable
   */
  boolean hold(String uid) {
    var entry = closed ? null : entries.get(uid);
    if (entry == null || entry.preempting) {
      return false;
    }
    entry.preempting = true;
    switch (entry.place) {
      case IN_FLIGHT -> {
        // Its requeue goes to held.
      }
      case ACTIVE, BACKOFF -> {
        leave(entry);
        entry.moveSuppressed = true;
        heldPods.add(entry);
      }
      case UNSCHEDULABLE, GATED -> {
        leave(entry);
        heldPods.add(entry);
      }
      case PARKED -> {
        // Lifting the mark queues it to be tried: the loop parks it again while its group is incomplete.
        leave(entry);
        entry.moveSuppressed = true;
        heldPods.add(entry);
      }
      case HELD -> throw new AssertionError("held without the mark: " + entry.pod.key());
    }
    return false;
  }

  /**
   * As {@link SchedulingQueue#releasePreemption}.
   *
   * @return whether a pod became takeable, now or later
   */
  boolean release(String uid, boolean activate) {
    var entry = closed ? null : entries.get(uid);
    if (entry == null) {
      return false;
    }
    boolean suppressed = entry.moveSuppressed;
    entry.preempting = false;
    entry.moveSuppressed = false;
    long now = now();
    switch (entry.place) {
      case HELD -> {
        heldPods.remove(entry);
        if (entry.pod.gated()) {
          gatedPods.add(entry); // counted as unschedulable while held already
          return false;
        }
        if (activate) {
          toActive(entry, FORCE_ACTIVATE);
        } else if (suppressed || unschedulablePods.isOverdue(entry, now)) {
          // The event remembered while it was held is not kept: the move counts as the timeout's or the
          // activation's only where it is one.
          if (suppressed) {
            (backoffQ.isBackingOff(entry, now) ? backoffQ : activeQ).add(entry);
          } else {
            toActiveOrBackoff(entry, now, UNSCHEDULABLE_TIMEOUT);
          }
        } else {
          unschedulablePods.add(entry);
          return false;
        }
        return true;
      }
      case IN_FLIGHT -> {
        // kube records a forced activation for the pod's return: its requeue retries after the backoff.
        entry.updatedInFlight |= activate;
        return false;
      }
      case UNSCHEDULABLE, BACKOFF -> {
        if (!activate) {
          return false;
        }
        leave(entry);
        toActive(entry, FORCE_ACTIVATE);
        return true;
      }
      case ACTIVE, GATED, PARKED -> {
        // A parked pod waits for its group, which an activation does not change (kube: a no-op).
        return false;
      }
    }
    throw new AssertionError(entry.place);
  }

  /**
   * As {@link SchedulingQueue#takeGroupMembers}: every member waiting in active, backoff, unschedulable or
   * parked, not marked as preempting, handed out in one new scheduling cycle.
   *
   * @return the pods handed out, in arrival order; empty if none or closed
   */
  List<QueuedPod> takeGroupMembers(PodGroupRef group) {
    var members = closed ? null : groups.get(group);
    if (members == null) {
      return List.of();
    }
    var taking = members.stream()
        .filter(entry -> !entry.preempting && !entry.pod.gated() && takeable(entry.place))
        .sorted(SubQueue.ARRIVAL_ORDER)
        .toList();
    var taken = new ArrayList<QueuedPod>(taking.size());
    if (!taking.isEmpty()) {
      activeQ.startCycle();
    }
    for (var entry : taking) {
      leave(entry);
      taken.add(activeQ.handOut(entry));
    }
    return taken;
  }

  /**
   * As {@link SchedulingQueue#groupMembers}: the members {@link #takeGroupMembers} would take, and those in
   * flight, in arrival order; moves nothing.
   */
  List<QueuedPod> groupMembers(PodGroupRef group) {
    var members = closed ? null : groups.get(group);
    if (members == null) {
      return List.of();
    }
    return members.stream()
        .filter(entry -> !entry.preempting && !entry.pod.gated()
            && (takeable(entry.place) || entry.place == QueueEntry.Place.IN_FLIGHT))
        .sorted(SubQueue.ARRIVAL_ORDER)
        .map(entry -> entry.pod)
        .toList();
  }

  /**
   * As {@link SchedulingQueue#waitForGroup}: parks an in-flight member, taking back the attempt its taking
   * counted. A member marked as preempting is held (its move remembered, so that lifting the mark queues
   * it), one with scheduling gates goes to gated, and one whose latest version names another group or
   * none, updated meanwhile, is queued to be tried as it is now.
   *
   * @return whether a pod became takeable; false if the pod is not in flight or the queue is closed
   * @throws IllegalArgumentException if {@code pod} names no pod group
   */
  boolean waitForGroup(QueuedPod pod) {
    var group = groupOf(pod);
    if (group == null) {
      throw new IllegalArgumentException("pod " + pod.key() + " cannot wait for its group: it names none");
    }
    var entry = closed ? null : entries.get(pod.uid());
    if (entry == null || entry.place != QueueEntry.Place.IN_FLIGHT) {
      return false;
    }
    entry.pod = entry.pod.withProgress(pod.progress().unattempted());
    if (entry.preempting) {
      entry.moveSuppressed |= !entry.pod.gated();
      heldPods.add(entry);
      return false;
    }
    if (entry.pod.gated()) {
      toGated(entry, UNSCHEDULED_POD_UPDATE);
      return false;
    }
    if (!group.equals(groupOf(entry.pod))) {
      toActiveOrBackoff(entry, now(), UNSCHEDULED_POD_UPDATE);
      return true;
    }
    parkedPods.add(entry);
    return false;
  }

  /**
   * As {@link SchedulingQueue#releaseGroup}.
   *
   * @return how many parked members moved to active
   */
  int releaseGroup(PodGroupRef group) {
    var members = closed ? null : groups.get(group);
    if (members == null) {
      return 0;
    }
    int moved = 0;
    for (var entry : members) {
      if (entry.place == QueueEntry.Place.PARKED) {
        parkedPods.remove(entry);
        // kube moves a group's waiting pods with the label of the pod add that completed it.
        toActive(entry, UNSCHEDULED_POD_ADD);
        moved++;
      }
    }
    return moved;
  }

  /** As {@link SchedulingQueue#pendingGroups()}: held members count as unschedulable. */
  SchedulerMetrics.PendingGroups pendingGroups() {
    int waitingForMembers = 0;
    int waitingToFit = 0;
    for (var members : groups.values()) {
      boolean parked = false;
      boolean failed = false;
      for (var entry : members) {
        switch (entry.place) {
          case PARKED -> parked = true;
          case BACKOFF, UNSCHEDULABLE, HELD -> failed = true;
          case ACTIVE, GATED, IN_FLIGHT -> {
            // Neither.
          }
        }
      }
      if (parked) {
        waitingForMembers++;
      } else if (failed) {
        waitingToFit++;
      }
    }
    return new SchedulerMetrics.PendingGroups(waitingForMembers, waitingToFit);
  }

  /** @return whether the known pod of {@code uid} is marked as preempting */
  boolean preempting(String uid) {
    var entry = entries.get(uid);
    return entry != null && entry.preempting;
  }

  /** Marks the entry as queued {@code now}: behind those queued before, with its backoff from now on. */
  private void stamp(QueueEntry entry, long now) {
    entry.queuedAt = now;
    entry.arrival = arrivals++;
    entry.backoffEnds = backoffQ.backoffEnds(entry, now);
  }

  /**
   * Returns an in-flight pod after its attempt, keeping the progress it carries: {@code outcome} counts the
   * attempt in its entry and says whether the pod may be retried after its backoff rather than wait as
   * unschedulable.
   *
   * @return false if the pod is not in flight or the queue is closed, and nothing changed
   */
  private boolean requeue(QueuedPod pod, Predicate<QueueEntry> outcome) {
    var entry = closed ? null : entries.get(pod.uid());
    if (entry == null || entry.place != QueueEntry.Place.IN_FLIGHT) {
      return false;
    }
    entry.pod = entry.pod.withProgress(pod.progress());
    boolean retry = outcome.test(entry);
    long now = now();
    stamp(entry, now);
    if (entry.preempting) {
      heldPods.add(entry);
      metrics.queueIncoming(UNSCHEDULABLE, SCHEDULE_ATTEMPT_FAILURE);
      entry.moveSuppressed |= retry && !entry.pod.gated();
      return true;
    }
    if (entry.pod.gated()) {
      toGated(entry, SCHEDULE_ATTEMPT_FAILURE);
    } else if (retry) {
      toActiveOrBackoff(entry, now, SCHEDULE_ATTEMPT_FAILURE);
    } else {
      unschedulablePods.add(entry);
      metrics.queueIncoming(UNSCHEDULABLE, SCHEDULE_ATTEMPT_FAILURE);
    }
    return true;
  }

  /** Takes a waiting entry out of its sub-queue; the caller puts it somewhere else. */
  private void leave(QueueEntry entry) {
    switch (entry.place) {
      case ACTIVE -> activeQ.remove(entry);
      case BACKOFF -> backoffQ.remove(entry);
      case UNSCHEDULABLE -> unschedulablePods.remove(entry);
      case GATED -> gatedPods.remove(entry);
      case HELD -> heldPods.remove(entry);
      case PARKED -> parkedPods.remove(entry);
      case IN_FLIGHT -> {
        // In no sub-queue.
      }
    }
  }

  /** @return whether a member waiting in {@code place} is taken with its group */
  private static boolean takeable(QueueEntry.Place place) {
    return switch (place) {
      case ACTIVE, BACKOFF, UNSCHEDULABLE, PARKED -> true;
      case GATED, HELD, IN_FLIGHT -> false;
    };
  }

  /** @return the pod group the pod names, or null if none or it could not be read */
  private static @Nullable PodGroupRef groupOf(QueuedPod pod) {
    var info = pod.info();
    return info == null ? null : info.podGroup().orElse(null);
  }

  /** Records a new entry as a member of the group its pod names, if any. */
  private void join(QueueEntry entry) {
    var group = groupOf(entry.pod);
    if (group != null) {
      groups.computeIfAbsent(group, g -> new LinkedHashSet<>()).add(entry);
    }
  }

  /** Forgets an entry as a member of the group its pod names, if any. */
  private void quit(QueueEntry entry) {
    var group = groupOf(entry.pod);
    var members = group == null ? null : groups.get(group);
    if (members != null) {
      members.remove(entry);
      if (members.isEmpty()) {
        groups.remove(group);
      }
    }
  }

  /** Gives the entry another version of its pod, moving it to the group that version names. */
  private void replace(QueueEntry entry, QueuedPod pod) {
    if (Objects.equals(groupOf(entry.pod), groupOf(pod))) {
      entry.pod = pod;
      return;
    }
    quit(entry);
    entry.pod = pod;
    join(entry);
  }

  private static boolean positive(Duration value) {
    return !value.isNegative() && !value.isZero();
  }

  private void toActiveOrBackoff(QueueEntry entry, long now, String event) {
    if (backoffQ.isBackingOff(entry, now)) {
      backoffQ.add(entry);
      metrics.queueIncoming(BACKOFF, event);
    } else {
      toActive(entry, event);
    }
  }

  private void toActive(QueueEntry entry, String event) {
    activeQ.add(entry);
    metrics.queueIncoming(ACTIVE, event);
  }

  /** kube keeps gated pods among its unschedulable ones, and counts them there. */
  private void toGated(QueueEntry entry, String event) {
    gatedPods.add(entry);
    metrics.queueIncoming(UNSCHEDULABLE, event);
  }

  /**
   * Applies kube's nominator rule to a new version of a pod (1.25): its {@code status.nominatedNodeName}
   * if it has one; else the nomination in memory if the previous version had none either (preemption set
   * it before the API write, and the update predates it); else none, as the field was removed. A bound
   * pod (with a {@code nodeName}), or one that could not be read, is not nominated.
   *
   * @param previous the version the queue had, or null if none (or unreadable)
   * @param latest the new version, or null if unreadable
   */
  private void renominate(String uid, @Nullable PodInfo previous, @Nullable PodInfo latest) {
    if (latest == null || !latest.nodeName().isEmpty()) {
      nominations = nominations.without(uid);
    } else if (!latest.nominatedNodeName().isEmpty()) {
      nominate(uid, latest, latest.nominatedNodeName());
    } else if (previous == null || previous.nominatedNodeName().isEmpty()) {
      // Also re-stores the nominated version, as kube updates the pod it holds.
      nominate(uid, latest, nominations.nodeOf(uid));
    } else {
      nominations = nominations.without(uid);
    }
  }

  /** Nominates {@code pod} to {@code nodeName}, or nowhere if empty. */
  private void nominate(String uid, PodInfo pod, String nodeName) {
    nominations = nodeName.isEmpty() ? nominations.without(uid) : nominations.with(pod, nodeName);
  }
}
