package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The pod groups of one phase as one watch of their members sees them, for a {@link PodShape#GANG} workload:
 * when each group's last member was seen created and its last member seen bound, and whether a group was ever
 * seen partly bound. It passes every event on to a {@link PodTimes}, so that the phase's pod figures come
 * from the same watch.
 *
 * <p>A watch delivers events in the API server's order, and a scheduler binds a pod only after it has seen it,
 * so a member seen bound while fewer than the group's size of its members have been seen created was bound
 * before the group was complete: {@link #boundEarly()}, which a gang scheduler never does. A group bound
 * member by member is partly bound for a moment in any scheduler, so {@link #mostPartlyBound()} (the most
 * groups partly bound at once) shows how many groups were being bound at the same time, not a failure;
 * {@link #partlyBound()} at the end of a phase is one.
 *
 * <p>Thread safety: events arrive on the watch's thread, the figures are read by the runner's; every method
 * is synchronized.
 */
final class GangTimes implements Watcher<Pod> {

  /** One group's counts and times ({@link System#nanoTime()}). */
  private static final class Group {
    int created;
    int bound;
    long lastCreated;
    long lastBound;
  }

  private final int size;
  private final PodTimes pods;
  private final Map<String, Group> groups = new HashMap<>();
  private final Set<String> seen = new HashSet<>();
  private final Set<String> boundPods = new HashSet<>();
  private int partlyBound;
  private int mostPartlyBound;
  private int boundEarly;
  private int withoutGroup;

  /**
   * @param size the members of every group (its {@code minCount})
   * @param pods where every event is passed on
   */
  GangTimes(int size, PodTimes pods) {
    this.size = size;
    this.pods = pods;
  }

  @Override
  public void eventReceived(Action action, Pod pod) {
    pods.eventReceived(action, pod);
    long now = System.nanoTime();
    synchronized (this) {
      var name = pod.getMetadata().getName();
      var schedulingGroup = pod.getSpec().getSchedulingGroup();
      var groupName = schedulingGroup == null ? null : schedulingGroup.getPodGroupName();
      boolean first = seen.add(name);
      if (groupName == null) {
        withoutGroup += first ? 1 : 0;
        return;
      }
      var group = groups.computeIfAbsent(groupName, g -> new Group());
      if (first) {
        group.created++;
        group.lastCreated = now;
      }
      var nodeName = pod.getSpec().getNodeName();
      if (nodeName != null && !nodeName.isEmpty() && boundPods.add(name)) {
        if (group.created < size) {
          boundEarly++;
        }
        group.bound++;
        group.lastBound = now;
        if (group.bound == 1 && size > 1) {
          partlyBound++;
          mostPartlyBound = Math.max(mostPartlyBound, partlyBound);
        } else if (group.bound == size && size > 1) {
          partlyBound--;
        }
      }
    }
  }

  @Override
  public void onClose(WatcherException cause) {
    pods.onClose(cause);
  }

  /** Where every event is passed on. */
  PodTimes pods() {
    return pods;
  }

  /** Groups with every member seen bound. */
  synchronized int whole() {
    return (int) groups.values().stream().filter(g -> g.bound >= size).count();
  }

  /** Groups with some but not all members seen bound now. */
  synchronized int partlyBound() {
    return partlyBound;
  }

  /** The most groups seen partly bound at the same moment. */
  synchronized int mostPartlyBound() {
    return mostPartlyBound;
  }

  /** Members seen bound while their group had fewer than its size of members seen created. */
  synchronized int boundEarly() {
    return boundEarly;
  }

  /**
   * Pods seen without {@code spec.schedulingGroup}: the API server drops the field when its {@code
   * GenericWorkload} gate is off, and the pods are then scheduled one by one.
   */
  synchronized int withoutGroup() {
    return withoutGroup;
  }

  /** When the last group was seen bound whole ({@link System#nanoTime()}), or {@code otherwise} if none was. */
  synchronized long lastWholeNanos(long otherwise) {
    return groups.values().stream()
        .filter(g -> g.bound >= size)
        .mapToLong(g -> g.lastBound)
        .max()
        .orElse(otherwise);
  }

  /**
   * From each whole group's last member seen created to its last member seen bound, in milliseconds, sorted.
   */
  synchronized double[] latenciesMillis() {
    return groups.values().stream()
        .filter(g -> g.bound >= size)
        .mapToDouble(g -> (g.lastBound - g.lastCreated) / 1e6)
        .sorted()
        .toArray();
  }
}
