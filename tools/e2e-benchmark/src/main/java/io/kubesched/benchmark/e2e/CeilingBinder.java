package io.kubesched.benchmark.e2e;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import io.kubesched.http.BlockingHttpClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bind ceiling: no decisions, no cache, no rate limit. Every pending pod of {@link Contestant#CEILING} is
 * bound to the next node round-robin by {@code threads} threads at once, over {@link #clients(int)} clients of
 * its own, none shared with the runner's creators and watches: as fast as this API server accepts bindings at
 * that concurrency. Each client talks HTTP/1.1, as the runner's (so each request in flight has a connection of its
 * own), and has its own JDK HTTP client, whose one selector thread does all its connections' I/O: more clients,
 * more selector threads. Like the scheduler's, each JDK client runs the tasks its selector thread starts inline
 * rather than on a thread pool, which bound faster on the scheduler's side (docs/performance.md#measurement-notes),
 * so the ceiling
 * gets it too; and like the scheduler's, the bindings go through the library's {@code BlockingHttpClient}, each
 * request written and answered on its binding thread (one such client beside each JDK client).
 *
 * <p>Its own work per pod is no more than the scheduler's, because on a small machine it shares the CPUs with the
 * API server and etcd, and every microsecond it spends is one the API server does not get: the binding is POSTed
 * as a JSON string and its answer read for the status code only (as the scheduler's binder does, where fabric8's
 * operation would build a {@code Binding}, encode it and decode the answer), and pods are decoded without their
 * managedFields (as the scheduler's client decodes them). With fabric8's operations and default decoding it
 * bound 905-913 pods/s at 500 nodes on 2 CPUs, below the scheduler's 1 032 in one run; like this, 1 013-1 053,
 * and 1 174-1 232 since it also holds the backlog (below).
 * The runner searches the concurrency ({@code --ceiling-threads}) and the table shows the best. It honours no
 * constraint: with pod anti-affinity its pods share nodes with the initial pods and each other.
 *
 * <p>It finds pods as an informer does: when it starts it lists the pending pods and watches from the list's
 * resource version, so that a watch the API server ends and fabric8 resumes from the last event's version misses
 * nothing. (It used to watch from no version, which starts with a synthetic event per existing pod in name order,
 * not version order; a watch ended during those events resumed from the version of the last pod seen, past pods
 * created earlier with later names, which stayed pending: 17 of 10 000 at 5 000 nodes on 16 cores.) A watch that
 * ends with an error (its version too old) is started again the same way. Every pod is submitted once; a binding
 * that fails fails the run ({@link #check}).
 *
 * <p>The watch stays open while it is paused, and the pods it shows meanwhile are held and bound from {@link
 * #resume} on: the backlog's pods are known, decoded, when the runner's clock starts, so the ceiling's backlog
 * time is its bindings' alone. (It used to close the watch on a pause and list the backlog on resuming: a list of
 * 1 000 pods inside the measured second at 500 nodes.)
 *
 * <p>Threads: fabric8's watch threads call the watcher, which only submits; the binding threads bind; {@link
 * #pause}, {@link #resume}, {@link #check} and {@link #close} are the runner's, one thread. What they share is
 * guarded by the binder's lock, which no one holds while waiting for the API server but the list on (re)starting
 * the watch.
 */
final class CeilingBinder implements Placer {

  /** fabric8's factory of JDK HTTP clients that run their tasks inline, as the scheduler's do. */
  private static final class InlineFactory extends JdkHttpClientFactory {
    @Override
    protected java.net.http.HttpClient.Builder createNewHttpClientBuilder() {
      return super.createNewHttpClientBuilder().executor(Runnable::run);
    }
  }

  /** Leaves {@code metadata.managedFields} out of decoding, as the scheduler's own client does. */
  @JsonIgnoreProperties({"managedFields"})
  private abstract static class WithoutManagedFields {}

  /**
   * The serialization of the scheduler's client (its {@code SchedulingClients}, internal to the library) for
   * the two kinds the ceiling reads: pods without their managedFields, and the status a watch ends with.
   */
  private static KubernetesSerialization leanSerialization() {
    var mapper =
        JsonMapper.builderWithJackson2Defaults()
            .addModule(new Jackson2JdkTypesModule())
            .addMixIn(ObjectMeta.class, WithoutManagedFields.class)
            .build();
    var serialization = new KubernetesSerialization(mapper, false);
    serialization.registerKubernetesResource(Status.class);
    serialization.registerKubernetesResource(Pod.class);
    return serialization;
  }

  /** Binding threads per client. */
  static final int THREADS_PER_CLIENT = 16;

  /** The concurrencies {@code --ceiling-threads} searches by default. */
  static final List<Integer> DEFAULT_THREADS = List.of(16, 32, 64, 128);

  private final List<KubernetesClient> clients;
  /** One per client: its bindings' HTTP client, the scheduler's binding transport. */
  private final List<HttpClient> bindingHttp;
  private final int nodes;
  private final String namespace;
  /** The URL of {@code namespace}'s pods, with a trailing slash: computed once, not per binding. */
  private final String podsUrl;
  private final int threads;
  private final Set<String> submitted = new HashSet<>(); // guarded by this
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger bindings = new AtomicInteger();
  private final AtomicReference<@Nullable Exception> failure = new AtomicReference<>();
  /** Pods the watch showed while paused, in order; guarded by {@code this}. */
  private final List<Pod> held = new ArrayList<>();
  private @Nullable ExecutorService binders; // guarded by this
  private @Nullable Watch watch; // guarded by this
  private boolean paused = true; // guarded by this
  private boolean closed; // guarded by this

  /**
   * Connects and starts binding.
   *
   * @param kubeconfig the admin kubeconfig each of its clients reads
   * @param namespace where the pods to bind are
   * @param threads binding threads, at least 1
   * @throws IllegalArgumentException if {@code threads} is not positive
   */
  CeilingBinder(Path kubeconfig, int nodes, String namespace, int threads) throws IOException {
    if (threads < 1) {
      throw new IllegalArgumentException("--ceiling-threads: " + threads + " binding threads; at least 1");
    }
    this.nodes = nodes;
    this.namespace = namespace;
    this.threads = threads;
    var text = Files.readString(kubeconfig);
    var clients = new ArrayList<KubernetesClient>();
    var bindingHttp = new ArrayList<HttpClient>();
    for (int i = 0; i < clients(threads); i++) {
      var config = Config.fromKubeconfig(text);
      config.setHttp2Disable(true);
      config.setRequestTimeout(60_000);
      bindingHttp.add(new BlockingHttpClient.Factory(new InlineFactory()).newBuilder(config).build());
      clients.add(
          new KubernetesClientBuilder()
              .withConfig(config)
              .withHttpClientFactory(new InlineFactory())
              .withKubernetesSerialization(leanSerialization())
              .build());
    }
    this.clients = List.copyOf(clients);
    this.bindingHttp = List.copyOf(bindingHttp);
    // Every client reads the same kubeconfig, so one server URL.
    this.podsUrl =
        clients.get(0).getMasterUrl().toString().replaceAll("/+$", "")
            + "/api/v1/namespaces/" + namespace + "/pods/";
    listAndWatch();
    resume();
  }

  /** The clients for {@code threads} binding threads: one per {@value #THREADS_PER_CLIENT}, rounded up. */
  static int clients(int threads) {
    return (threads + THREADS_PER_CLIENT - 1) / THREADS_PER_CLIENT;
  }

  /**
   * Stops binding and waits for every binding submitted to end. The watch goes on: the pods it shows from now on
   * are held, to be bound from {@link #resume} on.
   */
  @Override
  public void pause() throws InterruptedException {
    ExecutorService pool;
    synchronized (this) {
      paused = true;
      pool = binders;
      binders = null;
    }
    if (pool != null) {
      pool.shutdown();
      if (!pool.awaitTermination(10, TimeUnit.MINUTES)) {
        failure.compareAndSet(null, new IllegalStateException("bindings still running after 10 minutes"));
      }
    }
  }

  /** Binds again: every pod held while paused, then each new one the watch shows. */
  @Override
  public synchronized void resume() {
    var pool = Executors.newFixedThreadPool(threads);
    binders = pool;
    paused = false;
    held.forEach(pod -> bindOn(pool, pod));
    held.clear();
  }

  /** Lists the pods, submits the pending ones, and watches from the list's version. */
  private synchronized void listAndWatch() {
    if (closed) {
      return;
    }
    var pods =
        clients.get(0).pods().inNamespace(namespace)
            .withField("spec.schedulerName", Contestant.CEILING.schedulerName())
            .list();
    pods.getItems().forEach(this::submit);
    var options =
        new ListOptionsBuilder()
            .withFieldSelector("spec.schedulerName=" + Contestant.CEILING.schedulerName())
            .withResourceVersion(pods.getMetadata().getResourceVersion())
            .build();
    watch =
        clients.get(0).pods().inNamespace(namespace)
            .watch(
                options,
                new Watcher<Pod>() {
                  @Override
                  public void eventReceived(Action action, Pod pod) {
                    if (action != Action.DELETED) {
                      submit(pod);
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {
                    // A version too old or a watch that could not be resumed: list and watch again.
                    try {
                      listAndWatch();
                    } catch (RuntimeException e) {
                      e.addSuppressed(cause);
                      failure.compareAndSet(null, e);
                    }
                  }
                });
  }

  /** Binds a pending pod not submitted before, or holds it while paused. */
  private synchronized void submit(Pod pod) {
    var nodeName = pod.getSpec().getNodeName();
    if ((nodeName != null && !nodeName.isEmpty()) || !submitted.add(pod.getMetadata().getName())) {
      return;
    }
    var pool = binders;
    if (paused || pool == null) {
      held.add(pod);
    } else {
      bindOn(pool, pod);
    }
  }

  private void bindOn(ExecutorService pool, Pod pod) {
    var target = Workload.nodeName(Math.floorMod(next.getAndIncrement(), nodes));
    pool.execute(() -> bind(pod, target));
  }

  private void bind(Pod pod, String node) {
    var name = pod.getMetadata().getName();
    var body =
        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + name
            + "\",\"namespace\":\"" + namespace + "\",\"uid\":\"" + pod.getMetadata().getUid()
            + "\"},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"" + node + "\"}}";
    var http = bindingHttp.get(Math.floorMod(bindings.getAndIncrement(), bindingHttp.size()));
    var request =
        http.newHttpRequestBuilder()
            .uri(podsUrl + name + "/binding")
            .post("application/json", body)
            .build();
    try {
      var response = http.sendAsync(request, String.class).get();
      if (response.code() != 200 && response.code() != 201) {
        failure.compareAndSet(
            null,
            new IllegalStateException(
                "binding " + name + " to " + node + " answered " + response.code() + ": " + response.body()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure.compareAndSet(null, e);
    } catch (ExecutionException e) {
      failure.compareAndSet(null, e);
    }
  }

  /** Throws the first failed binding or list, if any. */
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
    Watch last;
    synchronized (this) {
      closed = true; // no onClose starts another watch after this
      last = watch;
      watch = null;
    }
    if (last != null) {
      last.close(); // outside the lock, which the watch's thread may be waiting for in submit
    }
    pause();
    bindingHttp.forEach(HttpClient::close);
    clients.forEach(KubernetesClient::close);
  }
}
