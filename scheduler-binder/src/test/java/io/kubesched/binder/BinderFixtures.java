package io.kubesched.binder;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.time.Duration;
import java.util.HashMap;

/** Pods, mock servers and clients for the binder tests. */
public final class BinderFixtures {

  public static final String NS = "team-a";
  public static final String NAME = "web-0";
  public static final String UID = "uid-1";
  public static final String NODE = "node-1";
  public static final String OTHER_NODE = "node-2";
  public static final Duration TIMEOUT = Duration.ofSeconds(5);

  public static final String BINDING_PATH = "/api/v1/namespaces/" + NS + "/pods/" + NAME + "/binding";
  public static final String POD_PATH = "/api/v1/namespaces/" + NS + "/pods/" + NAME;

  private BinderFixtures() {}

  /** A token bucket whose {@code acquire} is interrupted at once and whose {@code tryAcquire} is refused. */
  public static final TokenBucket INTERRUPTING =
      new TokenBucket() {
        @Override
        public void acquire() throws InterruptedException {
          throw new InterruptedException("test");
        }

        @Override
        public boolean tryAcquire() {
          return false;
        }
      };

  /** An unbound pod with a spec (no containers: neither the binder nor the mock server needs them). */
  public static Pod pod(String ns, String name, String uid) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .withUid(uid)
        .withResourceVersion("1")
        .endMetadata()
        .withNewSpec()
        .withSchedulerName("test-scheduler")
        .endSpec()
        .build();
  }

  /** The default pod ({@link #NS}/{@link #NAME}, {@link #UID}), unbound. */
  public static Pod pod() {
    return pod(NS, NAME, UID);
  }

  /** {@code pod} as the server would show it once bound to {@code node}. */
  public static Pod boundTo(Pod pod, String node) {
    return new PodBuilder(pod).editOrNewSpec().withNodeName(node).endSpec().build();
  }

  /** {@code pod} under another uid: the same name, deleted and created again. */
  public static Pod recreated(Pod pod, String newUid) {
    return new PodBuilder(pod).editMetadata().withUid(newUid).endMetadata().build();
  }

  public static BindOptions subresource(NamespacedKubernetesClient client, Pod pod, String node) {
    return new BindOptions(client, pod, node, TIMEOUT, BindMode.SUBRESOURCE);
  }

  public static BindOptions setNodeName(NamespacedKubernetesClient client, Pod pod, String node) {
    return new BindOptions(client, pod, node, TIMEOUT, BindMode.SET_NODE_NAME);
  }

  /** A mock server in expectations mode (no CRUD: what is not expected answers 404), started. */
  /** A client that is never connected: for code that only holds one. */
  public static KubernetesClient offlineClient() {
    return new KubernetesClientBuilder()
        .withHttpClientFactory(new JdkHttpClientFactory())
        .withConfig(new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443").build())
        .build();
  }

  public static KubernetesMockServer expectationsServer() {
    var server = new KubernetesMockServer(false);
    server.init();
    return server;
  }

  /** A mock server in CRUD mode (it stores what it is sent), started. */
  public static KubernetesMockServer crudServer() {
    var server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
    server.init();
    return server;
  }

  /**
   * A JDK-HTTP client that never retries: fabric8 otherwise re-sends a request after an I/O error or a
   * 5xx (10 times by default, with exponential back-off from 100 ms).
   */
  public static NamespacedKubernetesClient clientWithoutRetries(KubernetesMockServer server) {
    return clientWithRetries(server, 0, 10);
  }

  /** A JDK-HTTP client that retries {@code limit} times, starting {@code intervalMillis} apart. */
  public static NamespacedKubernetesClient clientWithRetries(
      KubernetesMockServer server, int limit, int intervalMillis) {
    return server.createClient(
        builder ->
            builder
                .withHttpClientFactory(new JdkHttpClientFactory())
                .editOrNewConfig()
                .withRequestRetryBackoffLimit(limit)
                .withRequestRetryBackoffInterval(intervalMillis)
                .endConfig());
  }
}
