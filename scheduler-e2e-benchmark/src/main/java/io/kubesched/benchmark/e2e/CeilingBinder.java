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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The bind ceiling: no decisions, no cache, no rate limit. Every pending pod of {@link Contestant#CEILING}
 * is bound, as soon as the watch shows it, to the next node round-robin, by {@value #THREADS} threads at
 * once: as fast as this API server accepts bindings, the upper bound for any scheduler on it. It honours no
 * constraint: with pod anti-affinity its pods share nodes with the initial pods and each other.
 */
final class CeilingBinder implements Placer {

  static final int THREADS = 16;

  private final KubernetesClient client;
  private final int nodes;
  private final String namespace;
  private final Set<String> submitted = ConcurrentHashMap.newKeySet();
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicReference<@Nullable Exception> failure = new AtomicReference<>();
  private @Nullable ExecutorService binders;
  private @Nullable Watch watch;

  /** @param namespace where the pods to bind are */
  CeilingBinder(KubernetesClient client, int nodes, String namespace) {
    this.client = client;
    this.nodes = nodes;
    this.namespace = namespace;
    resume();
  }

  /** Stops watching and waits for the bindings in flight. */
  @Override
  public void pause() throws InterruptedException {
    if (watch != null) {
      watch.close();
      watch = null;
    }
    if (binders != null) {
      binders.shutdown();
      binders.awaitTermination(1, TimeUnit.MINUTES);
      binders = null;
    }
  }

  /** Watches again: the watch starts with every pod there is, the backlog included. */
  @Override
  public void resume() {
    var pool = Executors.newFixedThreadPool(THREADS);
    binders = pool;
    watch =
        client
            .pods()
            .inNamespace(namespace)
            .withField("spec.schedulerName", Contestant.CEILING.schedulerName())
            .watch(
                new Watcher<Pod>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    var name = pod.getMetadata().getName();
                    var nodeName = pod.getSpec().getNodeName();
                    if (action == Action.DELETED
                        || (nodeName != null && !nodeName.isEmpty())
                        || !submitted.add(name)) {
                      return;
                    }
                    var target = Workload.nodeName(Math.floorMod(next.getAndIncrement(), nodes));
                    pool.execute(() -> bind(pod, target));
                  }

                  @Override
                  public void onClose(WatcherException cause) {
                    failure.compareAndSet(null, cause);
                  }
                });
  }

  private void bind(Pod pod, String node) {
    Binding binding =
        new BindingBuilder()
            .withNewMetadata()
            .withName(pod.getMetadata().getName())
            .withNamespace(namespace)
            .withUid(pod.getMetadata().getUid())
            .endMetadata()
            .withNewTarget()
            .withApiVersion("v1")
            .withKind("Node")
            .withName(node)
            .endTarget()
            .build();
    try {
      client.bindings().inNamespace(namespace).resource(binding).create();
    } catch (RuntimeException e) {
      failure.compareAndSet(null, e);
    }
  }

  /** Throws the first failed binding or the watch's end, if any. */
  @Override
  public void check() {
    var e = failure.get();
    if (e != null) {
      throw new IllegalStateException("the ceiling binder failed", e);
    }
  }

  @Override
  public double cpuSeconds() {
    return Double.NaN;
  }

  @Override
  public double peakRssMiB() {
    return Double.NaN;
  }

  @Override
  public String tail() {
    return "";
  }

  @Override
  public void close() throws InterruptedException {
    pause();
  }
}
