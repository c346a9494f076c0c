package io.kubesched.informer.cycle;

import io.kubesched.api.PodInfo;
import io.kubesched.binder.Preempter;
import io.kubesched.binder.VictimOutcome;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acts on a preemption decision, as kube-scheduler's asynchronous preemption executor (feature {@code
 * SchedulerAsyncPreemption}, on by default since 1.33): the scheduling thread hands over the chosen node and
 * victims and goes on at once; a preemption thread clears the nominations of lower-priority pods on that node,
 * then marks each victim with the {@code DisruptionTarget} condition and deletes it (with its uid as
 * precondition), the last one after all others, and tells each victim why in a {@code Preempted} event.
 *
 * <p>While this runs the preemptor is held in the queue ({@link SchedulingQueue#holdForPreemption}): it is
 * not tried again until the victims' deletion calls are done and the watch shows the last victim terminating
 * or gone (kube-scheduler's {@code IsPodRunningPreemption}), so it cannot preempt twice for one node, nor be
 * tried on a cache that still counts its victims as running. Then it is released, and goes where the events
 * that came meanwhile (the victims' deletion) send it; if a call failed it is activated at once, to be tried
 * again.
 *
 * <p>Victims already terminating are not written to again; when all are, nothing is done (kube-scheduler then
 * clears no other nomination either). A victim this loop is still binding is deleted
 * through the API server too (kube-scheduler rejects such a pod in memory only while it waits in PreBind or
 * Permit; here the binding then fails and is forgotten).
 *
 * <p>{@link #preempt} is called from the scheduling thread; the writes run on the {@code preemptors}
 * executor, one task per preemptor. As kube-scheduler's executor ({@code prepareCandidateAsync}), a
 * preemptor's victims but the last are deleted at once, each on a thread of the {@code victims} executor; once
 * all of them are done, the last one is, from the preemptor's own task. When a deletion fails, the deletions not
 * yet started are not made, the last victim is spared and the preemptor is tried again at once.
 */
public final class PreemptionCycle {

  private static final Logger LOG = LoggerFactory.getLogger(PreemptionCycle.class);

  private final PreemptPort port;
  private final Executor preemptors;
  private final Executor victims;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final Reporting reporting;
  /**
   * The preemptors whose victims are deleted but whose last victim the cache still holds as running, by that
   * victim's uid: released when the watch shows it terminating or gone ({@link #boundPodLeaving}), as
   * kube-scheduler's {@code IsPodRunningPreemption} watches its last victim, so that the preemptor is not
   * tried on a cache that still counts its victims. Two preemptors racing for one node can share their last
   * victim (the second chose it before the first one's deletion reached the cache): both wait for it.
   */
  private final Map<String, Set<String>> preemptorsByLastVictim = new ConcurrentHashMap<>();

  /**
   * @param preemptors runs one task per preemptor
   * @param victims runs the deletions of a preemptor's victims but the last, each its own task; not the
   *     {@code preemptors} executor if that is bounded (a preemptor's task waits for them)
   */
  public PreemptionCycle(
      PreemptPort port, Executor preemptors, Executor victims, SchedulingQueue queue, SchedulerCache cache,
      Reporting reporting) {
    this.port = port;
    this.preemptors = preemptors;
    this.victims = victims;
    this.queue = queue;
    this.cache = cache;
    this.reporting = reporting;
  }

  /**
   * The watch showed the pod of {@code uid}, on a node, terminating or gone, and the cache knows it: if it is
   * a preemptor's last victim, the preemptor is released. From an informer thread.
   */
  public void boundPodLeaving(String uid) {
    var preemptors = preemptorsByLastVictim.remove(uid);
    if (preemptors != null) {
      preemptors.forEach(preemptor -> queue.releasePreemption(preemptor, false));
    }
  }

  /**
   * Releases the preemptors whose last victim the cache no longer holds as running though no event said so
   * (a relist dropped it); from the housekeeping thread, each second.
   */
  public void checkHeld() {
    preemptorsByLastVictim.keySet().forEach(victim -> {
      if (leftTheCache(victim)) {
        boundPodLeaving(victim);
      }
    });
  }

  private boolean leftTheCache(String victimUid) {
    var cached = cache.pod(victimUid);
    return cached == null || cached.terminating();
  }

  /**
   * Starts evicting {@code victims} from {@code nodeName} for {@code preemptor}, whose nomination the caller
   * has already recorded in the queue.
   *
   * @param preemptor the preemptor's attempt, its pod nominated to {@code nodeName} (in flight: the caller
   *     requeues it after this returns); its object is what the events name
   * @param victims the pods to evict, most important first
   * @param lowerNominated the pods of lower priority than the preemptor nominated to {@code nodeName}: they lose
   *     their nomination, as the room is no longer theirs
   */
  void preempt(Attempt attempt, String nodeName, List<PodInfo> victims, List<PodInfo> lowerNominated) {
    var preemptor = attempt.info();
    var toDelete = new ArrayList<PodInfo>();
    for (var victim : victims) {
      if (victim.terminating()) {
        PodLog.of(LOG.atDebug(), attempt.item(), nodeName).addKeyValue("victim", victim.key())
            .log("Victim {} of {} is already being deleted", victim.key(), preemptor.key());
      } else {
        toDelete.add(victim);
      }
    }
    if (toDelete.isEmpty()) {
      return; // as kube-scheduler: nothing to write, and the nominations of others are left as they are
    }
    lowerNominated.forEach(p -> queue.clearNomination(p.uid()));
    queue.holdForPreemption(preemptor.uid());
    PodLog.of(LOG.atInfo(), attempt.item(), nodeName).log("Preempting {} pod(s) on {} for {}: {}", toDelete.size(),
        nodeName, preemptor.key(), toDelete.stream().map(PodInfo::key).toList());
    try {
      preemptors.execute(() -> run(attempt, nodeName, toDelete, lowerNominated));
    } catch (RejectedExecutionException closing) {
      queue.releasePreemption(preemptor.uid(), false);
    }
  }

  private void run(Attempt attempt, String nodeName, List<PodInfo> victims, List<PodInfo> lowerNominated) {
    var preemptor = attempt.info();
    boolean failed = false;
    boolean waitsForLast = false;
    try {
      for (var nominated : lowerNominated) {
        if (!nominated.nominatedNodeName().isEmpty()) {
          port.clearNomination(nominated);
        }
      }
      var message = Preempter.conditionMessage(preemptor.schedulerName());
      var lastVictim = victims.get(victims.size() - 1);
      failed = !evictAtOnce(attempt, nodeName, victims.subList(0, victims.size() - 1), message)
          || !evict(attempt, nodeName, lastVictim, message);
      if (!failed) {
        var last = lastVictim.uid();
        preemptorsByLastVictim.merge(last, Set.of(preemptor.uid()), PreemptionCycle::union);
        waitsForLast = true;
        if (leftTheCache(last)) { // the watch was faster than this thread
          boundPodLeaving(last);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (RuntimeException e) {
      PodLog.of(LOG.atWarn(), attempt.item(), nodeName).setCause(e)
          .log("Preemption for {} on {} failed", preemptor.key(), nodeName);
      failed = true;
    } finally {
      if (!waitsForLast) {
        queue.releasePreemption(preemptor.uid(), failed);
      }
    }
  }

  /**
   * @return a new set of both: a set {@link #boundPodLeaving} removed is never changed after (merge and remove
   *     are atomic on a {@link ConcurrentHashMap}, so a preemptor added is either in the set removed or waits
   *     in the map, where its own check after adding finds it)
   */
  private static Set<String> union(Set<String> waiting, Set<String> more) {
    var all = new HashSet<>(waiting);
    all.addAll(more);
    return Set.copyOf(all);
  }

  /**
   * Deletes {@code some} victims at once on the {@code victims} executor and waits for all of them; after a
   * failure, those not started yet are skipped.
   *
   * @return whether every deletion made succeeded
   */
  private boolean evictAtOnce(Attempt attempt, String nodeName, List<PodInfo> some, String message)
      throws InterruptedException {
    if (some.isEmpty()) {
      return true;
    }
    var ok = new AtomicBoolean(true);
    var done = new CountDownLatch(some.size());
    for (var victim : some) {
      Runnable deletion =
          () -> {
            try {
              if (ok.get() && !evict(attempt, nodeName, victim, message)) {
                ok.set(false);
              }
            } catch (InterruptedException e) {
              ok.set(false);
              Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
              ok.set(false);
              PodLog.of(LOG.atWarn(), attempt.item(), nodeName).addKeyValue("victim", victim.key()).setCause(e)
                  .log("Could not preempt {} for {}", victim.key(), attempt.info().key());
            } finally {
              done.countDown();
            }
          };
      try {
        victims.execute(deletion);
      } catch (RejectedExecutionException closing) {
        ok.set(false);
        done.countDown();
      }
    }
    try {
      done.await();
    } catch (InterruptedException e) {
      ok.set(false); // the deletions not started yet are skipped
      throw e;
    }
    return ok.get();
  }

  /** @return whether the victim was deleted, or was gone already */
  private boolean evict(Attempt attempt, String nodeName, PodInfo victim, String message)
      throws InterruptedException {
    var outcome = port.preempt(victim, message);
    if (outcome instanceof VictimOutcome.Failed failure) {
      PodLog.of(LOG.atWarn(), attempt.item(), nodeName).addKeyValue("victim", victim.key())
          .log("Could not preempt {} for {}: {}", victim.key(), attempt.info().key(), failure.message());
      return false;
    }
    if (outcome == VictimOutcome.DELETED) {
      reporting.preempted(attempt, PreemptPort.reference(victim), nodeName);
    }
    return true;
  }
}
