package io.kubesched.benchmark.e2e;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A fresh kube-apiserver and etcd from {@code test-cluster/cluster.sh} (the end-to-end suite's), one per
 * run, so that no run sees another's objects, watch cache or etcd history.
 *
 * <p>The TaintNodesByCondition admission plugin is off: it taints every new Node {@code
 * node.kubernetes.io/not-ready:NoSchedule}, which the node lifecycle controller of kube-controller-manager
 * removes once the kubelet reports Ready. Neither runs here, so the plugin is left out instead, and nodes are
 * created Ready and untainted, as they would be in a running cluster.
 */
final class TestCluster implements AutoCloseable {

  private final Path script;
  private final Path dir;
  private final KubernetesClient admin;
  /** Stops the cluster if the runner is interrupted (Ctrl-C) before {@link #close}. */
  private final Thread stopOnExit;

  private TestCluster(Path script, Path dir) {
    this.script = script;
    this.dir = dir;
    this.admin = client(adminKubeconfig());
    this.stopOnExit = new Thread(this::stopQuietly, "stop-benchmark-cluster");
    Runtime.getRuntime().addShutdownHook(stopOnExit);
  }

  static TestCluster start(Path projectDir, Path dir) throws IOException, InterruptedException {
    var script = projectDir.resolve("test-cluster/cluster.sh");
    run(script, Map.of("KUBESCHED_APISERVER_ARGS", "--disable-admission-plugins=TaintNodesByCondition"),
        "start", dir.toString());
    return new TestCluster(script, dir);
  }

  /** The kubeconfig of system:masters, which both schedulers and the runner use. */
  Path adminKubeconfig() {
    return dir.resolve("admin.kubeconfig");
  }

  KubernetesClient admin() {
    return admin;
  }

  static KubernetesClient client(Path kubeconfig) {
    var config = Config.fromKubeconfig(kubeconfig.toFile());
    config.setHttp2Disable(true); // as the library's own client
    config.setRequestTimeout(60_000);
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .build();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    Runtime.getRuntime().removeShutdownHook(stopOnExit);
    admin.close();
    run(script, Map.of(), "stop", dir.toString());
  }

  private void stopQuietly() {
    try {
      run(script, Map.of(), "stop", dir.toString());
    } catch (IOException | InterruptedException | RuntimeException e) {
      // the JVM is going away; nothing else to do
    }
  }

  private static void run(Path script, Map<String, String> environment, String... args) throws IOException, InterruptedException {
    var command = new ArrayList<>(List.of(script.toString()));
    command.addAll(List.of(args));
    var log = Files.createTempFile("kubesched-cluster-", ".log");
    try {
      var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().putAll(environment);
      var process = builder.start();
      int exit = process.waitFor();
      if (exit != 0) {
        throw new IllegalStateException(
            script + " " + String.join(" ", args) + " failed (exit " + exit + "):\n" + Files.readString(log));
      }
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
