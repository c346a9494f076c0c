package io.kubesched.testcluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real control plane, kube-apiserver and etcd on loopback, and on request kube-controller-manager with
 * the PersistentVolume controllers and the disruption controller, run by the project's {@code
 * tools/test-cluster/cluster.sh} (which builds them from source on first use and caches them outside the
 * repository), with a fabric8 client of the admin identity. The end-to-end tests share one for the whole run;
 * the end-to-end benchmark starts a fresh one per measured run.
 *
 * <pre>{@code
 * try (var cluster = TestCluster.builder(projectDirectory).start()) {
 *   cluster.admin().nodes().resource(node).create();
 *   var options = Options.builder().kubeconfig(cluster.schedulerKubeconfig());
 * }
 * }</pre>
 *
 * <p>What the script gives a started cluster: RBAC on; the {@code GenericWorkload} feature gate on and {@code
 * scheduling.k8s.io/v1beta1} served (the Workload API's PodGroups, and pods keeping {@code spec.schedulingGroup}:
 * both are off by default in Kubernetes 1.37; {@link Builder#apiServerFlags} adds flags after these); {@linkplain
 * #adminKubeconfig() an admin identity}
 * (system:masters); {@linkplain #schedulerKubeconfig() the identity of the service account}
 * {@code kube-system/kubesched}, with no permissions until RBAC grants some; free ports picked at start; all
 * state in {@linkplain #stateDirectory() one directory}, deleted by {@link #close}. It never skips: if Go is
 * missing or the build or start fails, {@link Builder#start} throws with the script's output.
 *
 * <p>The controller-manager ({@link Builder#controllerManager()} or {@link #startControllerManager()}) runs
 * only the controllers that claims, volumes and disruption budgets need, as the admin identity: {@code
 * persistentvolume-binder-controller} (binds claims to volumes, pre-bound ones included, and hands a claim
 * of a class whose provisioner is not built in to that provisioner by annotating it with {@code
 * volume.kubernetes.io/storage-provisioner}, for a {@code WaitForFirstConsumer} class only once the claim
 * carries {@code volume.kubernetes.io/selected-node}), the claim and volume protection controllers (so that
 * deleted claims and volumes go away), and {@code ephemeral-volume-controller} (creates the claim of each
 * generic ephemeral volume of a pod). It does not provision: a provisioner, such as the end-to-end
 * suite's test provisioner, watches for the claims handed to it and creates their volumes. Without it,
 * claims and volumes stay unbound. It also runs {@code disruption-controller}, which writes each
 * PodDisruptionBudget's status ({@code disruptionsAllowed} is what preemption reads): there is no kubelet,
 * so a pod counts as healthy only once a test sets its {@code Ready} condition, and only budgets with an
 * integer {@code minAvailable} work for pods without a controller (the others need the owner's scale). And it
 * runs {@code podgroup-protection-controller} (with the {@code GenericWorkload} gate), which takes the finalizer
 * the API server puts on every Workload API PodGroup off once no pod names the group, so that a deleted PodGroup
 * goes away. Its log is {@link #controllerManagerLog()}.
 *
 * <p>Each run of the script has its output captured (not streamed): on success it is logged at DEBUG under
 * this class's logger, on failure it is the message of the {@link ClusterScriptException}.
 *
 * <p>Threads: {@link #admin()} is fabric8's client, safe from any thread. {@link #restartApiServer}, {@link #restartEtcd} and
 * {@link #close} may be called from any thread; they run one at a time and block the caller while the script
 * runs. A shutdown hook stops the processes if the JVM exits before {@link #close} (a run interrupted with
 * Ctrl-C never reaches it); {@code close} removes the hook. Interrupting a thread that waits for the script
 * throws {@link InterruptedException} there and leaves the script running to its end.
 */
public final class TestCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TestCluster.class);

  private final Path script;
  private final Path stateDirectory;
  private final KubernetesClient admin;
  private final Thread stopAtExit;
  private boolean closed; // guarded by this
  private boolean controllerManager; // guarded by this
  private final List<String> controllerManagerFlags;

  private TestCluster(
      Path script, Path stateDirectory, KubernetesClient admin, Thread stopAtExit, List<String> controllerManagerFlags) {
    this.script = script;
    this.stateDirectory = stateDirectory;
    this.admin = admin;
    this.stopAtExit = stopAtExit;
    this.controllerManagerFlags = controllerManagerFlags;
  }

  /**
   * @param projectDirectory the root of this project's checkout, where {@code tools/test-cluster/cluster.sh} is
   * @return a builder for a cluster run by that checkout's script
   * @throws IllegalArgumentException if the directory has no {@code tools/test-cluster/cluster.sh}
   */
  public static Builder builder(Path projectDirectory) {
    return new Builder(projectDirectory);
  }

  /**
   * @return a client of the admin identity (system:masters), for setting up and inspecting; closed by
   *     {@link #close}, so callers do not close it
   */
  public KubernetesClient admin() {
    return admin;
  }

  /**
   * Creates, as admin, the RBAC objects docs/operations.md documents for the scheduler's service account (the
   * yaml block under its {@code ## RBAC} heading, as written there), so that a test runs the scheduler with
   * exactly what the docs tell users to grant.
   *
   * @throws IOException if the project's docs/operations.md cannot be read
   * @throws IllegalStateException if docs/operations.md has no yaml block under {@code ## RBAC}
   */
  public void applyDocumentedRbac() throws IOException {
    var readme =
        Files.readString(script.getParent().getParent().getParent().resolve("docs").resolve("operations.md"));
    var section = readme.indexOf("## RBAC");
    var start = section < 0 ? -1 : readme.indexOf("```yaml\n", section);
    if (start < 0) {
      throw new IllegalStateException("docs/operations.md has no yaml block under '## RBAC'");
    }
    start += "```yaml\n".length();
    var yaml = readme.substring(start, readme.indexOf("```", start));
    admin.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).create();
  }

  /** @return the kubeconfig of the admin identity (system:masters), for processes that run as admin */
  public Path adminKubeconfig() {
    return stateDirectory.resolve("admin.kubeconfig");
  }

  /**
   * @return the kubeconfig of the service account {@code kube-system/kubesched}: a restricted identity,
   *     allowed only what RBAC bound to that account grants
   */
  public Path schedulerKubeconfig() {
    return stateDirectory.resolve("scheduler.kubeconfig");
  }

  /**
   * @return the log file of kube-controller-manager in the {@linkplain #stateDirectory() state directory}
   *     (there once it has been started), for diagnosing a claim that does not bind
   */
  public Path controllerManagerLog() {
    return stateDirectory.resolve("kube-controller-manager.log");
  }

  /** @return the directory with all of the cluster's state (etcd's data, keys, logs, kubeconfigs) */
  public Path stateDirectory() {
    return stateDirectory;
  }

  /**
   * Stops kube-apiserver and starts it again, with the same flags, on the same etcd; returns once it answers
   * ready. Clients see their connections drop and requests fail meanwhile; the objects stay.
   *
   * @throws IllegalStateException if the cluster is closed
   * @throws ClusterScriptException if the API server does not come back
   */
  public synchronized void restartApiServer() throws IOException, InterruptedException {
    if (closed) {
      throw new IllegalStateException("the test cluster in " + stateDirectory + " is closed");
    }
    run(script, Map.of(), "restart-apiserver", stateDirectory);
  }

  /**
   * Stops etcd and starts it again on the same data; returns once it answers ready. kube-apiserver stays up
   * and reconnects: its requests fail or wait meanwhile, and its own watches on etcd resume or relist.
   *
   * @throws IllegalStateException if the cluster is closed
   * @throws ClusterScriptException if etcd does not come back
   */
  public synchronized void restartEtcd() throws IOException, InterruptedException {
    if (closed) {
      throw new IllegalStateException("the test cluster in " + stateDirectory + " is closed");
    }
    run(script, Map.of(), "restart-etcd", stateDirectory);
  }

  /**
   * Starts kube-controller-manager with the PersistentVolume and disruption controllers (see the class
   * comment) unless it runs already; returns once it answers healthy. It runs until {@link #close}, and
   * across {@link #restartApiServer} (it reconnects).
   *
   * @throws IllegalStateException if the cluster is closed
   * @throws ClusterScriptException if it does not start (the message has the end of its log)
   */
  public synchronized void startControllerManager() throws IOException, InterruptedException {
    if (closed) {
      throw new IllegalStateException("the test cluster in " + stateDirectory + " is closed");
    }
    if (!controllerManager) {
      run(
          script,
          controllerManagerFlags.isEmpty()
              ? Map.of()
              : Map.of("KUBESCHED_CONTROLLER_MANAGER_ARGS", String.join(" ", controllerManagerFlags)),
          "start-controller-manager",
          stateDirectory);
      controllerManager = true;
    }
  }

  /** @return whether kube-controller-manager has been started (and the cluster is not closed) */
  public synchronized boolean controllerManagerRunning() {
    return controllerManager && !closed;
  }

  /**
   * Closes the admin client, stops kube-controller-manager, kube-apiserver and etcd, and deletes the state directory. Idempotent: a
   * second call does nothing.
   *
   * @throws ClusterScriptException if the script fails to stop the cluster
   */
  @Override
  public synchronized void close() throws IOException, InterruptedException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(stopAtExit);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down: the hook stops the cluster as well; stopping twice is harmless.
    }
    admin.close();
    run(script, Map.of(), "stop", stateDirectory);
  }

  @Override
  public String toString() {
    return "TestCluster[" + stateDirectory + "]";
  }

  /**
   * How to start a {@link TestCluster}. Not thread-safe; {@link #start} may be called again for another
   * cluster, but only with another state directory.
   */
  public static final class Builder {

    private final Path script;
    private @Nullable Path stateDirectory;
    private List<String> apiServerFlags = List.of();
    private List<String> controllerManagerFlags = List.of();
    private @Nullable Duration requestTimeout;
    private boolean controllerManager;

    private Builder(Path projectDirectory) {
      Objects.requireNonNull(projectDirectory, "projectDirectory");
      this.script =
          projectDirectory.toAbsolutePath().normalize().resolve("tools").resolve("test-cluster").resolve("cluster.sh");
      if (!Files.isRegularFile(script)) {
        throw new IllegalArgumentException(
            "projectDirectory has no tools/test-cluster/cluster.sh: " + projectDirectory.toAbsolutePath());
      }
    }

    /**
     * Where the cluster keeps its state; the script deletes it when the cluster stops. Default: a new
     * temporary directory.
     *
     * @param directory a directory that does not exist yet or is empty
     */
    public Builder stateDirectory(Path directory) {
      this.stateDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /**
     * Flags added to kube-apiserver's command line, kept for {@link TestCluster#restartApiServer}. Default:
     * none of its own, so the script reads {@code KUBESCHED_APISERVER_ARGS} from this process's environment.
     *
     * @param flags each one flag with its value, such as {@code
     *     --disable-admission-plugins=TaintNodesByCondition}
     * @throws IllegalArgumentException if a flag does not start with {@code --} or contains white space (the
     *     script splits the flags at white space)
     */
    public Builder apiServerFlags(String... flags) {
      this.apiServerFlags = checkedFlags("an API server flag", flags);
      return this;
    }

    /**
     * Flags added to kube-controller-manager's command line whenever this cluster starts it. Default: none of
     * its own, so the script reads {@code KUBESCHED_CONTROLLER_MANAGER_ARGS} from this process's environment.
     *
     * @param flags each one flag with its value, such as {@code --kube-api-qps=5000}
     * @throws IllegalArgumentException if a flag does not start with {@code --} or contains white space (the
     *     script splits the flags at white space)
     */
    public Builder controllerManagerFlags(String... flags) {
      this.controllerManagerFlags = checkedFlags("a controller-manager flag", flags);
      return this;
    }

    private static List<String> checkedFlags(String what, String... flags) {
      for (var flag : flags) {
        if (!flag.startsWith("--") || flag.chars().anyMatch(Character::isWhitespace)) {
          throw new IllegalArgumentException(what + " must start with -- and contain no white space: '" + flag + "'");
        }
      }
      return List.of(flags);
    }

    /**
     * How long the admin client waits for the answer to one request. Default: fabric8's.
     *
     * @throws IllegalArgumentException if the timeout is not positive or longer than {@link
     *     Integer#MAX_VALUE} milliseconds
     */
    public Builder requestTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("requestTimeout must be positive and at most ~24 days: " + timeout);
      }
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * Starts kube-controller-manager with the PersistentVolume and disruption controllers as well, once the
     * API server is ready (as {@link TestCluster#startControllerManager()} does). Default: not started.
     */
    public Builder controllerManager() {
      this.controllerManager = true;
      return this;
    }

    /**
     * Builds kube-apiserver, kube-controller-manager and etcd if they are not cached yet (10 to 35 minutes
     * the first time), starts etcd and kube-apiserver, and kube-controller-manager if {@linkplain
     * #controllerManager() asked for}, and returns once they answer ready. Blocks the calling thread
     * throughout.
     *
     * @return the running cluster; the caller closes it
     * @throws ClusterScriptException if the build or the start fails; the script has then stopped whatever
     *     it started
     * @throws IOException if the script cannot be run or its output cannot be read
     * @throws InterruptedException if the calling thread is interrupted while the script runs
     */
    public TestCluster start() throws IOException, InterruptedException {
      var directory =
          stateDirectory != null ? stateDirectory : Files.createTempDirectory("kubesched-test-cluster-");
      Map<String, String> environment =
          apiServerFlags.isEmpty()
              ? Map.of()
              : Map.of("KUBESCHED_APISERVER_ARGS", String.join(" ", apiServerFlags));
      run(script, environment, "start", directory);
      var stopAtExit = new Thread(() -> stopQuietly(script, directory), "stop-test-cluster");
      Runtime.getRuntime().addShutdownHook(stopAtExit);
      try {
        var cluster =
            new TestCluster(
                script, directory, connect(directory.resolve("admin.kubeconfig"), requestTimeout), stopAtExit,
                controllerManagerFlags);
        if (controllerManager) {
          try {
            cluster.startControllerManager();
          } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.admin.close();
            throw e;
          }
        }
        return cluster;
      } catch (IOException | InterruptedException | RuntimeException e) {
        Runtime.getRuntime().removeShutdownHook(stopAtExit);
        try {
          run(script, Map.of(), "stop", directory);
        } catch (IOException | RuntimeException stopFailure) {
          e.addSuppressed(stopFailure);
        }
        throw e;
      }
    }
  }

  /** The project's client recipe (see KubeConnections): the JDK HTTP client, HTTP/1.1. */
  private static KubernetesClient connect(Path kubeconfig, @Nullable Duration requestTimeout) {
    var config = Config.fromKubeconfig(kubeconfig.toFile());
    config.setHttp2Disable(true);
    if (requestTimeout != null) {
      config.setRequestTimeout((int) requestTimeout.toMillis());
    }
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .build();
  }

  private static void stopQuietly(Path script, Path stateDirectory) {
    try {
      run(script, Map.of(), "stop", stateDirectory);
    } catch (IOException | InterruptedException | RuntimeException e) {
      // the JVM is going away; nothing else to do
    }
  }

  /**
   * Runs the script to its end, its output captured in a file rather than a pipe: kube-apiserver and etcd
   * outlive the script, and nothing of theirs should hold the caller's end open.
   */
  private static void run(Path script, Map<String, String> environment, String command, Path stateDirectory)
      throws IOException, InterruptedException {
    var line = List.of(script.toString(), command, stateDirectory.toString());
    var log = Files.createTempFile("kubesched-cluster-", ".log");
    try {
      var builder = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().putAll(environment);
      int exit = builder.start().waitFor();
      var output = Files.readString(log);
      if (exit != 0) {
        throw new ClusterScriptException(String.join(" ", line), exit, output);
      }
      LOG.debug("{}:\n{}", String.join(" ", line), output);
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
