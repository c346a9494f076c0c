package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The bind ceiling: no decisions, no cache, no rate limit. Every pending pod of {@link
 * Contestant#CEILING} is bound, as soon as the watch shows it, to the next node round-robin by many threads at
 * once: as fast as this API server accepts bindings, the upper bound for any scheduler on it.
 */
final class CeilingBinder implements Watcher<Pod>, AutoCloseable {

  static final int THREADS = 16;

  private final KubernetesClient client;
  private final int nodes;
  private final ExecutorService binders = Executors.newFixedThreadPool(THREADS);
  private final Set<String> submitted = ConcurrentHashMap.newKeySet();
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicReference<@Nullable Exception> failure = new AtomicReference<>();
  private final Watch watch;

  CeilingBinder(KubernetesClient client, int nodes) {
    this.client = client;
    this.nodes = nodes;
    this.watch =
        client
            .pods()
            .inNamespace(Workload.NAMESPACE)
            .withField("spec.schedulerName", Contestant.CEILING.schedulerName())
            .watch(this);
  }

  @Override
  public void eventReceived(Action action, Pod pod) {
    var name = pod.getMetadata().getName();
    var nodeName = pod.getSpec().getNodeName();
    if (action == Action.DELETED || (nodeName != null && !nodeName.isEmpty()) || !submitted.add(name)) {
      return;
    }
    var target = Workload.nodeName(Math.floorMod(next.getAndIncrement(), nodes));
    binders.execute(() -> bind(pod, target));
  }

  private void bind(Pod pod, String node) {
    Binding binding =
        new BindingBuilder()
            .withNewMetadata()
            .withName(pod.getMetadata().getName())
            .withNamespace(Workload.NAMESPACE)
            .withUid(pod.getMetadata().getUid())
            .endMetadata()
            .withNewTarget()
            .withApiVersion("v1")
            .withKind("Node")
            .withName(node)
            .endTarget()
            .build();
    try {
      client.bindings().inNamespace(Workload.NAMESPACE).resource(binding).create();
    } catch (RuntimeException e) {
      failure.compareAndSet(null, e);
    }
  }

  @Override
  public void onClose(WatcherException cause) {
    failure.compareAndSet(null, cause);
  }

  /** Throws the first failed binding or the watch's end, if any. */
  void check() {
    var e = failure.get();
    if (e != null) {
      throw new IllegalStateException("the ceiling binder failed", e);
    }
  }

  @Override
  public void close() {
    watch.close();
    binders.shutdownNow();
  }
}
