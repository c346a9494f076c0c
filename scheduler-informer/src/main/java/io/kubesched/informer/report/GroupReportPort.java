package io.kubesched.informer.report;

import io.kubesched.api.PodGroup;

/**
 * What the loop tells about a pod group: its status on the group object and events regarding it. The
 * running loop writes to the API server off the scheduling thread, best effort ({@link #toApiServer}); the
 * loop's unit tests record the calls. Implementations never block and never throw.
 */
public interface GroupReportPort {

  /** Tells nothing. */
  GroupReportPort NONE = new GroupReportPort() {};

  /**
   * The group is not tried yet: fewer than its minimum of members exist.
   *
   * @param members the members that exist, placed ones included
   */
  default void waiting(PodGroup group, int members) {}

  /**
   * An attempt did not fit the group: nothing of it was assumed.
   *
   * @param placed how many members are bound or being bound (from earlier attempts)
   */
  default void unschedulable(PodGroup group, String message, int placed) {}

  /** The group cannot be tried: its members disagree (scheduler name, priority), or the policy failed. */
  default void error(PodGroup group, String message) {}

  /** The group has had its members for longer than its timeout without being placed; it goes on waiting. */
  default void timedOut(PodGroup group, String message) {}

  /**
   * At least the group's minimum of members is bound.
   *
   * @param bound how many members are bound or being bound
   */
  default void placed(PodGroup group, int bound) {}
}
