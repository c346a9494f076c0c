package io.kubesched.crd;

import io.kubesched.api.ConfigurationException;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.facade.Controller;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link Controller} that only records {@link #replacePolicy} calls: the scheduler names it has, the policies it
 * refuses, and whether it leads are set by the test. Thread-safe.
 */
final class FakeController implements Controller {

  /** One replacePolicy call. */
  record Replaced(String schedulerName, FinderFunc policy) {}

  final List<Replaced> replaced = new CopyOnWriteArrayList<>();
  final Set<String> refusing = ConcurrentHashMap.newKeySet();
  volatile boolean leader = true;
  private final Set<String> profiles;

  FakeController(Set<String> profiles) {
    this.profiles = Set.copyOf(profiles);
  }

  @Override
  public void replacePolicy(String schedulerName, FinderFunc finder) {
    if (!profiles.contains(schedulerName)) {
      throw new ConfigurationException("no profile " + schedulerName);
    }
    if (refusing.contains(schedulerName)) {
      throw new ConfigurationException("scheduler " + schedulerName + " does not watch what this policy reads");
    }
    replaced.add(new Replaced(schedulerName, finder));
  }

  @Override
  public void start() {}

  @Override
  public void run() {}

  @Override
  public boolean isRunning() {
    return true;
  }

  @Override
  public boolean isLeader() {
    return leader;
  }

  @Override
  public void setLeading(boolean leading) {
    leader = leading;
  }

  @Override
  public List<NodeInfo> nodes() {
    return List.of();
  }

  @Override
  public void close() {}
}
