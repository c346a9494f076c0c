package io.kubesched.informer.report;

import io.kubesched.api.SchedulerMetrics;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the promise of {@link SchedulerMetrics}: a call that throws is logged and otherwise ignored, so a
 * broken metrics implementation never stops a scheduling or binding cycle.
 */
public final class GuardedMetrics implements SchedulerMetrics {

  private static final Logger LOG = LoggerFactory.getLogger(GuardedMetrics.class);

  private final SchedulerMetrics delegate;

  public GuardedMetrics(SchedulerMetrics delegate) {
    this.delegate = delegate;
  }

  @Override
  public void algorithm(Duration took) {
    guard(() -> delegate.algorithm(took));
  }

  @Override
  public void attempt(String profile, Result result, Duration took) {
    guard(() -> delegate.attempt(profile, result, took));
  }

  @Override
  public void scheduled(int attempts, Duration sinceFirstQueued) {
    guard(() -> delegate.scheduled(attempts, sinceFirstQueued));
  }

  @Override
  public void bound(String profile, Duration took, boolean success) {
    guard(() -> delegate.bound(profile, took, success));
  }

  @Override
  public void pendingPods(Supplier<PendingPods> pending) {
    guard(() -> delegate.pendingPods(pending));
  }

  @Override
  public void groupAttempt(String profile, Result result, Duration took) {
    guard(() -> delegate.groupAttempt(profile, result, took));
  }

  @Override
  public void groupTimedOut(String profile) {
    guard(() -> delegate.groupTimedOut(profile));
  }

  @Override
  public void pendingGroups(Supplier<PendingGroups> pending) {
    guard(() -> delegate.pendingGroups(pending));
  }

  @Override
  public void preemptionAttempt(int victims) {
    guard(() -> delegate.preemptionAttempt(victims));
  }

  @Override
  public void queueIncoming(String queue, String event) {
    guard(() -> delegate.queueIncoming(queue, event));
  }

  @Override
  public void leaderElection(String lease, boolean leading) {
    guard(() -> delegate.leaderElection(lease, leading));
  }

  @Override
  public void request(String method, String host, String code, Duration took) {
    guard(() -> delegate.request(method, host, code, took));
  }

  @Override
  public void close() {
    guard(delegate::close);
  }

  private static void guard(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.warn("SchedulerMetrics threw; ignoring it", e);
    }
  }
}
