package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.VolumeBinding;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.TokenBucket;
import io.kubesched.binder.VolumeOutcome;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.StorageCache;
import io.kubesched.engine.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The binding cycle, as kube-scheduler's {@code bindingCycle}: writes the binding the {@link SchedulingCycle}
 * chose, off the scheduling thread, at most {@code parallelBindings} at once, each taking a token of the
 * write rate limit. A pod bound is done; a pod bound elsewhere or gone is left; a binding that failed
 * forgets the assumption and requeues the pod after backoff, remembering the node in the pod's progress in
 * case the write had landed after all (the {@linkplain io.kubesched.informer.watch.EventHandlers event handlers} see it then).
 *
 * <p>A pod with volume bindings first goes through kube's VolumeBinding PreBind: its volumes' {@code
 * claimRef}s and its claims' selected nodes are written ({@link VolumePort}), then the pod waits, up to {@code
 * volumeBindingTimeout}, until the PersistentVolume controller and the provisioners have bound its claims
 * ({@link VolumeBindingCheck}); only then is the pod bound.
 *
 * <p>The wait holds neither a binding slot nor a thread. kube-scheduler's PreBind blocks a goroutine for up
 * to ten minutes, which costs Go little; a thread of the bounded pool blocked per pod waiting for a
 * provisioner would stop every other pod's binding once {@code parallelBindings} pods wait. So the writes take
 * a slot for as long as they last, the pod is then parked among the waiting ones, and {@link
 * #checkVolumeWaits} checks each waiting pod against what the informers show. It is called every second by
 * the loop's housekeeping thread, as kube polls every second; the storage informers' handlers may call it too,
 * on each claim and volume event, for a quicker answer. A pod found done is handed back to the binding pool;
 * one that failed or timed out is undone (its reservation released, its assumption forgotten), requeued after
 * backoff and reported as kube reports a PreBind failure ({@code running PreBind plugin "VolumeBinding":
 * ...}). A pod deleted or bound elsewhere while it waits is dropped at the next check.
 *
 * <p>{@link #submit} is called from the scheduling thread and blocks while every slot is taken; the
 * bindings run on the {@code binders} executor; {@link #checkVolumeWaits} may be called from any thread.
 */
public final class BindingCycle {

  private static final Logger LOG = LoggerFactory.getLogger(BindingCycle.class);

  /** The plugin kube-scheduler names in a PreBind failure. */
  static final String PRE_BIND_FAILED = "running PreBind plugin \"VolumeBinding\": ";

  /** How many times a group member's failed binding is retried onto its node before its group is released. */
  public static final int GROUP_BIND_RETRIES = 2;

  /** The wait before the first retry of a group member's binding; doubled before each further one. */
  public static final Duration GROUP_BIND_RETRY_DELAY = Duration.ofMillis(200);

  private final Duration groupBindRetryDelay;

  private final BindPort port;
  private final VolumePort volumes;
  private final TokenBucket writes;
  private final Executor binders;
  private final Semaphore slots;
  private final Duration volumeBindingTimeout;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final StorageCache storage;
  private final PendingPodLookup pending;
  private final Reporting reporting;
  private final SchedulerMetrics metrics;
  private final Ticker ticker;
  /** The pods whose volume bindings are written and awaited, by uid. */
  private final Map<String, VolumeWait> waiting = new ConcurrentHashMap<>();

  /** One pod waiting for its volumes; checked by one thread at a time. */
  private record VolumeWait(
      QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos, long deadlineNanos,
      VolumeBindingCheck check) {}

  /**
   * @param pending the pod of a uid while it is pending and ours; null once it is deleted or bound
   * @param groupBindRetryDelay the wait before a group member's failed binding is first retried ({@link
   *     #GROUP_BIND_RETRY_DELAY} in the running loop)
   */
  public BindingCycle(
      BindPort port,
      VolumePort volumes,
      TokenBucket writes,
      Executor binders,
      int parallelBindings,
      Duration volumeBindingTimeout,
      SchedulingQueue queue,
      SchedulerCache cache,
      StorageCache storage,
      PendingPodLookup pending,
      Reporting reporting,
      SchedulerMetrics metrics,
      Ticker ticker,
      Duration groupBindRetryDelay) {
    this.groupBindRetryDelay = groupBindRetryDelay;
    this.port = port;
    this.volumes = volumes;
    this.writes = writes;
    this.binders = binders;
    this.slots = new Semaphore(parallelBindings);
    this.volumeBindingTimeout = volumeBindingTimeout;
    this.queue = queue;
    this.cache = cache;
    this.storage = storage;
    this.pending = pending;
    this.reporting = reporting;
    this.metrics = metrics;
    this.ticker = ticker;
  }

  /**
   * Hands an assumed pod to a binding thread, waiting for a free slot first.
   *
   * @param volumeBindings what to write before the pod is bound, already reserved in the {@link StorageCache};
   *     empty for none
   * @param startedNanos when the pod was taken off the queue, for the attempt's duration
   * @throws InterruptedException if the scheduling thread is interrupted while it waits for a slot
   */
  void submit(
      QueuedPod item, Pod pod, PodInfo info, String nodeName, List<VolumeBinding> volumeBindings, long startedNanos)
      throws InterruptedException {
    submit(item, pod, info, nodeName, volumeBindings, startedNanos, null);
  }

  /**
   * Hands an assumed member of a placed pod group to a binding thread, waiting for a free slot first. A failed
   * binding is retried onto the same node ({@link #GROUP_BIND_RETRIES} times, after the loop's retry delay,
   * doubled each time); if it still fails, or the member is gone, the {@code group} is released: its members not
   * bound yet give up their assumptions and go back to the queue.
   *
   * @param group the group's bindings; null for a pod placed on its own (no volume bindings with a group)
   * @throws InterruptedException if the scheduling thread is interrupted while it waits for a slot
   */
  void submit(
      QueuedPod item,
      Pod pod,
      PodInfo info,
      String nodeName,
      List<VolumeBinding> volumeBindings,
      long startedNanos,
      @Nullable GroupBinding group)
      throws InterruptedException {
    slots.acquire();
    try {
      binders.execute(() -> {
        try {
          if (group != null) {
            bindMember(item, pod, info, nodeName, startedNanos, group);
          } else if (volumeBindings.isEmpty()) {
            bindPod(item, pod, info, nodeName, startedNanos);
          } else {
            preBind(item, pod, info, nodeName, volumeBindings, startedNanos);
          }
        } finally {
          slots.release();
        }
      });
    } catch (RejectedExecutionException closing) {
      slots.release();
      undo(item.uid());
      if (group != null) {
        group.finished(item.uid(), false);
      }
    }
  }

  /** @return how many binding slots are free now (a pod waiting for its volumes holds none) */
  public int freeSlots() {
    return slots.availablePermits();
  }

  /** @return how many pods wait for their volumes to be bound */
  public int volumeWaits() {
    return waiting.size();
  }

  /**
   * Checks every pod waiting for its volumes: binds those whose claims are bound, undoes and requeues those
   * whose binding failed, timed out, or that are gone. Cheap (no API request); callable from any thread, at
   * any time: on a timer, and on every claim and volume event.
   */
  public void checkVolumeWaits() {
    for (var wait : waiting.values()) {
      try {
        check(wait);
      } catch (RuntimeException e) {
        if (waiting.remove(wait.item().uid(), wait)) {
          undo(wait.item().uid());
          LOG.error("Unexpected failure checking the volumes of pod {}; it will be retried", wait.item().key(), e);
          queue.requeueAfterError(wait.item());
        }
      }
    }
  }

  /** Writes the volume bindings (kube's {@code bindAPIUpdate}), then parks the pod until they are carried out. */
  private void preBind(
      QueuedPod item, Pod pod, PodInfo info, String nodeName, List<VolumeBinding> bindings, long startedNanos) {
    try {
      for (var binding : bindings) {
        var outcome =
            binding instanceof VolumeBinding.Static bound
                ? volumes.bindVolume(
                    bound.volumeName(), bound.claimNamespace(), bound.claimName(), bound.claimUid())
                : volumes.selectNode(
                    binding.claimNamespace(), binding.claimName(),
                    ((VolumeBinding.Provision) binding).claimUid(), nodeName);
        if (outcome instanceof VolumeOutcome.Failed failed) {
          preBindFailed(item, pod, nodeName, startedNanos, failed.detail());
          return;
        }
      }
    } catch (InterruptedException e) {
      undo(item.uid()); // shutting down: the pod stays pending for the next scheduler
      Thread.currentThread().interrupt();
      return;
    } catch (RuntimeException e) {
      undo(item.uid());
      LOG.error("Unexpected failure binding the volumes of pod {}; it will be retried", item.key(), e);
      queue.requeueAfterError(item);
      return;
    }
    var wait =
        new VolumeWait(
            item, pod, info, nodeName, startedNanos, ticker.nanoTime() + volumeBindingTimeout.toNanos(),
            new VolumeBindingCheck(nodeName, bindings));
    waiting.put(item.uid(), wait);
    LOG.debug("Waiting for the volumes of pod {} to be bound", item.key());
    check(wait);
  }

  private void check(VolumeWait wait) {
    synchronized (wait) {
      if (waiting.get(wait.item().uid()) != wait) {
        return; // finished by another thread
      }
      var uid = wait.item().uid();
      if (pending.pendingPod(uid) == null) {
        waiting.remove(uid, wait);
        undo(uid);
        queue.done(uid);
        LOG.info("Stopped binding the volumes of pod {}: it was deleted or bound elsewhere", wait.item().key());
        return;
      }
      var node = cache.nodes().node(wait.nodeName());
      VolumeBindingCheck.Result result =
          node == null
              ? new VolumeBindingCheck.Result.Failed(
                  "failed to get node \"" + wait.nodeName() + "\": node \"" + wait.nodeName() + "\" not found")
              : wait.check().check(storage, node.labels());
      if (result instanceof VolumeBindingCheck.Result.Pending) {
        if (ticker.nanoTime() - wait.deadlineNanos() < 0) {
          return;
        }
        result = new VolumeBindingCheck.Result.Failed("context deadline exceeded");
      }
      waiting.remove(uid, wait);
      if (result instanceof VolumeBindingCheck.Result.Failed failed) {
        var detail = "binding volumes: " + failed.message();
        preBindFailed(wait.item(), wait.pod(), wait.nodeName(), wait.startedNanos(), detail);
        return;
      }
    }
    LOG.debug("The volumes of pod {} are bound", wait.item().key());
    try {
      binders.execute(() -> bindPod(wait.item(), wait.pod(), wait.info(), wait.nodeName(), wait.startedNanos()));
    } catch (RejectedExecutionException closing) {
      undo(wait.item().uid());
    }
  }

  /** kube's Unreserve after a failed PreBind, then the pod back to the queue after backoff. */
  private void preBindFailed(QueuedPod item, Pod pod, String nodeName, long startedNanos, String detail) {
    undo(item.uid());
    var error = new SchedulerException(PRE_BIND_FAILED + detail);
    LOG.warn("Binding the volumes of pod {} for node {} failed: {}; retrying after backoff", item.key(), nodeName,
        error.getMessage());
    queue.requeueAfterError(item);
    metrics.attempt(item.profile(), Result.ERROR, Duration.ofNanos(ticker.nanoTime() - startedNanos));
    var current = pending.pendingPod(item.uid());
    reporting.failed(item, current == null ? pod : current, error);
  }

  /** Unreserve: releases the pod's volume reservation and forgets its assumption. */
  private void undo(String uid) {
    storage.release(uid);
    cache.forget(uid);
  }

  private void bindPod(QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos) {
    try {
      bind(item, pod, info, nodeName, startedNanos);
    } catch (InterruptedException e) {
      cache.forget(item.uid()); // shutting down: the pod stays pending for the next scheduler
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      cache.forget(item.uid());
      LOG.error("Unexpected failure binding pod {}; it will be retried", item.key(), e);
      queue.requeueAfterError(item);
    } finally {
      // Bound: the informers show its claims bound already (the wait saw them), the overlay is not needed.
      storage.release(item.uid());
    }
  }

  /**
   * Binds a member of a placed group: as {@link #bindPod}, but given up at once if its group was released, and a
   * failed binding retried onto the same node before the group is released.
   */
  private void bindMember(
      QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos, GroupBinding group) {
    boolean bound = false;
    try {
      if (!group.start(item.uid())) {
        cache.forget(item.uid());
        LOG.info("Not binding pod {}: another member of its group {} could not be bound", item.key(),
            group.group().key());
        queue.requeueAfterError(item);
        return;
      }
      var outcome = bindWithRetries(item, pod, nodeName, group);
      bound = outcome instanceof BindOutcome.Bound || outcome instanceof BindOutcome.Conflict;
      if (!bound) {
        group.release();
      }
      settle(item, pod, info, nodeName, startedNanos, outcome);
    } catch (InterruptedException e) {
      cache.forget(item.uid()); // shutting down: the pod stays pending for the next scheduler
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      cache.forget(item.uid());
      group.release();
      LOG.error("Unexpected failure binding pod {}; it will be retried", item.key(), e);
      queue.requeueAfterError(item);
    } finally {
      group.finished(item.uid(), bound);
    }
  }

  private BindOutcome bindWithRetries(QueuedPod item, Pod pod, String nodeName, GroupBinding group)
      throws InterruptedException {
    var delay = groupBindRetryDelay;
    for (int retry = 0; ; retry++) {
      writes.acquire();
      long bindStart = ticker.nanoTime();
      var outcome = port.bind(pod, nodeName);
      metrics.bound(
          item.profile(), Duration.ofNanos(ticker.nanoTime() - bindStart), outcome instanceof BindOutcome.Bound);
      if (!(outcome instanceof BindOutcome.Failed failed) || retry == GROUP_BIND_RETRIES || group.isReleased()) {
        return outcome;
      }
      LOG.info("Binding pod {} of group {} to {} failed ({}); retrying onto the same node in {} ms", item.key(),
          group.group().key(), nodeName, failed.detail(), delay.toMillis());
      Thread.sleep(delay.toMillis());
      delay = delay.multipliedBy(2);
    }
  }

  private void bind(QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos)
      throws InterruptedException {
    writes.acquire();
    long bindStart = ticker.nanoTime();
    var outcome = port.bind(pod, nodeName);
    metrics.bound(
        item.profile(), Duration.ofNanos(ticker.nanoTime() - bindStart), outcome instanceof BindOutcome.Bound);
    settle(item, pod, info, nodeName, startedNanos, outcome);
  }

  /** Acts on a binding's outcome: done if bound (by us or another), else the assumption forgotten. */
  private void settle(
      QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos, BindOutcome outcome) {
    long now = ticker.nanoTime();
    // Whoever takes the pod out of the queue tells the listener of a binding whose answer was lost: the watch
    // if it sees the pod there first (it has told it then), else this attempt.
    var unconfirmed = item.progress().unconfirmedNode();
    if (outcome instanceof BindOutcome.Bound) {
      cache.finishBinding(item.uid());
      boolean watchTookIt = !queue.done(item.uid()) && nodeName.equals(unconfirmed);
      metrics.attempt(item.profile(), Result.SCHEDULED, Duration.ofNanos(now - startedNanos));
      var progress = item.progress();
      metrics.scheduled(progress.attempts(), Duration.ofNanos(now - progress.initialAttemptNanos()));
      reporting.scheduled(item, pod, info, nodeName, !watchTookIt);
      return;
    }
    cache.forget(item.uid());
    if (outcome instanceof BindOutcome.Conflict conflict) {
      boolean known = queue.done(item.uid());
      if (known && conflict.actualNode().equals(unconfirmed)) {
        reporting.lateBinding(info, unconfirmed);
      } else {
        LOG.info("Pod {} was bound to {} by someone else; leaving it there", item.key(), conflict.actualNode());
      }
    } else if (outcome instanceof BindOutcome.PodGone gone) {
      queue.done(item.uid());
      LOG.info("Not binding pod {}: {}", item.key(), gone.detail());
    } else if (outcome instanceof BindOutcome.Failed failed) {
      var error =
          new SchedulerException(
              "binding pod " + item.key() + " to node " + nodeName + " failed: " + failed.detail());
      LOG.warn("{}; retrying after backoff", error.getMessage());
      queue.requeueAfterError(item.withProgress(item.progress().withUnconfirmedNode(nodeName)));
      metrics.attempt(item.profile(), Result.ERROR, Duration.ofNanos(ticker.nanoTime() - startedNanos));
      reporting.failed(item, pod, error);
    }
  }
}
