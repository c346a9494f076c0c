package io.kubesched.informer.cycle;

import io.fabric8.kubernetes.api.model.Pod;
import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingListener;
import io.kubesched.binder.report.SchedulingReporter;
import io.kubesched.engine.QueuedPod;
import io.kubesched.informer.report.BestEffort;
import io.kubesched.informer.report.SerialListener;
import java.util.Map;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells what happened to a pod: the log (an unschedulable pod that keeps waiting for the same reason is
 * logged once), the API server ({@code Scheduled} / {@code FailedScheduling} events and the {@code
 * PodScheduled} condition, through each profile's {@link SchedulingReporter}) and the {@link
 * SchedulingListener}.
 *
 * <p>Called from the scheduling thread, the binding threads and the pod informer's handler; never blocks.
 * API writes run on the {@code reports} executor (best effort: when the API server is slow they queue up to a
 * bound, then are dropped with a log line, as client-go's event broadcaster does); listener calls go to the
 * listener as given, which the loop makes a {@link SerialListener}.
 */
public final class Reporting {

  private static final Logger LOG = LoggerFactory.getLogger(Reporting.class);

  /** A write to the API server, best effort and off the scheduling thread. */
  @FunctionalInterface
  private interface Write {
    void to(SchedulingReporter reporter) throws InterruptedException;
  }

  private final Map<String, SchedulingReporter> reporters;
  private final Executor reports;
  private final SchedulingListener listener;

  /**
   * @param reporters the API writer of each profile; empty writes nothing (the loop's unit tests)
   * @param reports runs the API writes
   * @param listener hears every outcome
   */
  public Reporting(Map<String, SchedulingReporter> reporters, Executor reports, SchedulingListener listener) {
    this.reporters = Map.copyOf(reporters);
    this.reports = reports;
    this.listener = listener;
  }

  /**
   * The pod of {@code bound} is bound to its node by this loop.
   *
   * @param tellListener false where the listener has heard it already ({@link #lateBinding}, the watch having
   *     seen the pod there before this attempt's answer came)
   */
  void scheduled(Assumed bound, boolean tellListener) {
    var attempt = bound.attempt();
    var nodeName = bound.nodeName();
    PodLog.of(LOG.atDebug(), bound).log("Bound {} to {}", attempt.key(), nodeName);
    report(attempt.item().profile(), reporter -> reporter.scheduled(attempt.pod(), nodeName));
    if (tellListener) {
      listener.bound(attempt.info(), nodeName);
    }
  }

  /** The binding of {@code waiting} waits for its devices' binding conditions: kube's event saying so. */
  void bindingConditionsPending(Assumed waiting) {
    var attempt = waiting.attempt();
    report(attempt.item().profile(), reporter -> reporter.bindingConditionsPending(attempt.pod(), waiting.nodeName()));
  }

  /**
   * The attempt found no node, or refused the pod.
   *
   * @return the pod's progress with {@code message} as the last one logged, for the queue to keep
   */
  QueuedPod.Progress unschedulable(Attempt attempt, String message) {
    return unschedulable(attempt, message, null);
  }

  /**
   * The attempt found no node, and what becomes of the pod's nomination, written with the {@code PodScheduled}
   * condition in one status patch.
   *
   * @param nominatedNodeName the node where room is being made for the pod; "" to remove its nomination; null
   *     to leave it as it is
   * @return the pod's progress with {@code message} as the last one logged, for the queue to keep
   */
  QueuedPod.Progress unschedulable(
      Attempt attempt, String message, @Nullable String nominatedNodeName) {
    var item = attempt.item();
    var pod = attempt.pod();
    if (message.equals(item.progress().lastMessage())) {
      PodLog.of(LOG.atDebug(), item).log("Pod {} is still unschedulable: {}", item.key(), message);
    } else {
      PodLog.of(LOG.atInfo(), item).log("Pod {} is unschedulable: {}", item.key(), message);
    }
    report(item.profile(), reporter -> reporter.unschedulable(pod, message, nominatedNodeName));
    listener.unschedulable(attempt.info(), message);
    return item.progress().withLastMessage(message);
  }

  /**
   * {@code victim} was deleted to make room for {@code preemptor} on {@code nodeName}: a {@code Preempted} event.
   *
   * @param preemptor the attempt that nominated its pod to {@code nodeName}
   * @param victim the victim as the binder names a pod: namespace, name and uid
   */
  void preempted(Attempt preemptor, Pod victim, String nodeName) {
    report(
        preemptor.item().profile(), reporter -> reporter.preempted(victim, preemptor.pod(), nodeName, false));
  }

  /** The attempt failed for a reason other than fit; the caller has logged it. */
  void failed(Attempt attempt, Exception error) {
    unreadable(attempt.item(), attempt.pod(), error);
  }

  /**
   * A pod taken off the queue cannot be read (its {@link QueuedPod#unreadable()}): no attempt is made of it, and
   * it is told as a failed one. The caller has logged it.
   */
  void unreadable(QueuedPod item, Pod pod, Exception error) {
    report(item.profile(), reporter -> reporter.schedulingError(pod, error.getMessage()));
    listener.failed(item.key(), error);
  }

  /**
   * A binding reported as failed had landed after all: the watch shows the pod on the node chosen, or a later
   * attempt found it there. Told to the listener once, by whichever of the two takes the pod out of the queue.
   */
  public void lateBinding(PodInfo info, String nodeName) {
    LOG.atInfo().addKeyValue("pod", info.key()).addKeyValue("profile", info.schedulerName()).addKeyValue("node", nodeName)
        .log("{} is bound to {}: an attempt whose answer was lost had succeeded", info.key(), nodeName);
    listener.bound(info, nodeName);
  }

  /** Writes the event series each reporter has pending; from the housekeeping thread. */
  public void flushSeries() {
    for (var reporter : reporters.values()) {
      submit(reporter, "Writing event series", SchedulingReporter::flushSeries);
    }
  }

  private void report(String profile, Write write) {
    var reporter = reporters.get(profile);
    if (reporter != null) {
      submit(reporter, "Reporting to the API server", write);
    }
  }

  /** Runs {@code write} on the reports executor; a failure is logged as {@code what} failed. */
  private void submit(SchedulingReporter reporter, String what, Write write) {
    BestEffort.run(reports, what, () -> write.to(reporter));
  }

}
