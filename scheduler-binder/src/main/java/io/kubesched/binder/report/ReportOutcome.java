package io.kubesched.binder.report;

/**
 * How a report about one pod ended ({@link SchedulingReporter}). Every expected case is a value here; none an
 * exception. {@link #WRITTEN} is the only value of its record. A report that ended is not tried again by the
 * reporter: the loop reports again on the pod's next attempt, if it has one.
 */
public sealed interface ReportOutcome {

  /** Written, counted into an event series, or not needed (the pod shows it already). */
  ReportOutcome WRITTEN = new Written();

  /** See {@link #WRITTEN}. */
  record Written() implements ReportOutcome {}

  /**
   * The pod is gone: the API server answered 404 for it or for its namespace, or the pod read again after a
   * conflict is missing or has another uid (created again under its name). An expected outcome under churn,
   * not a failure: logged at DEBUG, naming the pod.
   *
   * @param detail what was found, naming the pod ("pod ns/name not found (404)")
   */
  record PodGone(String detail) implements ReportOutcome {}

  /**
   * The pod was bound since it was seen: the failure to report is no longer true, and its condition is not
   * written. Logged at DEBUG.
   *
   * @param nodeName the node the pod is bound to
   */
  record Bound(String nodeName) implements ReportOutcome {}

  /**
   * A request was refused otherwise, or got no answer. Logged at WARN.
   *
   * @param detail what was being written and the server's answer, or why there was none
   */
  record Failed(String detail) implements ReportOutcome {}
}
