package io.kubesched.server;

import io.kubesched.api.PodInfo;
import io.kubesched.api.SchedulingListener;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one line per decision at DEBUG (logger {@code io.kubesched.server.DecisionLog}, on from {@code -v=2}),
 * with the pod, node and profile as key-value pairs, and counts them for the summary line the server logs at
 * INFO.
 *
 * <p>Threads: the listener methods are called on the controller's listener thread, {@link #summary()} on
 * any; the counts are atomic, so a summary never loses a decision (it may show one a little late).
 */
final class DecisionLog implements SchedulingListener {

  private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);

  private final AtomicLong bound = new AtomicLong();
  private final AtomicLong unschedulable = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private long reportedBound;
  private long reportedUnschedulable;
  private long reportedFailed;

  @Override
  public void bound(PodInfo pod, String nodeName) {
    bound.incrementAndGet();
    LOG.atDebug().addKeyValue("pod", pod.key()).addKeyValue("node", nodeName).addKeyValue("profile", pod.schedulerName())
        .log("{} ({}): bound to {}", pod.key(), pod.schedulerName(), nodeName);
  }

  @Override
  public void unschedulable(PodInfo pod, String message) {
    unschedulable.incrementAndGet();
    LOG.atDebug().addKeyValue("pod", pod.key()).addKeyValue("profile", pod.schedulerName())
        .log("{} ({}): unschedulable: {}", pod.key(), pod.schedulerName(), message);
  }

  @Override
  public void failed(String podKey, Exception error) {
    failed.incrementAndGet();
    LOG.atDebug().addKeyValue("pod", podKey).log("{}: failed: {}", podKey, error.getMessage());
  }

  /**
   * @return what happened since the last summary, with the totals; empty when nothing did, so that an idle
   *     scheduler logs nothing
   */
  synchronized String summary() {
    long b = bound.get();
    long u = unschedulable.get();
    long f = failed.get();
    if (b == reportedBound && u == reportedUnschedulable && f == reportedFailed) {
      return "";
    }
    var line =
        String.format(
            "%d pods bound, %d attempts unschedulable, %d failed since the last summary"
                + " (in all: %d bound, %d unschedulable, %d failed)",
            b - reportedBound, u - reportedUnschedulable, f - reportedFailed, b, u, f);
    reportedBound = b;
    reportedUnschedulable = u;
    reportedFailed = f;
    return line;
  }
}
