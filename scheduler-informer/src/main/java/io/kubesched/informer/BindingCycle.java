package io.kubesched.informer;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulerException;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.api.SchedulerMetrics.Result;
import io.kubesched.binder.BindOutcome;
import io.kubesched.binder.TokenBucket;
import io.kubesched.engine.QueuedPod;
import io.kubesched.engine.SchedulerCache;
import io.kubesched.engine.SchedulingQueue;
import io.kubesched.engine.Ticker;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The binding cycle, as kube-scheduler's {@code bindingCycle}: writes the binding the {@link SchedulingCycle}
 * chose, off the scheduling thread, at most {@code parallelBindings} at once, each taking a token of the
 * write rate limit. A pod bound is done; a pod bound elsewhere or gone is left; a binding that failed
 * forgets the assumption and requeues the pod after backoff, remembering the node in the pod's progress in
 * case the write had landed after all (the {@link EventHandlers} see it then).
 *
 * <p>{@link #submit} is called from the scheduling thread and blocks while every slot is taken; the
 * bindings run on the {@code binders} executor.
 */
final class BindingCycle {

  private static final Logger LOG = LoggerFactory.getLogger(BindingCycle.class);

  private final BindPort port;
  private final TokenBucket writes;
  private final Executor binders;
  private final Semaphore slots;
  private final SchedulingQueue queue;
  private final SchedulerCache cache;
  private final Reporting reporting;
  private final SchedulerMetrics metrics;
  private final Ticker ticker;

  BindingCycle(
      BindPort port,
      TokenBucket writes,
      Executor binders,
      int parallelBindings,
      SchedulingQueue queue,
      SchedulerCache cache,
      Reporting reporting,
      SchedulerMetrics metrics,
      Ticker ticker) {
    this.port = port;
    this.writes = writes;
    this.binders = binders;
    this.slots = new Semaphore(parallelBindings);
    this.queue = queue;
    this.cache = cache;
    this.reporting = reporting;
    this.metrics = metrics;
    this.ticker = ticker;
  }

  /**
   * Hands an assumed pod to a binding thread, waiting for a free slot first.
   *
   * @param startedNanos when the pod was taken off the queue, for the attempt's duration
   * @throws InterruptedException if the scheduling thread is interrupted while it waits for a slot
   */
  void submit(QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos)
      throws InterruptedException {
    slots.acquire();
    try {
      binders.execute(() -> bindAndRelease(item, pod, info, nodeName, startedNanos));
    } catch (RejectedExecutionException closing) {
      slots.release();
      cache.forget(item.uid());
    }
  }

  private void bindAndRelease(QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos) {
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
      slots.release();
    }
  }

  private void bind(QueuedPod item, Pod pod, PodInfo info, String nodeName, long startedNanos)
      throws InterruptedException {
    writes.acquire();
    long bindStart = ticker.nanoTime();
    var outcome = port.bind(pod, nodeName);
    long now = ticker.nanoTime();
    metrics.bound(item.profile(), Duration.ofNanos(now - bindStart), outcome instanceof BindOutcome.Bound);
    if (outcome instanceof BindOutcome.Bound) {
      cache.finishBinding(item.uid());
      queue.done(item.uid());
      metrics.attempt(item.profile(), Result.SCHEDULED, Duration.ofNanos(now - startedNanos));
      var progress = item.progress();
      metrics.scheduled(progress.attempts(), Duration.ofNanos(now - progress.initialAttemptNanos()));
      reporting.scheduled(item, pod, info, nodeName);
      return;
    }
    cache.forget(item.uid());
    if (outcome instanceof BindOutcome.Conflict conflict) {
      queue.done(item.uid());
      LOG.info("Pod {} was bound to {} by someone else; leaving it there", item.key(), conflict.actualNode());
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
