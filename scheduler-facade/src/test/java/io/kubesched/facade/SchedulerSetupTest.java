package io.kubesched.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ConfigurationException;
import io.kubesched.policy.config.SchedulerConfiguration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A KubeSchedulerConfiguration as a controller's profiles and options: what the server and the starter share. */
class SchedulerSetupTest {

  private static final String HEADER =
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

  private static SchedulerConfiguration config(String yaml) {
    return SchedulerConfiguration.parse(HEADER + yaml, "test.yaml");
  }

  private static SchedulerSetup setup(String yaml) {
    return SchedulerSetup.of(config(yaml), "config test.yaml");
  }

  @Test
  void profiles_keep_the_files_order_and_their_policies() {
    var config = config("profiles:\n  - schedulerName: b-sched\n  - schedulerName: a-sched\n");
    var profiles = SchedulerSetup.of(config, "config test.yaml").profiles();
    assertEquals(List.of("b-sched", "a-sched"), List.copyOf(profiles.keySet()));
    assertSame(config.profiles().get(0).policy(), profiles.get("b-sched"));
    assertSame(config.profiles().get(1).policy(), profiles.get("a-sched"));
  }

  @Test
  void kube_schedulers_own_name_by_default_is_refused_saying_to_name_it() {
    for (var yaml : List.of("", "profiles:\n  - plugins: {}\n")) {
      var e = assertThrows(ConfigurationException.class, () -> setup(yaml), yaml);
      assertEquals(
          "config test.yaml: profiles[0].schedulerName is 'default-scheduler' only because the file names no"
              + " scheduler (kube's default): two schedulers binding the same pods fight over them; give each"
              + " profile a schedulerName of its own, or write schedulerName: default-scheduler where this"
              + " scheduler replaces kube-scheduler",
          e.getMessage());
    }
  }

  @Test
  void kube_schedulers_own_name_written_in_the_file_is_served_and_opts_the_options_in() {
    var setup = setup("profiles:\n  - schedulerName: a-sched\n  - schedulerName: default-scheduler\n");
    assertEquals(List.of("a-sched", "default-scheduler"), List.copyOf(setup.profiles().keySet()));
    assertTrue(setup.applyTo(Options.builder()).build().replacesKubeScheduler());
    assertTrue(!setup("profiles:\n  - schedulerName: a-sched\n").applyTo(Options.builder()).build()
        .replacesKubeScheduler());
  }

  @Test
  void the_loop_settings_reach_the_builder_and_the_election_is_the_callers_to_apply() {
    var setup =
        setup(
            """
            podInitialBackoffSeconds: 2
            podMaxBackoffSeconds: 30
            parallelism: 4
            clientConnection:
              kubeconfig: /etc/kubesched/kubeconfig
              qps: 12.5
              burst: 25
            leaderElection:
              resourceNamespace: kubesched
              resourceName: my-lease
              leaseDuration: 30s
              renewDeadline: 20s
              retryPeriod: 4s
            profiles:
              - schedulerName: a-sched
            """);
    var options = setup.applyTo(Options.builder().fake()).build();
    assertEquals(Duration.ofSeconds(2), options.initialBackoff());
    assertEquals(Duration.ofSeconds(30), options.maxBackoff());
    assertEquals(12.5, options.qps());
    assertEquals(25, options.burst());
    assertEquals(4, options.parallelism());
    assertEquals(Optional.empty(), options.leaderElection(), "applyTo leaves the election alone");
    var election = setup.leaderElection().orElseThrow();
    assertEquals("kubesched", election.leaseNamespace());
    assertEquals(Optional.of("my-lease"), election.leaseName());
    assertEquals(Duration.ofSeconds(30), election.leaseDuration());
    assertEquals(Duration.ofSeconds(20), election.renewDeadline());
    assertEquals(Duration.ofSeconds(4), election.retryPeriod());
    assertEquals(Optional.of(Path.of("/etc/kubesched/kubeconfig")), setup.kubeconfig());
    assertEquals("config test.yaml", setup.source());
  }

  @Test
  void kube_schedulers_lease_is_left_to_it_and_an_election_turned_off_is_off() {
    var elected = setup("profiles:\n  - schedulerName: b-sched\n  - schedulerName: a-sched\n");
    assertEquals(Optional.of("a-sched"), elected.leaderElection().orElseThrow().leaseName());
    assertEquals("kube-system", elected.leaderElection().orElseThrow().leaseNamespace());
    var off = setup("leaderElection:\n  leaderElect: false\nprofiles:\n  - schedulerName: a-sched\n");
    assertEquals(Optional.empty(), off.leaderElection());
  }

  @Test
  void timings_the_elector_cannot_keep_are_refused_naming_the_source_and_setting() {
    var e =
        assertThrows(
            ConfigurationException.class,
            () -> setup("leaderElection:\n  renewDeadline: 4s\nprofiles:\n  - schedulerName: a-sched\n"));
    assertTrue(e.getMessage().startsWith("config test.yaml: leaderElection: renewDeadline PT4S"), e.getMessage());
  }
}
