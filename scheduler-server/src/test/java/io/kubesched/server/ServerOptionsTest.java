package io.kubesched.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.facade.Options;
import io.kubesched.facade.SchedulerSetup;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A KubeSchedulerConfiguration as the server's options (the profiles: the facade's SchedulerSetupTest). */
class ServerOptionsTest {

  private static final String HEADER =
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

  private static SchedulerConfiguration config(String yaml) {
    return SchedulerConfiguration.parse(HEADER + yaml, "test.yaml");
  }

  private static Options options(String yaml) {
    return ServerOptions.options(SchedulerSetup.of(config(yaml), "config test.yaml"), new Options.Connection.Fake(), SchedulerMetrics.NONE);
  }

  @Test
  void kube_schedulers_defaults_become_the_facades_and_kube_schedulers_lease_is_not_taken() {
    var options = options("profiles:\n  - schedulerName: b-sched\n  - schedulerName: a-sched\n");
    assertEquals(Duration.ofSeconds(1), options.initialBackoff());
    assertEquals(Duration.ofSeconds(10), options.maxBackoff());
    assertEquals(50, options.qps());
    assertEquals(100, options.burst());
    assertEquals(16, options.parallelism());
    var election = options.leaderElection().orElseThrow(() -> new AssertionError("kube elects by default"));
    assertEquals("kube-system", election.leaseNamespace());
    assertEquals(
        Optional.of("a-sched"),
        election.leaseName(),
        "kube-scheduler's own Lease is left to it: the first scheduler name, as the facade names a Lease");
    assertEquals(Duration.ofSeconds(15), election.leaseDuration());
    assertEquals(Duration.ofSeconds(10), election.renewDeadline());
    assertEquals(Duration.ofSeconds(2), election.retryPeriod());
    assertEquals(EnumSet.allOf(ClusterData.class), options.watch(), "any later policy may read anything");
  }

  @Test
  void every_setting_the_file_gives_reaches_the_options() {
    var options =
        options(
            """
            podInitialBackoffSeconds: 2
            podMaxBackoffSeconds: 30
            parallelism: 4
            clientConnection:
              qps: 12.5
              burst: 25
            leaderElection:
              leaderElect: true
              resourceLock: leases
              resourceNamespace: kubesched
              resourceName: my-lease
              leaseDuration: 30s
              renewDeadline: 20s
              retryPeriod: 4s
            profiles:
              - schedulerName: a-sched
            """);
    assertEquals(Duration.ofSeconds(2), options.initialBackoff());
    assertEquals(Duration.ofSeconds(30), options.maxBackoff());
    assertEquals(12.5, options.qps());
    assertEquals(25, options.burst());
    assertEquals(4, options.parallelism());
    var election = options.leaderElection().orElseThrow();
    assertEquals("kubesched", election.leaseNamespace());
    assertEquals(Optional.of("my-lease"), election.leaseName());
    assertEquals(Duration.ofSeconds(30), election.leaseDuration());
    assertEquals(Duration.ofSeconds(20), election.renewDeadline());
    assertEquals(Duration.ofSeconds(4), election.retryPeriod());
  }

  @Test
  void leader_election_turned_off_in_the_file_is_off() {
    var options = options("leaderElection:\n  leaderElect: false\nprofiles:\n  - schedulerName: a-sched\n");
    assertEquals(Optional.empty(), options.leaderElection());
  }

  @Test
  void a_lock_other_than_a_lease_is_refused_naming_the_file_the_path_and_the_value() {
    var e =
        assertThrows(
            ConfigurationException.class,
            () -> options("leaderElection:\n  resourceLock: configmaps\nprofiles:\n  - schedulerName: a-sched\n"));
    assertTrue(e.getMessage().contains("test.yaml"), e.getMessage());
    assertTrue(e.getMessage().contains("leaderElection.resourceLock"), e.getMessage());
    assertTrue(e.getMessage().contains("configmaps"), e.getMessage());
  }

  @Test
  void timings_fabric8s_elector_cannot_keep_are_refused_naming_the_file_and_setting() {
    var e =
        assertThrows(
            ConfigurationException.class,
            () ->
                options(
                    """
                    leaderElection:
                      leaseDuration: 15s
                      renewDeadline: 4s
                      retryPeriod: 2s
                    profiles:
                      - schedulerName: a-sched
                    """));
    assertTrue(e.getMessage().startsWith("config test.yaml: leaderElection: renewDeadline PT4S"), e.getMessage());
  }

  @Test
  void a_kubeconfig_flag_wins_then_the_files_then_in_cluster_in_a_pod_then_the_usual_lookup() {
    var flag = Optional.of(Path.of("k.yaml"));
    var file = Optional.of(Path.of("/etc/kubernetes/scheduler.conf"));
    var inPod = Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1");
    assertEquals(new Options.Connection.Kubeconfig(flag), ServerOptions.connection(flag, file, inPod));
    assertEquals(new Options.Connection.Kubeconfig(file), ServerOptions.connection(Optional.empty(), file, inPod));
    assertEquals(
        new Options.Connection.InCluster(), ServerOptions.connection(Optional.empty(), Optional.empty(), inPod));
    assertEquals(
        new Options.Connection.Kubeconfig(Optional.empty()),
        ServerOptions.connection(Optional.empty(), Optional.empty(), Map.of("HOME", "/root")));
  }

  @Test
  void the_files_client_connection_kubeconfig_reaches_the_connection() throws Exception {
    var setup = io.kubesched.facade.SchedulerSetup.of(ServerFixtures.config(
        "clientConnection: {kubeconfig: /etc/kubernetes/scheduler.conf}\nprofiles: [{schedulerName: web}]\n"),
        "config test.yaml");

    assertEquals(
        new Options.Connection.Kubeconfig(Optional.of(Path.of("/etc/kubernetes/scheduler.conf"))),
        ServerOptions.connection(Optional.empty(), setup.kubeconfig(), Map.of()));
  }
}
