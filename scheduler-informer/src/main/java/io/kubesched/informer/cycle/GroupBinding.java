package io.kubesched.informer.cycle;

import io.kubesched.api.PodGroup;
import io.kubesched.informer.report.GroupReportPort;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bindings of one placed pod group: the members assumed together by one {@link GroupCycle}, bound by the
 * {@link BindingCycle} each on its own thread. A member whose binding keeps failing, or that is gone, makes
 * the group {@linkplain #release() released}: every member not yet bound gives its assumption up and goes back
 * to the queue, so that the group is tried again as a whole (needing only its minimum less the members bound
 * meanwhile). Members already bound stay bound, as in kube-scheduler, which has no undo for a group either:
 * deleting a running pod to undo a gang would be worse than a gang that is short until its members are placed
 * again.
 *
 * <p>When every member has finished, a group that has its minimum bound is reported placed. Thread-safe: the
 * binding threads call it.
 */
final class GroupBinding {

  private static final Logger LOG = LoggerFactory.getLogger(GroupBinding.class);

  private enum State {
    WAITING,
    BINDING,
    BOUND,
    GIVEN_UP
  }

  private final PodGroup group;
  private final int placedBefore;
  private final GroupReportPort report;
  private final Map<String, State> states = new HashMap<>();
  private boolean released;
  private int unfinished;

  /**
   * @param placedBefore how many members were assumed or bound before this group's attempt
   * @param members the members assumed by the attempt, each on its node
   */
  GroupBinding(PodGroup group, int placedBefore, List<Assumed> members, GroupReportPort report) {
    this.group = group;
    this.placedBefore = placedBefore;
    this.report = report;
    members.forEach(m -> states.put(m.uid(), State.WAITING));
    this.unfinished = states.size();
  }

  /** @return the group */
  PodGroup group() {
    return group;
  }

  /**
   * A member's binding is about to be written.
   *
   * @return false if the group was released meanwhile: the member must give its assumption up instead
   */
  synchronized boolean start(String uid) {
    if (released) {
      return false;
    }
    states.put(uid, State.BINDING);
    return true;
  }

  /** @return whether the group was released: a member that failed makes the others give up */
  synchronized boolean isReleased() {
    return released;
  }

  /** A member's binding failed for good or the member is gone: the members not yet bound give up. */
  void release() {
    synchronized (this) {
      if (released) {
        return;
      }
      released = true;
    }
    LOG.warn(
        "Pod group {}: a member could not be bound; releasing the members not bound yet, the group is tried again",
        group.key());
  }

  /**
   * A member's binding ended.
   *
   * @param bound whether the member is bound (by us, or by someone else meanwhile)
   */
  void finished(String uid, boolean bound) {
    int boundNow;
    synchronized (this) {
      var before = states.put(uid, bound ? State.BOUND : State.GIVEN_UP);
      if (before == State.BOUND || before == State.GIVEN_UP || before == null) {
        return; // told twice
      }
      if (--unfinished > 0) {
        return;
      }
      boundNow = (int) states.values().stream().filter(s -> s == State.BOUND).count();
    }
    int total = placedBefore + boundNow;
    if (total >= group.minMember()) {
      LOG.info("Pod group {}: {} members bound (minimum {})", group.key(), total, group.minMember());
      report.placed(group, total);
    } else {
      LOG.warn(
          "Pod group {}: only {} of its minimum of {} members bound; the others are tried again", group.key(),
          total, group.minMember());
    }
  }
}
