package io.kubesched.server;

import static io.kubesched.server.ServerFixtures.createNode;
import static io.kubesched.server.ServerFixtures.createPod;
import static io.kubesched.server.ServerFixtures.eventually;

import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.util.Map;
import java.util.Optional;
import java.time.Duration;

/**
 * The server on the fake cluster as a process of its own, served as {@link Main} serves it (shutdown hook
 * included), for {@link ShutdownTest}. Argument: the HTTPS port (self-signed; no reviews: only the probes open). Once ready it creates a node and {@value #PODS}
 * pods of {@value #SCHEDULER}.
 */
public final class FakeServerMain {

  static final String SCHEDULER = "test-scheduler";
  static final int PODS = 3;

  private FakeServerMain() {}

  public static void main(String[] args) throws InterruptedException {
    Logging.configure("text", 2); // a line per decision, as -v=2 gives
    var config =
        ServerFixtures.config("leaderElection: {leaderElect: false}\nprofiles: [{schedulerName: " + SCHEDULER + "}]\n");
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var options =
        ServerOptions.options(SchedulerSetup.of(config, "test.yaml"), new Options.Connection.Fake(), MicrometerMetrics.of(registry));
    var serving =
        new ServingOptions(
            Integer.parseInt(args[0]),
            InetAddress.getLoopbackAddress(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            ServingOptions.DEFAULT_ALWAYS_ALLOW_PATHS);
    var server =
        new SchedulerServer(
            options, SchedulerSetup.of(config, "test.yaml").profiles(), false, serving, Map.of(), Map.of(), registry);
    var pods =
        new Thread(
            () -> {
              eventually(Duration.ofSeconds(60), "ready", () -> server.notReady().isEmpty());
              var kube = server.client().kubernetesClient();
              createNode(kube, "node-0", "4", "8Gi");
              for (int i = 0; i < PODS; i++) {
                createPod(kube, "pod-" + i, SCHEDULER, "100m", "64Mi");
              }
            },
            "fake-server-pods");
    pods.setDaemon(true);
    pods.start();
    System.exit(Main.serve(server, System.err));
  }
}
