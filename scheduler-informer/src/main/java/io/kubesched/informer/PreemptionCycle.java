package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.PodInfo;
import io.kubesched.binder.Preempter;
import io.kubesched.binder.VictimOutcome;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
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
 * executor, one task per preemptor, its victims deleted one after another.
 */
final class PreemptionCycle {

  private static final Logger LOG = LoggerFactory.getLogger(PreemptionCycle.class);

  private final PreemptPort port;
  private final Executor preemptors;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final Reporting reporting;
  /**
   * The preemptors whose victims are deleted but whose last victim the cache still holds as running, by that
   * victim's uid: released when the watch shows it terminating or gone ({@link #boundPodLeaving}), as
   * kube-scheduler's {@code IsPodRunningPreemption} watches its last victim, so that the preemptor is not
   * tried on a cache that still counts its victims.
   */
  private final Map<String, String> preemptorByLastVictim = new ConcurrentHashMap<>();

  PreemptionCycle(
      PreemptPort port, Executor preemptors, SchedulingQueue queue, SchedulerCache cache, Reporting reporting) {
    this.port = port;
    this.preemptors = preemptors;
    this.queue = queue;
    this.cache = cache;
    this.reporting = reporting;
  }

  /**
   * The watch showed the pod of {@code uid}, on a node, terminating or gone, and the cache knows it: if it is
   * a preemptor's last victim, the preemptor is released. From an informer thread.
   */
  void boundPodLeaving(String uid) {
    var preemptor = preemptorByLastVictim.remove(uid);
    if (preemptor != null) {
      queue.releasePreemption(preemptor, false);
    }
  }

  /**
   * Releases the preemptors whose last victim the cache no longer holds as running though no event said so
   * (a relist dropped it); from the housekeeping thread, each second.
   */
  void checkHeld() {
    preemptorByLastVictim.keySet().forEach(victim -> {
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
   * @param item the preemptor's queue item (in flight: the caller requeues it after this returns)
   * @param pod the preemptor's object, for the events
   * @param preemptor the preemptor
   * @param victims the pods to evict, most important first
   * @param lowerNominated the pods of lower priority than the preemptor nominated to {@code nodeName}: they lose
   *     their nomination, as the room is no longer theirs
   */
  void preempt(
      QueuedPod item, Pod pod, PodInfo preemptor, String nodeName, List<PodInfo> victims, List<PodInfo> lowerNominated) {
    var toDelete = new ArrayList<PodInfo>();
    for (var victim : victims) {
      if (victim.terminating()) {
        LOG.debug("Victim {} of {} is already being deleted", victim.key(), preemptor.key());
      } else {
        toDelete.add(victim);
      }
    }
    if (toDelete.isEmpty()) {
      return; // as kube-scheduler: nothing to write, and the nominations of others are left as they are
    }
    lowerNominated.forEach(p -> queue.clearNomination(p.uid()));
    queue.holdForPreemption(preemptor.uid());
    LOG.info("Preempting {} pod(s) on {} for {}: {}", toDelete.size(), nodeName, preemptor.key(),
        toDelete.stream().map(PodInfo::key).toList());
    try {
      preemptors.execute(() -> run(item, pod, preemptor, nodeName, toDelete, lowerNominated));
    } catch (RejectedExecutionException closing) {
      queue.releasePreemption(preemptor.uid(), false);
    }
  }

  private void run(
      QueuedPod item, Pod pod, PodInfo preemptor, String nodeName, List<PodInfo> victims, List<PodInfo> lowerNominated) {
    boolean failed = false;
    boolean waitsForLast = false;
    try {
      for (var nominated : lowerNominated) {
        if (!nominated.nominatedNodeName().isEmpty()) {
          port.clearNomination(nominated);
        }
      }
      var message = Preempter.conditionMessage(preemptor.schedulerName());
      for (var victim : victims) {
        var outcome = port.preempt(victim, message);
        if (outcome instanceof VictimOutcome.Failed failure) {
          LOG.warn("Could not preempt {} for {}: {}", victim.key(), preemptor.key(), failure.message());
          failed = true;
          break; // as kube-scheduler, the remaining victims are spared and the preemptor tries again at once
        }
        if (outcome == VictimOutcome.DELETED) {
          reporting.preempted(item, victim, pod, nodeName);
        }
      }
      if (!failed) {
        var last = victims.get(victims.size() - 1).uid();
        preemptorByLastVictim.put(last, preemptor.uid());
        waitsForLast = true;
        if (leftTheCache(last)) { // the watch was faster than this thread
          boundPodLeaving(last);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (RuntimeException e) {
      LOG.warn("Preemption for {} on {} failed", preemptor.key(), nodeName, e);
      failed = true;
    } finally {
      if (!waitsForLast) {
        queue.releasePreemption(preemptor.uid(), failed);
      }
    }
  }
}
