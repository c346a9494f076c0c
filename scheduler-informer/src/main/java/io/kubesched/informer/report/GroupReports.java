package io.kubesched.informer.report;

import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.binder.report.PodGroupReporter.GroupObject;
import io.kubesched.binder.report.PodGroupReporter;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Tells a pod group's progress to the API server, off the scheduling thread and best effort (as pod
 * conditions are written): the {@code PodGroupInitiallyScheduled} condition on both sources' objects, events
 * regarding the group object, and for coscheduling groups {@code status.phase}, {@code status.scheduled} and
 * {@code status.scheduleStartTime}.
 *
 * <ul>
 *   <li>waiting for members: phase {@code Pending} (coscheduling only; nothing else, the group was not tried);
 *   <li>unschedulable: event {@code Warning FailedScheduling}, condition False / {@code Unschedulable}, phase
 *       {@code Scheduling};
 *   <li>error: event {@code Warning FailedScheduling}, condition False / {@code SchedulerError};
 *   <li>timed out: event {@code Warning FailedScheduling}, condition False / {@code Timeout};
 *   <li>placed: event {@code Normal Scheduled}, condition True / {@code Scheduled}, phase {@code Scheduled} with
 *       the members bound.
 * </ul>
 *
 * <p>A coscheduling phase is written only when it changes, so a group waiting for members costs one write.
 * Thread-safe; never blocks.
 */
public final class GroupReports implements GroupReportPort {

  /** A write to the API server. */
  @FunctionalInterface
  private interface Write {
    void to(PodGroupReporter reporter) throws InterruptedException;
  }

  private final PodGroupReporter reporter;
  private final Executor reports;
  private final Clock clock;
  /** The last coscheduling phase and count written for each group (by uid, so a group made again starts over). */
  private final Map<String, String> phases = new ConcurrentHashMap<>();

  public GroupReports(PodGroupReporter reporter, Executor reports, Clock clock) {
    this.reporter = reporter;
    this.reports = reports;
    this.clock = clock;
  }

  @Override
  public void waiting(PodGroup group, int members) {
    phase(group, "Pending", 0);
  }

  @Override
  public void unschedulable(PodGroup group, String message, int placed) {
    submit(r -> r.event(object(group), "Warning", "FailedScheduling", "Scheduling", message));
    submit(r -> r.condition(object(group), false, "Unschedulable", message));
    phase(group, "Scheduling", placed);
  }

  @Override
  public void error(PodGroup group, String message) {
    submit(r -> r.event(object(group), "Warning", "FailedScheduling", "Scheduling", message));
    submit(r -> r.condition(object(group), false, "SchedulerError", message));
  }

  @Override
  public void timedOut(PodGroup group, String message) {
    submit(r -> r.event(object(group), "Warning", "FailedScheduling", "Scheduling", message));
    submit(r -> r.condition(object(group), false, "Timeout", message));
  }

  @Override
  public void placed(PodGroup group, int bound) {
    var message = bound + " members bound, minimum " + group.minMember();
    submit(r -> r.event(object(group), "Normal", "Scheduled", "Binding", "Pod group placed: " + message));
    submit(r -> r.condition(object(group), true, "Scheduled", message));
    phase(group, "Scheduled", bound);
  }

  /** Writes the event series the reporter has pending; from the housekeeping thread. */
  public void flushSeries() {
    submit(PodGroupReporter::flushSeries);
  }

  /** Forgets what was written for a group object that is gone. */
  public void forget(PodGroup group) {
    phases.remove(group.uid());
  }

  private void phase(PodGroup group, String phase, int scheduled) {
    if (group.ref().source() != PodGroupRef.Source.COSCHEDULING) {
      return;
    }
    var written = phase + "/" + scheduled;
    if (written.equals(phases.put(group.uid(), written))) {
      return;
    }
    var start = "Pending".equals(phase) ? null : clock.instant();
    submit(r -> r.coschedulingStatus(object(group), phase, scheduled, start));
  }

  private static GroupObject object(PodGroup group) {
    var ref = group.ref();
    return new GroupObject(ref.source().apiVersion(), ref.namespace(), ref.name(), group.uid(), group.generation());
  }

  private void submit(Write write) {
    BestEffort.run(reports, "Reporting a pod group's status", () -> write.to(reporter));
  }

}
