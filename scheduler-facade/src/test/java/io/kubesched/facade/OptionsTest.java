package io.kubesched.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubesched.api.ClusterData;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.PodGroupRef;
import io.kubesched.api.SchedulerMetrics;
import io.kubesched.binder.BindMode;
import io.kubesched.facade.Options.Connection;
import io.kubesched.facade.Options.LeaderElection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OptionsTest {

  @Test
  void the_defaults_are_kube_schedulers_where_it_has_one_and_connect_with_the_default_kubeconfig() {
    var options = Options.builder().build();

    assertEquals(new Connection.Kubeconfig(Optional.empty()), options.connection());
    assertEquals("kubesched", options.schedulerName());
    assertEquals(Duration.ofSeconds(30), options.bindTimeout());
    assertEquals(Duration.ofSeconds(600), options.volumeBindingTimeout());
    assertEquals(Duration.ofSeconds(1), options.initialBackoff());
    assertEquals(Duration.ofSeconds(10), options.maxBackoff());
    assertEquals(Duration.ofSeconds(60), options.syncTimeout());
    assertEquals(Duration.ofMinutes(5), options.unschedulableTimeout());
    assertEquals(Duration.ofMinutes(15), options.assumedPodTtl());
    assertEquals(50.0, options.qps());
    assertEquals(100, options.burst());
    assertEquals(16, options.parallelBindings());
    assertEquals(16, options.parallelism());
    assertEquals(Duration.ofSeconds(30), options.shutdownTimeout());
    assertEquals(Optional.empty(), options.leaderElection());
    assertSame(SchedulerMetrics.NONE, options.metrics());
  }

  @Test
  void the_default_constants_are_the_defaults() {
    var options = Options.builder().build();

    assertEquals(Options.DEFAULT_SCHEDULER_NAME, options.schedulerName());
    assertEquals(Options.DEFAULT_BIND_TIMEOUT, options.bindTimeout());
    assertEquals(Options.DEFAULT_VOLUME_BINDING_TIMEOUT, options.volumeBindingTimeout());
    assertEquals(Options.DEFAULT_INITIAL_BACKOFF, options.initialBackoff());
    assertEquals(Options.DEFAULT_MAX_BACKOFF, options.maxBackoff());
    assertEquals(Options.DEFAULT_SYNC_TIMEOUT, options.syncTimeout());
    assertEquals(Options.DEFAULT_UNSCHEDULABLE_TIMEOUT, options.unschedulableTimeout());
    assertEquals(Options.DEFAULT_ASSUMED_POD_TTL, options.assumedPodTtl());
    assertEquals(Options.DEFAULT_QPS, options.qps());
    assertEquals(Options.DEFAULT_BURST, options.burst());
    assertEquals(Options.DEFAULT_PARALLEL_BINDINGS, options.parallelBindings());
    assertEquals(Options.DEFAULT_PARALLELISM, options.parallelism());
    assertEquals(Options.DEFAULT_SHUTDOWN_TIMEOUT, options.shutdownTimeout());
    assertEquals(EnumSet.allOf(PodGroupRef.Source.class), options.podGroupSources());
    assertEquals(Options.DEFAULT_POD_GROUP_TIMEOUT, options.podGroupTimeout());
    assertEquals(Set.of(), options.watch(), "only what the policies read");
  }

  @Test
  void every_setting_is_read_back_by_its_getter_and_reaches_the_controller() {
    var metrics = new RecordingMetrics();
    var election = LeaderElection.builder().lease("ops", "my-lease").build();
    var options =
        Options.builder()
            .inCluster()
            .schedulerName("my-scheduler")
            .bindTimeout(Duration.ofSeconds(3))
            .volumeBindingTimeout(Duration.ofSeconds(11))
            .backoff(Duration.ofMillis(200), Duration.ofSeconds(4))
            .syncTimeout(Duration.ofSeconds(5))
            .unschedulableTimeout(Duration.ofMinutes(6))
            .assumedPodTtl(Duration.ZERO)
            .rateLimit(7.5, 8)
            .parallelBindings(9)
            .parallelism(3)
            .shutdownTimeout(Duration.ofSeconds(10))
            .leaderElection(election)
            .metrics(metrics)
            .podGroupSources(Set.of(PodGroupRef.Source.COSCHEDULING))
            .podGroupTimeout(Duration.ofSeconds(42))
            .watch(Set.of(ClusterData.SERVICES))
            .build();

    assertEquals(new Connection.InCluster(), options.connection());
    assertEquals("my-scheduler", options.schedulerName());
    assertEquals(Duration.ofSeconds(3), options.bindTimeout());
    assertEquals(Duration.ofSeconds(11), options.volumeBindingTimeout());
    assertEquals(Duration.ofMillis(200), options.initialBackoff());
    assertEquals(Duration.ofSeconds(4), options.maxBackoff());
    assertEquals(Duration.ofSeconds(5), options.syncTimeout());
    assertEquals(Duration.ofMinutes(6), options.unschedulableTimeout());
    assertEquals(Duration.ZERO, options.assumedPodTtl());
    assertEquals(7.5, options.qps());
    assertEquals(8, options.burst());
    assertEquals(9, options.parallelBindings());
    assertEquals(3, options.parallelism());
    assertEquals(Duration.ofSeconds(10), options.shutdownTimeout());
    assertEquals(Optional.of(election), options.leaderElection());
    assertSame(metrics, options.metrics());
    assertEquals(Set.of(PodGroupRef.Source.COSCHEDULING), options.podGroupSources());
    assertEquals(Duration.ofSeconds(42), options.podGroupTimeout());
    assertEquals(Set.of(ClusterData.SERVICES), options.watch());

    var settings = options.controllerSettings();
    assertEquals("my-scheduler", settings.schedulerName());
    assertEquals(BindMode.SUBRESOURCE, settings.bindMode());
    assertEquals(Duration.ofSeconds(3), settings.bindTimeout());
    assertEquals(Duration.ofSeconds(11), settings.volumeBindingTimeout());
    assertEquals(Duration.ofMillis(200), settings.initialBackoff());
    assertEquals(Duration.ofSeconds(4), settings.maxBackoff());
    assertEquals(Duration.ofSeconds(5), settings.syncTimeout());
    assertEquals(Duration.ofMinutes(6), settings.unschedulableTimeout());
    assertEquals(Duration.ZERO, settings.assumedPodTtl());
    assertEquals(7.5, settings.qps());
    assertEquals(8, settings.burst());
    assertEquals(9, settings.parallelBindings());
    assertEquals(3, settings.parallelism());
    assertEquals(Duration.ofSeconds(10), settings.shutdownTimeout());
    assertEquals(Set.of(PodGroupRef.Source.COSCHEDULING), settings.podGroupSources());
    assertEquals(Duration.ofSeconds(42), settings.podGroupTimeout());
    assertEquals(Set.of(ClusterData.SERVICES), settings.watch());
    var leader = settings.leaderElection();
    assertEquals("ops", leader.lockNamespace());
    assertEquals("my-lease", leader.lockName());
    assertEquals(Duration.ofSeconds(15), leader.leaseDuration());
  }

  @Test
  void the_last_connection_chosen_wins() {
    var path = Path.of("/tmp/kubeconfig");
    assertEquals(new Connection.Fake(), Options.builder().kubeconfig(path).fake().build().connection());
    assertEquals(
        new Connection.Kubeconfig(Optional.of(path)),
        Options.builder().fake().kubeconfig(path).build().connection());
    assertEquals(new Connection.InCluster(), Options.builder().fake().inCluster().build().connection());
    assertEquals(
        new Connection.Kubeconfig(Optional.empty()),
        Options.builder().fake().connection(new Connection.Kubeconfig(Optional.empty())).build().connection());
  }

  @Test
  void only_the_fake_cluster_binds_by_setting_the_node_name() {
    assertEquals(BindMode.SET_NODE_NAME, Options.builder().fake().build().controllerSettings().bindMode());
    assertEquals(BindMode.SUBRESOURCE, Options.builder().inCluster().build().controllerSettings().bindMode());
    assertEquals(
        BindMode.SUBRESOURCE,
        Options.builder().kubeconfig(Path.of("k")).build().controllerSettings().bindMode());
  }

  @Test
  void leader_election_defaults_to_kube_schedulers_settings_on_a_lease_named_after_the_scheduler() {
    var options = Options.builder().schedulerName("my-scheduler").leaderElection().build();

    var election = options.leaderElection().orElseThrow();
    assertEquals(LeaderElection.defaults(), election);
    assertEquals("kube-system", election.leaseNamespace());
    assertEquals(Optional.empty(), election.leaseName());
    assertEquals(Duration.ofSeconds(15), election.leaseDuration());
    assertEquals(Duration.ofSeconds(10), election.renewDeadline());
    assertEquals(Duration.ofSeconds(2), election.retryPeriod());
    assertEquals(LeaderElection.DEFAULT_LEASE_NAMESPACE, election.leaseNamespace());
    assertEquals(LeaderElection.DEFAULT_LEASE_DURATION, election.leaseDuration());
    assertEquals(LeaderElection.DEFAULT_RENEW_DEADLINE, election.renewDeadline());
    assertEquals(LeaderElection.DEFAULT_RETRY_PERIOD, election.retryPeriod());
    var lease = options.controllerSettings().leaderElection();
    assertEquals("kube-system", lease.lockNamespace());
    assertEquals("my-scheduler", lease.lockName());
  }

  @Test
  void a_leader_election_built_by_name_keeps_every_setting() {
    var election =
        LeaderElection.builder()
            .lease("ops", "sched.lease")
            .leaseDuration(Duration.ofSeconds(6))
            .renewDeadline(Duration.ofSeconds(4))
            .retryPeriod(Duration.ofSeconds(1))
            .build();

    assertEquals("ops", election.leaseNamespace());
    assertEquals(Optional.of("sched.lease"), election.leaseName());
    assertEquals(Duration.ofSeconds(6), election.leaseDuration());
    assertEquals(Duration.ofSeconds(4), election.renewDeadline());
    assertEquals(Duration.ofSeconds(1), election.retryPeriod());
    assertNotEquals(LeaderElection.defaults(), election);
    assertEquals(
        "LeaderElection[lease=ops/sched.lease, leaseDuration=PT6S, renewDeadline=PT4S, retryPeriod=PT1S]",
        election.toString());
  }

  @Test
  void the_readmes_leader_election_sample_is_valid() {
    var options =
        Options.builder().leaderElection(Options.LeaderElection.builder()
            .lease("my-namespace", "my-lease").leaseDuration(Duration.ofSeconds(30))
            .renewDeadline(Duration.ofSeconds(20)).retryPeriod(Duration.ofSeconds(4)).build())
            .build();
    assertEquals("my-lease", options.controllerSettings().leaderElection().lockName());
  }

  @Test
  void without_leader_election_the_controller_campaigns_for_nothing() {
    assertNull(Options.builder().build().controllerSettings().leaderElection());
  }

  @Test
  void to_string_names_every_setting_and_its_value() {
    var text =
        Options.builder()
            .fake()
            .schedulerName("my-scheduler")
            .rateLimit(7.5, 8)
            .leaderElection()
            .build()
            .toString();
    for (var part :
        List.of(
            "connection=Fake[]",
            "schedulerName=my-scheduler",
            "bindTimeout=PT30S",
            "volumeBindingTimeout=PT10M",
            "initialBackoff=PT1S",
            "maxBackoff=PT10S",
            "syncTimeout=PT1M",
            "unschedulableTimeout=PT5M",
            "assumedPodTtl=PT15M",
            "qps=7.5",
            "burst=8",
            "parallelBindings=16",
            "shutdownTimeout=PT30S",
            "leaderElection=LeaderElection[lease=kube-system/<scheduler name>",
            "metrics=none",
            "watch=[]")) {
      assertTrue(text.contains(part), () -> text + " should contain " + part);
    }
    assertTrue(Options.builder().build().toString().contains("leaderElection=off"));
  }

  @Test
  void kube_schedulers_own_name_is_allowed_only_when_opted_in() {
    var options = Options.builder().replacesKubeScheduler().schedulerName("default-scheduler").build();
    assertEquals("default-scheduler", options.schedulerName());
    assertTrue(options.replacesKubeScheduler());
    assertFalse(Options.builder().build().replacesKubeScheduler());
  }

  static Stream<Arguments> invalid() {
    Map<String, UnaryOperator<Options.Builder>> cases =
        Map.ofEntries(
            Map.entry("schedulerName must not be blank, was ' '", b -> b.schedulerName(" ")),
            Map.entry(
                "schedulerName must not be 'default-scheduler': that is kube-scheduler's, and two schedulers"
                    + " binding the same pods fight over them (where kube-scheduler does not run, opt in with"
                    + " Options.Builder.replacesKubeScheduler())",
                b -> b.schedulerName("default-scheduler")),
            Map.entry("bindTimeout must be positive, was PT0S", b -> b.bindTimeout(Duration.ZERO)),
            Map.entry(
                "volumeBindingTimeout must be positive, was PT-1S",
                b -> b.volumeBindingTimeout(Duration.ofSeconds(-1))),
            Map.entry(
                "initialBackoff must be positive, was PT-1S",
                b -> b.backoff(Duration.ofSeconds(-1), Duration.ofSeconds(1))),
            Map.entry(
                "maxBackoff must be positive, was PT0S", b -> b.backoff(Duration.ofSeconds(1), Duration.ZERO)),
            Map.entry(
                "maxBackoff PT1S must not be shorter than initialBackoff PT5S",
                b -> b.backoff(Duration.ofSeconds(5), Duration.ofSeconds(1))),
            Map.entry("syncTimeout must be positive, was PT0S", b -> b.syncTimeout(Duration.ZERO)),
            Map.entry(
                "unschedulableTimeout must be positive, was PT-1M",
                b -> b.unschedulableTimeout(Duration.ofMinutes(-1))),
            Map.entry(
                "assumedPodTtl must not be negative, was PT-0.001S", b -> b.assumedPodTtl(Duration.ofMillis(-1))),
            Map.entry("qps must be a positive finite number, was 0.0", b -> b.rateLimit(0, 1)),
            Map.entry("qps must be a positive finite number, was NaN", b -> b.rateLimit(Double.NaN, 1)),
            Map.entry(
                "qps must be a positive finite number, was Infinity",
                b -> b.rateLimit(Double.POSITIVE_INFINITY, 1)),
            Map.entry("burst must be at least 1, was 0", b -> b.rateLimit(1, 0)),
            Map.entry("parallelBindings must be at least 1, was -2", b -> b.parallelBindings(-2)),
            Map.entry("parallelism must be at least 1, was 0", b -> b.parallelism(0)),
            Map.entry("parallelism must be at least 1, was -16", b -> b.parallelism(-16)),
            Map.entry("shutdownTimeout must be positive, was PT0S", b -> b.shutdownTimeout(Duration.ZERO)),
            Map.entry("podGroupTimeout must be positive, was PT0S", b -> b.podGroupTimeout(Duration.ZERO)),
            Map.entry(
                "schedulerName (the default leaseName) must be a DNS-1123 subdomain to name a Lease",
                b -> b.schedulerName("My_Scheduler").leaderElection()));
    return cases.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void an_invalid_option_is_refused_naming_it_and_its_value(
      String expectedMessage, UnaryOperator<Options.Builder> change) {
    var error = assertThrows(ConfigurationException.class, () -> change.apply(Options.builder()).build());
    assertTrue(
        error.getMessage().startsWith(expectedMessage),
        "message '" + error.getMessage() + "' should start with '" + expectedMessage + "'");
  }

  static Stream<Arguments> invalidLeaderElection() {
    Map<String, Supplier<LeaderElection.Builder>> cases =
        Map.ofEntries(
            Map.entry(
                "leaseNamespace must be a DNS-1123 label", () -> LeaderElection.builder().lease("Kube_System", "a")),
            Map.entry(
                "leaseName must be a DNS-1123 subdomain", () -> LeaderElection.builder().lease("ops", "-lease")),
            Map.entry(
                "leaseDuration must be at least 1 ms, was PT0S",
                () -> LeaderElection.builder().leaseDuration(Duration.ZERO)),
            Map.entry(
                "renewDeadline must be at least 1 ms, was PT-1S",
                () -> LeaderElection.builder().renewDeadline(Duration.ofSeconds(-1))),
            Map.entry(
                "retryPeriod must be at least 1 ms, was PT0.0000001S",
                () -> LeaderElection.builder().retryPeriod(Duration.ofNanos(100))),
            Map.entry(
                "leaseDuration must be a whole number of seconds (a Lease stores seconds), was PT15.5S",
                () -> LeaderElection.builder().leaseDuration(Duration.ofMillis(15_500))),
            Map.entry(
                "renewDeadline PT15S must be shorter than leaseDuration PT15S",
                () -> LeaderElection.builder().renewDeadline(Duration.ofSeconds(15))),
            Map.entry(
                "renewDeadline PT10S must be longer than retryPeriod PT5S plus its jitter, PT11S",
                () -> LeaderElection.builder().retryPeriod(Duration.ofSeconds(5))));
    return cases.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidLeaderElection")
  void an_invalid_leader_election_is_refused_naming_the_setting_and_its_value(
      String expectedMessage, Supplier<LeaderElection.Builder> builder) {
    var error = assertThrows(ConfigurationException.class, () -> builder.get().build());
    assertTrue(
        error.getMessage().startsWith(expectedMessage),
        "message '" + error.getMessage() + "' should start with '" + expectedMessage + "'");
  }

  @Test
  void several_profiles_without_the_default_name_elect_on_a_lease_named_after_the_first() {
    var options = Options.builder().fake().schedulerName("unused").leaderElection().build();
    try (var client = Client.create(options)) {
      var error =
          assertThrows(
              ConfigurationException.class,
              () -> client.newPodController(
                      Map.of("B_bad", FakeClusterFixture.firstFit()), new FakeClusterFixture.Recorder()));
      assertTrue(error.getMessage().contains("'B_bad'"), error.getMessage());
    }
  }

  @Test
  void a_missing_kubeconfig_is_a_configuration_error_naming_the_path(@TempDir Path dir) {
    var missing = dir.resolve("nope");
    var error =
        assertThrows(
            ConfigurationException.class,
            () -> Client.create(Options.builder().kubeconfig(missing).build()));
    assertTrue(error.getMessage().contains(missing.toString()), error.getMessage());
  }

  @Test
  void the_default_lease_is_in_the_pods_namespace_in_a_pod_and_in_kube_system_elsewhere(@TempDir Path dir)
      throws IOException {
    var file = dir.resolve("namespace");
    assertEquals("kube-system", LeaderElection.builder().build(file).leaseNamespace(), "not in a pod");
    Files.writeString(file, "team-a\n");
    assertEquals("team-a", LeaderElection.builder().build(file).leaseNamespace(), "in a pod of team-a");
    assertEquals("ops", LeaderElection.builder().lease("ops", "l").build(file).leaseNamespace(), "given wins");
    Files.writeString(file, " ");
    assertEquals("kube-system", LeaderElection.builder().build(file).leaseNamespace(), "blank file");
  }

  @Test
  void a_lease_named_explicitly_keeps_its_name_when_the_controller_takes_its_profiles_name() {
    var named = Options.builder()
        .leaderElection(LeaderElection.builder().lease("kubesched", Options.DEFAULT_SCHEDULER_NAME).build())
        .build()
        .controllerSettings();
    assertEquals(Options.DEFAULT_SCHEDULER_NAME,
        named.withSchedulerName("platform-scheduler", true).leaderElection().lockName(),
        "a lease the configuration names, which RBAC may name too");
    var defaulted = Options.builder().leaderElection(LeaderElection.builder().build()).build().controllerSettings();
    assertEquals("platform-scheduler",
        defaulted.withSchedulerName("platform-scheduler", false).leaderElection().lockName(),
        "a lease named after the scheduler follows its name");
  }
}
