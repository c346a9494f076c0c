package io.kubesched.facade;

import io.kubesched.api.ClusterSnapshot;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.api.PodGroup;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.PodInfo;
import io.kubesched.informer.LoopExplanation;
import io.kubesched.informer.SchedulingLoop;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/** {@link Controller} over the informer's {@link SchedulingLoop}. */
final class DefaultController implements Controller {

  private final SchedulingLoop delegate;
  private final Consumer<Controller> onClose;
  private final Object startLock = new Object();
  private boolean started;

  DefaultController(SchedulingLoop delegate, Consumer<Controller> onClose) {
    this.delegate = delegate;
    this.onClose = onClose;
  }

  @Override
  public void start() {
    synchronized (startLock) {
      started = true;
    }
    delegate.start();
  }

  @Override
  public void run() throws InterruptedException {
    boolean startNow;
    synchronized (startLock) {
      startNow = !started;
      started = true;
    }
    if (startNow) {
      delegate.start();
    }
    delegate.awaitTermination();
  }

  @Override
  public boolean isRunning() {
    return delegate.isRunning();
  }

  @Override
  public boolean isLeader() {
    return delegate.isLeader();
  }

  @Override
  public void setLeading(boolean leading) {
    delegate.setLeading(leading);
  }

  @Override
  public void replacePolicy(String schedulerName, FinderFunc finder) {
    delegate.replacePolicy(
        Objects.requireNonNull(schedulerName, "schedulerName"), Objects.requireNonNull(finder, "finder"));
  }

  @Override
  public List<NodeInfo> nodes() {
    return delegate.nodes();
  }

  @Override
  public ClusterSnapshot snapshot() {
    return delegate.snapshot();
  }

  @Override
  public List<PodInfo> pendingPods() {
    return delegate.pendingPods();
  }

  @Override
  public List<PodGroup> podGroups() {
    return delegate.podGroups();
  }

  @Override
  public Set<PodGroupRef.Source> podGroupSources() {
    return delegate.podGroupSources();
  }

  @Override
  public FinderFunc policy(String schedulerName) {
    return delegate.policy(Objects.requireNonNull(schedulerName, "schedulerName"));
  }

  @Override
  public Optional<PodExplanation> explain(String namespace, String name) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    return delegate.explain(namespace, name).map(DefaultController::toPublic);
  }

  private static PodExplanation toPublic(LoopExplanation loop) {
    var single = loop.pod();
    if (single != null) {
      return new PodExplanation.Single(loop.key(), loop.profile(), loop.notes(), single);
    }
    var group = loop.group();
    if (group != null) {
      return new PodExplanation.Group(loop.key(), loop.profile(), loop.notes(), group);
    }
    return new PodExplanation.Unexplained(loop.key(), loop.profile(), loop.notes(), loop.unexplained());
  }

  @Override
  public void close() {
    delegate.close();
    onClose.accept(this);
  }
}
