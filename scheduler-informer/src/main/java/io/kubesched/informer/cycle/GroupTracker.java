package io.kubesched.informer.cycle;

import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.engine.Ticker;
import io.kubesched.informer.report.GroupReportPort;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pod groups whose last attempt did not fit them, with when they first failed: each is reported once as
 * unschedulable per unchanged message, and once as timed out when it has failed for longer than its timeout
 * ({@link PodGroup#timeout()}, else the loop's default). A group placed, deleted or changed starts afresh.
 *
 * <p>{@link #failed}, {@link #placed} and {@link #forget} are called from the scheduling thread and the
 * informers' threads, {@link #checkTimeouts} from the housekeeping thread; all are thread-safe.
 */
public final class GroupTracker {

  private static final Logger LOG = LoggerFactory.getLogger(GroupTracker.class);

  /** One group that keeps failing: since when, with which last message, and whether its timeout was told. */
  private record Failing(PodGroup group, String profile, long sinceNanos, String message, boolean timedOut) {}

  private final Map<PodGroupRef, Failing> failing = new ConcurrentHashMap<>();
  private final Duration defaultTimeout;
  private final GroupReportPort report;
  private final SchedulerMetrics metrics;
  private final Ticker ticker;

  public GroupTracker(Duration defaultTimeout, GroupReportPort report, SchedulerMetrics metrics, Ticker ticker) {
    this.defaultTimeout = defaultTimeout;
    this.report = report;
    this.metrics = metrics;
    this.ticker = ticker;
  }

  /**
   * An attempt of {@code group}, with {@code placed} members bound or being bound before it, did not fit it. Reported (event and status) unless its last attempt failed
   * with the same message; the timeout counts from its first failed attempt.
   */
  void failed(PodGroup group, String profile, String message, int placed) {
    long now = ticker.nanoTime();
    var before = failing.get(group.ref());
    boolean sameGroup = before != null && before.group().uid().equals(group.uid());
    var since = sameGroup ? before.sinceNanos() : now;
    var timedOut = sameGroup && before.timedOut();
    failing.put(group.ref(), new Failing(group, profile, since, message, timedOut));
    if (sameGroup && before.message().equals(message)) {
      LOG.debug("Pod group {} still does not fit: {}", group.key(), message);
      return;
    }
    LOG.info("Pod group {} does not fit: {}", group.key(), message);
    report.unschedulable(group, message, placed);
  }

  /** The group was placed: it starts afresh. */
  void placed(PodGroupRef ref) {
    failing.remove(ref);
  }

  /** The group object was deleted or changed: its timeout starts again at its next failed attempt. */
  public void forget(PodGroupRef ref) {
    failing.remove(ref);
  }

  /** @return how many groups failed their last attempt */
  int size() {
    return failing.size();
  }

  /** Reports every group that has failed for longer than its timeout and was not reported yet. */
  public void checkTimeouts() {
    long now = ticker.nanoTime();
    for (var entry : failing.entrySet()) {
      var state = entry.getValue();
      var timeout = state.group().timeoutIfSet().orElse(defaultTimeout);
      if (state.timedOut() || now - state.sinceNanos() < timeout.toNanos()) {
        continue;
      }
      if (!failing.replace(entry.getKey(), state, withTimedOut(state))) {
        continue; // changed meanwhile: the next check sees it
      }
      var message =
          "timed out after " + seconds(timeout) + " waiting for " + state.group().minMember()
              + " members to fit: " + state.message();
      LOG.warn("Pod group {} {}", state.group().key(), message);
      metrics.groupTimedOut(state.profile());
      report.timedOut(state.group(), message);
    }
  }

  private static Failing withTimedOut(Failing state) {
    return new Failing(state.group(), state.profile(), state.sinceNanos(), state.message(), true);
  }

  /** @return the duration as Go prints whole seconds and minutes ({@code 5m0s}, {@code 30s}), kube's style */
  static String seconds(Duration timeout) {
    long total = Math.max(1, timeout.toSeconds());
    return total >= 60 ? (total / 60) + "m" + (total % 60) + "s" : total + "s";
  }
}
