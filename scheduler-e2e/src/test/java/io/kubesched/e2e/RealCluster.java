package io.kubesched.e2e;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One kube-apiserver + etcd started by {@code test-cluster/cluster.sh} for the whole test run, with the
 * README's RBAC applied for the scheduler's service account. If the cluster cannot be built or started,
 * creating it fails with the script's output: the end-to-end run fails, it never skips.
 */
final class RealCluster implements AutoCloseable {

  private final Path projectDir;
  private final Path stateDir;
  private final KubernetesClient admin;

  private RealCluster(Path projectDir, Path stateDir) {
    this.projectDir = projectDir;
    this.stateDir = stateDir;
    this.admin = client(stateDir.resolve("admin.kubeconfig"));
  }

  static RealCluster start() throws IOException, InterruptedException {
    var projectDir = Path.of(System.getProperty("kubesched.projectDir", "..")).toAbsolutePath().normalize();
    var stateDir = Files.createTempDirectory("kubesched-e2e-").resolve("cluster");
    run(projectDir, "start", stateDir.toString());
    // A run interrupted with Ctrl-C never reaches JUnit's close: stop the processes anyway.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    run(projectDir, "stop", stateDir.toString());
                  } catch (IOException | InterruptedException | RuntimeException e) {
                    // the JVM is going away; nothing else to do
                  }
                },
                "stop-test-cluster"));
    var cluster = new RealCluster(projectDir, stateDir);
    try {
      cluster.applyReadmeRbac();
    } catch (RuntimeException | IOException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** A client with the admin identity (system:masters), for setting up and inspecting. */
  KubernetesClient admin() {
    return admin;
  }

  /** The kubeconfig of the scheduler's identity: the service account kube-system/kubesched. */
  Path schedulerKubeconfig() {
    return stateDir.resolve("scheduler.kubeconfig");
  }

  /** Stops kube-apiserver and starts it again on the same etcd; returns once it is ready. */
  void restartApiServer() throws IOException, InterruptedException {
    run(projectDir, "restart-apiserver", stateDir.toString());
  }

  static KubernetesClient client(Path kubeconfig) {
    var config = Config.fromKubeconfig(kubeconfig.toFile());
    config.setHttp2Disable(true); // as the library's own client: see KubeConnections
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .build();
  }

  /** Applies the RBAC manifest the README documents, as written there. */
  private void applyReadmeRbac() throws IOException {
    var readme = Files.readString(projectDir.resolve("README.md"));
    var section = readme.indexOf("## RBAC");
    var start = readme.indexOf("```yaml\n", section);
    if (section < 0 || start < 0) {
      throw new IllegalStateException("README.md has no yaml block under '## RBAC'");
    }
    start += "```yaml\n".length();
    var yaml = readme.substring(start, readme.indexOf("```", start));
    admin.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).create();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    admin.close();
    run(projectDir, "stop", stateDir.toString());
  }

  private static void run(Path projectDir, String... args) throws IOException, InterruptedException {
    var command = new ArrayList<>(List.of(projectDir.resolve("test-cluster/cluster.sh").toString()));
    command.addAll(List.of(args));
    var log = Files.createTempFile("kubesched-cluster-", ".log");
    var process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    int exit = process.waitFor();
    var output = Files.readString(log);
    Files.deleteIfExists(log);
    System.err.print(output);
    if (exit != 0) {
      throw new IllegalStateException(
          "test-cluster/cluster.sh " + String.join(" ", args) + " failed (exit " + exit + "):\n" + output);
    }
  }
}
