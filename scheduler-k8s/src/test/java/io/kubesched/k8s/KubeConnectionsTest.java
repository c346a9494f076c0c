package io.kubesched.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientImpl;
import io.kubesched.api.ConfigurationException;
import io.kubesched.http.BlockingHttpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Creating connections: from a kubeconfig, to the embedded fake cluster, in a pod. */
class KubeConnectionsTest {

  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      clusters:
      - name: local
        cluster:
          server: https://127.0.0.1:6443
          insecure-skip-tls-verify: true
      users:
      - name: robot
        user:
          token: s3cr3t-token
      contexts:
      - name: local-robot
        context:
          cluster: local
          user: robot
          namespace: team-a
      current-context: local-robot
      """;

  @TempDir Path dir;

  @Test
  @DisplayName("a kubeconfig gives a real (not fake) JDK-HTTP client for its server, namespace and token")
  void kubeconfigGivesAClientForItsServer() throws IOException {
    var path = Files.writeString(dir.resolve("config"), KUBECONFIG);

    try (var connection = KubeConnections.fromKubeconfig(path)) {
      var client = connection.client();
      assertFalse(connection.fake());
      assertEquals(URI.create("https://127.0.0.1:6443/"), URI.create(client.getMasterUrl().toString()));
      assertEquals("team-a", client.getNamespace());
      assertEquals("s3cr3t-token", client.getConfiguration().getAutoOAuthToken());
      assertInstanceOf(JdkHttpClientImpl.class, client.getHttpClient());
    }
  }

  @Test
  @DisplayName("a kubeconfig's connection binds through a blocking client of its own, with the same server and"
      + " token and the scheduling client's lean serialization; closing the connection closes it")
  void kubeconfigGivesABindingClient() throws IOException {
    var path = Files.writeString(dir.resolve("config"), KUBECONFIG);

    var connection = KubeConnections.fromKubeconfig(path);
    var binding = connection.bindingClient();
    try (connection) {
      assertInstanceOf(BlockingHttpClient.class, binding.getHttpClient());
      assertEquals(connection.client().getMasterUrl(), binding.getMasterUrl());
      assertEquals("s3cr3t-token", binding.getConfiguration().getAutoOAuthToken());
      var pod =
          binding.getKubernetesSerialization().unmarshal(
              "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
                  + "\"managedFields\":[{\"manager\":\"m\"}]}}",
              io.fabric8.kubernetes.api.model.Pod.class);
      assertTrue(pod.getMetadata().getManagedFields().isEmpty(), "managedFields are not decoded");
      assertFalse(binding.getHttpClient() == connection.schedulingClient().getHttpClient());
      assertSame(
          connection.schedulingClient().getKubernetesSerialization(),
          binding.getKubernetesSerialization(),
          "one serialization: each kind's deserializers built once for both clients");
    }
    assertTrue(binding.getHttpClient().isClosed());
    assertTrue(connection.schedulingClient().getHttpClient().isClosed());
  }

  @Test
  @DisplayName("a missing kubeconfig is a ConfigurationException naming the path")
  void missingKubeconfigIsRefused() {
    var missing = dir.resolve("missing-config");

    var e = assertThrows(ConfigurationException.class, () -> KubeConnections.fromKubeconfig(missing));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  @DisplayName("a file that is not a kubeconfig is a ConfigurationException naming the path")
  void textFileIsRefused() throws IOException {
    var path = Files.writeString(dir.resolve("notes.txt"), "just some text, not a kubeconfig");

    var e = assertThrows(ConfigurationException.class, () -> KubeConnections.fromKubeconfig(path));
    assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
    assertNotNull(e.getCause());
  }

  @Test
  @DisplayName("an empty file is a ConfigurationException")
  void emptyFileIsRefused() throws IOException {
    var path = Files.writeString(dir.resolve("empty"), "");

    assertThrows(ConfigurationException.class, () -> KubeConnections.fromKubeconfig(path));
  }

  @Test
  @DisplayName("malformed YAML is a ConfigurationException")
  void malformedYamlIsRefused() throws IOException {
    var path = Files.writeString(dir.resolve("broken.yaml"), "clusters: [unclosed\n");

    assertThrows(ConfigurationException.class, () -> KubeConnections.fromKubeconfig(path));
  }

  @Test
  @DisplayName("YAML that is not a kubeconfig is a ConfigurationException")
  void yamlWithoutContextsIsRefused() throws IOException {
    var path = Files.writeString(dir.resolve("values.yaml"), "replicas: 3\nimage: nginx\n");

    assertThrows(ConfigurationException.class, () -> KubeConnections.fromKubeconfig(path));
  }

  @Test
  @DisplayName("the fake cluster is a working JDK-HTTP client marked fake")
  void fakeClusterWorks() {
    try (var connection = KubeConnections.fake()) {
      var client = connection.client();
      assertTrue(connection.fake());
      assertInstanceOf(JdkHttpClientImpl.class, client.getHttpClient());
      assertSame(connection.schedulingClient(), connection.bindingClient());

      client.nodes().resource(node("node-1")).create();

      var read = client.nodes().withName("node-1").get();
      assertNotNull(read, "the node created was not found");
      assertEquals("node-1", read.getMetadata().getName());
      assertNotNull(read.getMetadata().getUid(), "the fake cluster assigns a uid");
    }
  }

  @Test
  @DisplayName("two fake clusters do not share objects")
  void fakeClustersAreIndependent() {
    try (var first = KubeConnections.fake();
        var second = KubeConnections.fake()) {
      first.client().nodes().resource(node("node-1")).create();

      assertNull(second.client().nodes().withName("node-1").get());
      assertFalse(first.client().getMasterUrl().equals(second.client().getMasterUrl()));
    }
  }

  @Test
  @DisplayName("after close the fake cluster's client is closed and its server no longer answers")
  void closedFakeClusterNoLongerAnswers() throws Exception {
    var connection = KubeConnections.fake();
    var nodes = URI.create(connection.client().getMasterUrl().toString()).resolve("/api/v1/nodes");
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    var request = HttpRequest.newBuilder(nodes).timeout(Duration.ofSeconds(2)).build();
    assertEquals(200, http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());

    connection.close();

    assertTrue(connection.client().getHttpClient().isClosed());
    assertThrows(IOException.class, () -> http.send(request, HttpResponse.BodyHandlers.discarding()));
  }

  @Test
  @DisplayName("close closes the client before running onClose")
  void closeClosesTheClientFirst() {
    var client =
        KubeConnections.build(
            new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443").build());
    var clientClosedFirst = new AtomicBoolean();
    var ran = new AtomicBoolean();

    new KubeConnection(client, false, () -> {
          ran.set(true);
          clientClosedFirst.set(client.getHttpClient().isClosed());
        })
        .close();

    assertTrue(ran.get(), "onClose did not run");
    assertTrue(clientClosedFirst.get(), "onClose ran before the client was closed");
  }

  @Test
  @DisplayName("a watch the API server ends is made again after 250 ms, unless the configuration set its own interval")
  void watchesAreMadeAgainSoonerThanFabric8sDefault() {
    var unset = new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443").build();
    assertEquals(KubeConnections.FABRIC8_WATCH_RECONNECT_MS, unset.getWatchReconnectInterval(), "fabric8's default");
    try (var client = KubeConnections.build(unset)) {
      assertEquals(KubeConnections.WATCH_RECONNECT_MS, client.getConfiguration().getWatchReconnectInterval());
    }
    var set = new ConfigBuilder(unset).withWatchReconnectInterval(5_000).build();
    try (var client = KubeConnections.build(set)) {
      assertEquals(5_000, client.getConfiguration().getWatchReconnectInterval());
    }
  }

  @Test
  @DisplayName("in-cluster configuration outside a pod is a ConfigurationException saying so")
  void inClusterOutsideAPodIsRefused() {
    assumeTrue(
        System.getenv("KUBERNETES_SERVICE_HOST") == null
            || !Files.exists(KubeConnections.SERVICE_ACCOUNT_TOKEN),
        "this test runs in a pod");

    var e = assertThrows(ConfigurationException.class, KubeConnections::inCluster);
    assertTrue(e.getMessage().contains("does not seem to run in a pod"), e.getMessage());
    assertTrue(e.getMessage().contains("KUBERNETES_SERVICE_HOST"), e.getMessage());
  }

  private static Node node(String name) {
    return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
  }
}
