package io.kubesched.engine;

import io.kubesched.api.ClusterChange;
import io.kubesched.api.ClusterUpdate;
import io.kubesched.api.Nominations;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The pods waiting to be scheduled, as kube-scheduler's {@code PriorityQueue}
 * ({@code pkg/scheduler/backend/queue/scheduling_queue.go}): one entry per pod uid, in one of four
 * sub-queues or handed out to the worker ("in flight"), with kube's nominator and the preempting mark.
 *
 * <ul>
 *   <li><b>active</b>: pods ready to be tried, highest {@link QueuedPod#priority() priority} first, then in
 *       the order they were queued (kube's {@code PrioritySort}). A pod is (re)queued when it is first
 *       added and each time an attempt fails, so a pod that keeps failing goes behind newer pods of its
 *       priority.
 *   <li><b>backoff</b>: pods whose last attempt failed less than their backoff ago. The backoff is
 *       {@code initialBackoff} doubled per consecutive failure, at most {@code maxBackoff} (1 s to 10 s in
 *       kube-scheduler); it counts errors if the last attempt ended in an error, else the attempts that found no
 *       node. As in kube-scheduler since 1.33 ({@code SchedulerPopFromBackoffQ}), backoffs end on whole
 *       ordering windows of 1 s (or of {@code initialBackoff}, if shorter): a pod leaves for active once the
 *       window its backoff ends in has passed, the pods of one window in active's order. And when active is
 *       empty, {@link #take()} hands out the first pod of backoff whose backoff counts attempts that found no
 *       node, however much of it is left: an idle scheduler retries rather than waits. A pod whose backoff
 *       counts errors always waits it out.
 *   <li><b>unschedulable</b>: pods whose last attempt found no node. Only a change can help them: a cluster
 *       event that its {@link QueueingHint} says may help ({@link #moveAllToActiveOrBackoff},
 *       {@link #moveWaitingForPods}, {@link #moveUnschedulableIf}), a new policy of their profile ({@link
 *       #moveProfile}) or an update of the pod itself ({@link #add}) moves them to backoff if their backoff has
 *       not passed yet, else to active. A pod left there longer than {@code maxInUnschedulable} (kube's default
 *       is 5 min) is moved the same way at the next {@link #flush()}, whatever its hint.
 *   <li><b>gated</b>: pods with scheduling gates (kube's {@code SchedulingGates} PreEnqueue plugin), and pods whose
 *       template's claim is not made yet (its {@code DynamicResources} PreEnqueue): never
 *       handed out, moved by no event and no timeout; the update that removes the last gate moves the pod
 *       to active at once (a pod created with gates was never tried, so it has no backoff to wait out).
 *       Shown with them: the pod group members parked by {@link #waitForGroup} until their group may be
 *       tried (kube's incomplete pod group pods), which only the group operations, an update and a
 *       deletion move.
 * </ul>
 *
 * <p>Pod groups: a member is queued, taken and requeued as any pod; the scheduling loop takes the other
 * members of the group of a pod it took with {@link #takeGroupMembers}, and parks them all with {@link
 * #waitForGroup} while the group cannot be tried. The queue keeps, for each group, its known members, so
 * that these operations look at the group's members only.
 *
 * <p>Preempting mark (kube's DefaultPreemption PreEnqueue with async preemption): while victims are being
 * evicted for a pod, {@link #holdForPreemption} keeps it from being handed out. A held pod that waits is
 * shown (in {@link #contents()} and {@link #depths()}) as unschedulable, wherever it would be otherwise;
 * nothing moves it: a failed attempt, an update, a cluster event and the unschedulable timeout leave it
 * there. Each such move that would have sent it to backoff or active is remembered, and done when
 * {@link #releasePreemption} lifts the mark.
 *
 * <p>Nominations (kube's nominator, {@code backend/queue/nominator.go}): the node on which room is being
 * made for each known pod, from its {@code status.nominatedNodeName} as {@link #add} and {@link #observe}
 * see it, or set in memory by {@link #nominate} before the API write. {@link #nominations()} hands out
 * the current immutable value.
 *
 * <p>In-flight events: every {@link #take()} starts a scheduling cycle. When an event arrives while a pod is in
 * flight that would have moved the pod had it been waiting with the hint its attempt returns it with (kube's
 * in-flight events and {@code determineSchedulingHintForInFlightPod}), a failure of that attempt sends it to
 * backoff instead of unschedulable, because the attempt may have missed what the event changed; an event its
 * hint skips does not. An update of the pod while it is in flight counts as such an event for that pod. See
 * {@link #requeueUnschedulable(QueuedPod, long, QueueingHint)}.
 *
 * <p>Time comes only from the {@link Ticker}; nothing runs on a timer: {@link #take()} and {@link #poll()}
 * first move what is due, and a waiting {@link #take()} wakes exactly when the next backoff or
 * unschedulable timeout ends.
 *
 * <p>Thread-safe: every method may be called from any thread; only {@link #take()} blocks. After
 * {@link #close()} the queue accepts nothing more and hands nothing out.
 */
public final class SchedulingQueue {

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final QueueEntries queue;

  /**
   * The durations are validated where the user sets them (the facade's {@code Options}); here they are
   * only asserted.
   *
   * @param ticker the only source of time
   * @param initialBackoff the backoff after the first failed attempt; positive
   * @param maxBackoff the longest backoff; not shorter than {@code initialBackoff}
   * @param maxInUnschedulable how long a pod may wait as unschedulable without any event (kube's
   *     {@code podMaxInUnschedulablePodsDuration}); positive
   */
  public SchedulingQueue(Ticker ticker, Duration initialBackoff, Duration maxBackoff, Duration maxInUnschedulable) {
    this(ticker, initialBackoff, maxBackoff, maxInUnschedulable, SchedulerMetrics.NONE);
  }

  /**
   * As {@link #SchedulingQueue(Ticker, Duration, Duration, Duration)}, telling {@code metrics} of every pod
   * that enters active, backoff or unschedulable ({@link SchedulerMetrics#queueIncoming}), under the lock.
   *
   * @param metrics told under the queue's lock: quick, never calling back into the queue, never throwing
   */
  public SchedulingQueue(
      Ticker ticker, Duration initialBackoff, Duration maxBackoff, Duration maxInUnschedulable, SchedulerMetrics metrics) {
    this.queue =
        new QueueEntries(
            Objects.requireNonNull(ticker, "ticker"), initialBackoff, maxBackoff, maxInUnschedulable,
            Objects.requireNonNull(metrics, "metrics"));
  }

  /**
   * Queues a pod that needs scheduling: new, or updated. A new pod goes to active, or to gated if it
   * {@linkplain QueuedPod#gated() has scheduling gates}. For a pod already known, the queue keeps this
   * version and one entry: a gated version goes to gated from wherever it waits; an ungated version of a
   * gated pod goes to active at once (to backoff if an earlier attempt's backoff has not passed, which a pod
   * created with gates, never tried, does not have); in active or backoff it stays where it is (active re-sorts it by its
   * new priority); as unschedulable it moves to backoff or active, as an update may be what it waited for;
   * in flight it is marked so that a failed attempt goes to backoff rather than unschedulable.
   *
   * <p>A pod {@linkplain #holdForPreemption held} for preemption stays held: the queue keeps the new
   * version, and an ungated one is moved when the mark is lifted.
   *
   * <p>Nomination (kube's {@code UpdateNominatedPod}): the pod is nominated to its {@link
   * PodInfo#nominatedNodeName()} if it has one; if neither this version nor the previous one has one, a
   * nomination set in memory by {@link #nominate} stays (with this version); else it has none. A pod with a
   * {@link PodInfo#nodeName()} (bound), or without {@link QueuedPod#info()}, is nominated nowhere.
   *
   * <p>Because an update moves an unschedulable pod, call this only for a new pod or an update that may
   * change where it fits (kube-scheduler ignores updates of status and metadata bookkeeping: see {@link
   * #observe}), or the pod is retried after every update. The pod's {@link QueuedPod#progress() progress}
   * is the queue's: a known pod keeps its own, whatever {@code pod} carries. Ignored once closed. Never
   * blocks.
   */
  public void add(QueuedPod pod) {
    Objects.requireNonNull(pod, "pod");
    underLock(() -> signalIf(queue.add(pod)));
  }

  /**
   * Waits for an active pod (or, with active empty, a backoff pod that found no node: see the class comment)
   * and hands it out: the pod is in flight, in no sub-queue, until it is requeued
   * or {@linkplain #done done}, and counts one attempt more in its {@link QueuedPod#progress() progress} (the
   * first one stamped with the ticker's time). Moves what is due first, as {@link #flush()}. Read {@link #schedulingCycle()}
   * right after, on the same thread, for {@link #requeueUnschedulable}.
   *
   * @return the pod, or null once the queue is closed
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  public @Nullable QueuedPod take() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (!queue.isClosed()) {
        long now = queue.now();
        var pod = queue.pop(now);
        if (pod != null) {
          return pod;
        }
        long due = queue.nextDue();
        if (due == Long.MAX_VALUE) {
          changed.await();
        } else {
          changed.awaitNanos(Math.max(1, due - now));
        }
      }
      return null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * As {@link #take()}, without waiting: for tests and for draining.
   *
   * @return the next pod {@link #take()} would hand out, now in flight, or null if there is none or the
   *     queue is closed
   */
  public @Nullable QueuedPod poll() {
    return underLock(() -> queue.pop(queue.now()));
  }

  /**
   * Moves what is due: unschedulable pods that waited longer than {@code maxInUnschedulable} (to backoff or
   * active), then backoff pods whose backoff has passed (to active). {@link #take()} and {@link #poll()} do
   * this themselves. Never blocks.
   *
   * @return how many pods moved
   */
  public int flush() {
    return underLock(() -> signalIf(queue.flush(queue.now())));
  }

  /** @return the number of pods handed out so far: the cycle of the pod {@link #take()} returned last */
  public long schedulingCycle() {
    return underLock(queue::schedulingCycle);
  }

  /**
   * As {@link #requeueUnschedulable(QueuedPod, long, QueueingHint)} with {@link QueueingHint#ANY_CHANGE}.
   *
   * @throws IllegalArgumentException if {@code cycleAtTake} is negative or a cycle not started yet
   */
  public boolean requeueUnschedulable(QueuedPod pod, long cycleAtTake) {
    return requeueUnschedulable(pod, cycleAtTake, QueueingHint.ANY_CHANGE);
  }

  /**
   * Returns an in-flight pod whose attempt found no node: it goes to unschedulable, or to backoff if an
   * event that would have moved it with {@code hint}, had it been waiting, arrived since it was taken, or the pod
   * was updated, so that the change is not lost (a node update its rejecting filters skip does not count). Of
   * more than the last {@value MoveRequests#KEPT} events, those dropped count as before events were kept: any
   * cluster change unless the hint is {@link QueueingHint#POD_UPDATE_ONLY}, an event about bound pods if the hint
   * {@linkplain QueueingHint#waitsForAssignedPods() waits for them}. A pod updated to carry scheduling gates meanwhile goes to gated. A pod
   * {@linkplain #holdForPreemption held} for preemption goes to unschedulable in any case (a move to
   * backoff is remembered for when the mark is lifted). Its unschedulable attempts count one more and its
   * consecutive errors are forgotten.
   *
   * @param pod the pod as taken; the queue keeps its {@link QueuedPod#progress() progress} with the latest
   *     version {@link #add} was given
   * @param cycleAtTake {@link #schedulingCycle()} read right after the pod was taken
   * @param hint which events may help the pod from now on
   * @return whether it was requeued: false if the pod is not in flight (deleted or done meanwhile, or never
   *     taken) or the queue is closed
   * @throws IllegalArgumentException if {@code cycleAtTake} is negative or a cycle not started yet
   */
  public boolean requeueUnschedulable(QueuedPod pod, long cycleAtTake, QueueingHint hint) {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(hint, "hint");
    return underLock(() -> signalIf(queue.requeueUnschedulable(pod, cycleAtTake, hint)));
  }

  /**
   * Returns an in-flight pod whose attempt ended in an error (the policy threw, the binding failed): it
   * waits out its backoff, counting one more consecutive error, and is tried again whatever happens in the
   * cluster; a pod with scheduling gates goes to gated, and one {@linkplain #holdForPreemption held} for
   * preemption to unschedulable until the mark is lifted, then to backoff.
   *
   * @param pod the pod as taken; the queue keeps its {@link QueuedPod#progress() progress} (with the node of
   *     a binding whose outcome is unknown, say) with the latest version {@link #add} was given
   * @return whether it was requeued: false if the pod is not in flight or the queue is closed
   */
  public boolean requeueAfterError(QueuedPod pod) {
    Objects.requireNonNull(pod, "pod");
    return underLock(() -> signalIf(queue.requeueAfterError(pod)));
  }

  /**
   * Forgets a pod the worker is finished with (bound, bound by someone else, gone, or no longer ours): its
   * attempts, backoff, nomination and preempting mark are dropped, and a later {@link #add} starts afresh. Normally the pod is in flight;
   * if it is queued it is removed too, as there is nothing left to schedule. Never blocks.
   *
   * @return whether the queue knew the pod
   */
  public boolean done(String uid) {
    return delete(uid) != null;
  }

  /**
   * Removes a pod deleted, bound, or no longer ours, wherever it is, with its nomination and its preempting
   * mark. A pod removed while in flight is forgotten: requeueing it afterwards does nothing. Works after
   * {@link #close()} too. Never blocks.
   *
   * @return the pod as the queue had it, with its progress, or null if the queue did not know it
   */
  public @Nullable QueuedPod delete(String uid) {
    Objects.requireNonNull(uid, "uid");
    return underLock(() -> {
      var entry = queue.remove(uid);
      signalIf(entry != null);
      return entry == null ? null : entry.pod;
    });
  }

  /**
   * A cluster event that may let pods fit (a node added or changed, a pod removed): every unschedulable pod
   * whose hint is {@linkplain QueueingHint#movedByClusterChange() moved by cluster changes} moves to backoff
   * if its backoff has not passed, else to active; and the pods in flight remember it. Gated pods stay;
   * held pods stay, remembering the move. Never blocks.
   *
   * @param event what happened
   * @return how many pods moved
   */
  public int moveAllToActiveOrBackoff(ClusterEvent event) {
    return move(event, false, (pod, hint) -> hint.movedByClusterChange(), true);
  }

  /**
   * A node or bound-pod event whose objects are not at hand: every unschedulable pod whose hint is {@linkplain
   * QueueingHint#movedByClusterChange(Set) moved by one of {@code changes}} (one of the filters that rejected it
   * registers it, whatever its hint would say) moves as in {@link #moveAllToActiveOrBackoff}, and the pods in
   * flight remember it. Never blocks.
   *
   * @param event what happened
   * @param changes what it changed; nothing moves when empty
   * @return how many pods moved
   */
  public int moveOnClusterChange(ClusterEvent event, Set<ClusterChange> changes) {
    Objects.requireNonNull(changes, "changes");
    if (changes.isEmpty()) {
      return 0;
    }
    return move(event, false, (pod, hint) -> hint.movedByClusterChange(changes), true);
  }

  /**
   * A node or bound-pod change: every unschedulable pod whose hint is {@linkplain
   * QueueingHint#movedByClusterChange(ClusterUpdate) moved by it} (one of the filters that rejected the pod
   * registers one of its changes and says it may help, kube's {@code Queue}) moves as in {@link
   * #moveAllToActiveOrBackoff}, and the pods in flight remember it. The hints are asked under the queue's lock.
   * Never blocks.
   *
   * @param event what happened
   * @param update what changed
   * @return how many pods moved
   */
  public int moveOnClusterChange(ClusterEvent event, ClusterUpdate update) {
    Objects.requireNonNull(update, "update");
    return move(event, false, (pod, hint) -> hint.movedByClusterChange(update), true);
  }

  /**
   * An event about bound pods (one bound, or relabelled): the unschedulable pods whose hint {@linkplain
   * QueueingHint#waitsForAssignedPods() waits for bound pods} and for which {@code helps} holds move as in
   * {@link #moveAllToActiveOrBackoff}; no other pod is looked at, so this costs nothing while no such pod
   * waits. A pod in flight whose hint waits for bound pods goes to backoff if its attempt finds no node.
   * Never blocks.
   *
   * @param event what happened
   * @param helps whether the event may help a pod with this hint; called under the queue's lock, so cheap
   *     and without calls back into the queue
   * @return how many pods moved
   */
  public int moveWaitingForPods(ClusterEvent event, Predicate<QueueingHint> helps) {
    Objects.requireNonNull(helps, "helps");
    return move(event, true, (pod, hint) -> helps.test(hint), false);
  }

  /**
   * A rare cluster event that may help some pods (a namespace relabelled, a node deleted): every
   * unschedulable pod for which {@code helps} holds moves as in {@link #moveAllToActiveOrBackoff}, and the
   * pods in flight remember the event as a cluster change. Never blocks.
   *
   * @param event what happened
   * @param helps whether the event may help this pod with this hint; called under the queue's lock
   * @return how many pods moved
   */
  public int moveUnschedulableIf(ClusterEvent event, BiPredicate<QueuedPod, QueueingHint> helps) {
    Objects.requireNonNull(helps, "helps");
    return move(event, false, helps, true);
  }

  /**
   * The policy of {@code profile} was replaced: a pod the old policy found no node for may fit now, whatever
   * its hint said. Every unschedulable pod of that {@linkplain QueuedPod#profile() profile} moves as in {@link
   * #moveAllToActiveOrBackoff}, held ones remembering the move; each of its pods in flight counts as updated,
   * so that if its attempt (made with the old policy) finds no node it goes to backoff, not to unschedulable.
   * Other profiles' pods, gated pods and pods waiting for their group stay. Never blocks; costs one step per
   * known pod.
   *
   * @param event what happened
   * @param profile the profile whose policy changed
   * @return how many pods moved
   */
  public int moveProfile(ClusterEvent event, String profile) {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(profile, "profile");
    return underLock(() -> signalIf(queue.moveProfile(event.label(), profile)));
  }

  /**
   * Takes every other queued member of {@code group} out of its sub-queue and hands it out as {@link #take()}
   * would, so that a pod group's cycle places all of its pending members at once: the members in active,
   * backoff or unschedulable, and those waiting for their group ({@link #waitForGroup}). Not taken: members
   * with scheduling gates, members held for preemption, and members already in flight. The caller ends each
   * pod taken here as it ends a pod from {@link #take()} ({@link #requeueUnschedulable}, {@link
   * #requeueAfterError}, {@link #done}, {@link #waitForGroup}). Members are the queued pods whose
   * {@link QueuedPod#info() info} names {@code group} (a pod that could not be read is no member).
   *
   * <p>Each member taken is in flight as after {@link #take()}: it counts one attempt more in its {@link
   * QueuedPod#progress() progress}, forgets the updates made during an earlier attempt, and an update or an
   * event from now on counts for the move request cycle: read {@link #schedulingCycle()} right after, on the
   * same thread, for their {@code cycleAtTake}. One scheduling cycle starts if any member is taken, shared by
   * them all; the cycle read after the {@link #take()} that started the group's attempt may serve as theirs
   * too, as it is earlier (an event in between then sends a failed member to backoff). A member's backoff
   * does not hold it back (it is tried with its group); its nomination stays. Ignored once closed. Never
   * blocks; costs one step per known member of the group, not per queued pod.
   *
   * @param group the group whose members to take
   * @return the members taken, in the order they were queued; empty if none (or closed)
   */
  public List<QueuedPod> takeGroupMembers(PodGroupRef group) {
    Objects.requireNonNull(group, "group");
    return underLock(() -> queue.takeGroupMembers(group));
  }

  /**
   * The members of {@code group} a group attempt would try if it began now, for explaining that attempt: those
   * {@link #takeGroupMembers} would take (waiting in active, backoff, unschedulable or parked; not gated, not
   * held for preemption) and those in flight, in the order they were queued. Moves nothing and counts no
   * attempt. Any thread; never blocks but for the queue's lock, and costs one step per known member of the
   * group, not per queued pod.
   *
   * @return the members; empty if none (or closed)
   */
  public List<QueuedPod> groupMembers(PodGroupRef group) {
    Objects.requireNonNull(group, "group");
    return underLock(() -> queue.groupMembers(group));
  }

  /**
   * Parks a pod taken off the queue (in flight) until its group may be tried: its group object is not known
   * yet, or the group has fewer members than its minimum (kube's gang PreEnqueue). Not an attempt: its backoff
   * and attempt count stay as they are. Only {@link #releaseGroup} with its group, {@link
   * #takeGroupMembers}, an update of the pod ({@link #add}, which queues it as active) and {@link #delete} move
   * it; no cluster event and no timeout does. Shown as gated in {@link #depths()}.
   *
   * <p>Not an attempt means: the failures its backoff counts and the time it was queued stay as they were,
   * and the attempt its taking counted in its {@link QueuedPod#progress() progress} is taken back, so that a
   * member parked and taken again and again counts only the attempts its group was really tried in (the
   * {@link io.kubesched.api.SchedulerMetrics#scheduled attempts metric}). As with a requeue, a pod marked
   * as preempting meanwhile is held (and queued once the mark is lifted), one updated to carry scheduling
   * gates goes to gated, and one whose latest version names another group or none (updated while in flight)
   * is queued as after an update, to backoff or active. A pod not in flight (deleted or done meanwhile) is
   * left alone. Ignored once closed. Never blocks.
   *
   * @param pod the pod, in flight, whose {@link QueuedPod#info() info} names a group; its progress is kept
   *     (less the attempt its taking counted)
   * @throws IllegalArgumentException if {@code pod} names no group
   */
  public void waitForGroup(QueuedPod pod) {
    Objects.requireNonNull(pod, "pod");
    underLock(() -> signalIf(queue.waitForGroup(pod)));
  }

  /**
   * Moves every member of {@code group} parked by {@link #waitForGroup} to active: a member was added, or the
   * group object appeared or changed, so the group may be complete now. They go to active at once, their
   * backoff notwithstanding, keeping the time they were queued. Members elsewhere stay where they are.
   * Ignored once closed. Never blocks; costs one step per known member of the group.
   *
   * @param group the group
   * @return how many pods moved
   */
  public int releaseGroup(PodGroupRef group) {
    Objects.requireNonNull(group, "group");
    return underLock(() -> signalIf(queue.releaseGroup(group)));
  }

  /**
   * For the {@link io.kubesched.api.SchedulerMetrics#pendingGroups pending groups gauge}: costs one step per
   * known group member, waiting or in flight.
   *
   * @return how many distinct groups have a member parked by {@link #waitForGroup}, and how many distinct
   *     groups have a member in backoff or unschedulable (held members count as unschedulable) and none
   *     parked
   */
  public SchedulerMetrics.PendingGroups pendingGroups() {
    return underLock(queue::pendingGroups);
  }

  /**
   * The nominated pods (kube's nominator), for the scheduling cycle's snapshot: only pods the queue knows
   * (waiting or in flight), none bound. Never blocks and takes no lock: the value is immutable and replaced
   * as a whole, so a reader gets the one current when it reads, at no cost.
   *
   * @return the current nominations
   */
  public Nominations nominations() {
    return queue.nominations();
  }

  /**
   * Nominates a pod to a node in memory, as preemption does before the API write that sets its {@code
   * status.nominatedNodeName} (kube's {@code AddNominatedPod} with {@code ModeOverride}): the pod, as the
   * queue's latest version of it, is now nominated to {@code nodeName} and nowhere else, whatever its status
   * says, until an update that sets or removes the field, {@link #clearNomination}, {@link #delete} or
   * {@link #done}. Nothing happens for a pod the queue does not know (deleted meanwhile) or that is bound
   * (either version has a {@link PodInfo#nodeName()}), except that its nomination, if any, is dropped; an
   * empty {@code nodeName} drops it too. Ignored once closed. Never blocks.
   *
   * @param pod the pod, known to the queue by its uid
   * @param nodeName the node room is made on; empty for none
   */
  public void nominate(PodInfo pod, String nodeName) {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(nodeName, "nodeName");
    underLock(() -> queue.nominate(pod, nodeName));
  }

  /**
   * Drops a pod's nomination, if any (the pod fits somewhere and is assumed, or preemption gave up on its
   * node, or cleared it for a higher-priority pod). The pod stays where it is. Works after {@link #close()}
   * too. Never blocks.
   */
  public void clearNomination(String uid) {
    Objects.requireNonNull(uid, "uid");
    underLock(() -> {
      queue.clearNomination(uid);
      return null;
    });
  }

  /**
   * A status-only update of a known pod (kube-scheduler does not requeue for those): the queue keeps this
   * version of its {@link PodInfo} (its priority, gates and ordering as before) without moving it, and
   * applies the nomination rule of {@link #add} to it. A pod the queue does not know, or could not read, is
   * left alone (an unreadable one is nominated nowhere). Ignored once closed. Never blocks.
   */
  public void observe(PodInfo pod) {
    Objects.requireNonNull(pod, "pod");
    underLock(() -> {
      queue.observe(pod);
      return null;
    });
  }

  /**
   * Marks a known pod as preempting (kube's async preemption: its DefaultPreemption PreEnqueue answers
   * {@code waiting for the preemption for this pod to be finished}): until {@link #releasePreemption} or
   * {@link #delete}, it is never handed out. A pod in flight stays there (its requeue will hold it); a
   * waiting pod is held at once, counted as unschedulable, and if it was active or in backoff its move is
   * remembered. Idempotent; nothing happens for an unknown pod. Ignored once closed. Never blocks.
   */
  public void holdForPreemption(String uid) {
    Objects.requireNonNull(uid, "uid");
    underLock(() -> queue.hold(uid));
  }

  /**
   * Lifts the preempting mark (the victims are gone, or their deletion started, or it failed). A held pod
   * goes to gated if it has scheduling gates; else, with {@code activate}, to active at once (kube's {@code
   * Activate}, after a preemption error: the pod must not wait for an event that will not come), its
   * backoff notwithstanding; else to backoff or active if a move was remembered while it was held or its
   * unschedulable timeout has passed, and back to unschedulable otherwise. A pod in flight: with {@code
   * activate} its requeue after a failed attempt goes to backoff or active, not unschedulable. Without a
   * mark, {@code activate} still moves an unschedulable or backing-off pod to active. Nothing happens for an
   * unknown pod. Ignored once closed. Never blocks.
   *
   * @param activate whether to retry the pod now rather than as events and timeouts decide
   */
  public void releasePreemption(String uid, boolean activate) {
    Objects.requireNonNull(uid, "uid");
    underLock(() -> signalIf(queue.release(uid, activate)));
  }

  /** @return whether the known pod of {@code uid} is marked as preempting; false for an unknown pod */
  public boolean preempting(String uid) {
    Objects.requireNonNull(uid, "uid");
    return underLock(() -> queue.preempting(uid));
  }

  /** @return how many pods are in each sub-queue and in flight (held pods as unschedulable); for metrics */
  public QueueDepths depths() {
    return underLock(queue::depths);
  }

  /** @return how many pods wait in the four sub-queues, not counting those in flight */
  public int size() {
    return depths().waiting();
  }

  /**
   * @return which pods are where, each sub-queue in its order (held pods among the unschedulable ones); for
   *     tests and debugging
   */
  public QueueContents contents() {
    return underLock(queue::contents);
  }

  /**
   * Wakes {@link #take()} for good: it returns null from now on, and the queue accepts nothing more; only
   * {@link #delete}, {@link #done} and {@link #clearNomination} still forget. {@link #nominations()} and
   * {@link #preempting} answer as things stood.
   */
  public void close() {
    underLock(() -> {
      queue.close();
      return signalIf(true);
    });
  }

  /**
   * kube-scheduler's backoff: {@code initialNanos} doubled per failure after the first, at most
   * {@code maxNanos}; none before the first failure.
   */
  public static long backoffNanos(long initialNanos, long maxNanos, int failures) {
    return BackoffQueue.backoffNanos(initialNanos, maxNanos, failures);
  }

  private int move(
      ClusterEvent event, boolean onlyWaitingForPods, BiPredicate<QueuedPod, QueueingHint> helps, boolean clusterChange) {
    Objects.requireNonNull(event, "event");
    return underLock(() -> signalIf(queue.move(event.label(), onlyWaitingForPods, helps, clusterChange)));
  }

  private <T> T underLock(Supplier<T> action) {
    lock.lock();
    try {
      return action.get();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Wakes the threads waiting in {@link #take()} if {@code changed}; called under the lock.
   *
   * @return {@code changed}
   */
  private boolean signalIf(boolean changed) {
    if (changed) {
      this.changed.signalAll();
    }
    return changed;
  }

  /**
   * As {@link #signalIf(boolean)}, for a count of pods moved.
   *
   * @return {@code moved}
   */
  private int signalIf(int moved) {
    signalIf(moved > 0);
    return moved;
  }
}
