package io.kubesched.spring;

import static io.kubesched.spring.FakeClusterObjects.eventually;
import static io.kubesched.spring.FakeClusterObjects.node;
import static io.kubesched.spring.FakeClusterObjects.nodeOf;
import static io.kubesched.spring.FakeClusterObjects.pod;
import static io.kubesched.spring.FakeClusterObjects.rootMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kubesched.api.ConfigurationException;
import io.kubesched.api.Decision;
import io.kubesched.api.FinderFunc;
import io.kubesched.api.NodeInfo;
import io.kubesched.facade.Client;
import io.kubesched.facade.Controller;
import io.kubesched.facade.SchedulerSetup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code kubesched.config-file}: a KubeSchedulerConfiguration's profiles and settings in the application context,
 * the precedence of the properties over it, a {@code FinderFunc} bean with it, and bad files, on the fake cluster.
 */
class KubeschedConfigFileTest {

  private static final String HEADER =
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";

  /** Binds every pod to the node named {@code chosen}. */
  private static final FinderFunc CHOSEN = (pod, nodes) -> Decision.bind(
      nodes.stream().map(NodeInfo::name).filter("chosen"::equals).findFirst().orElseThrow());

  @TempDir Path dir;

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(KubeschedAutoConfiguration.class))
          .withBean("fakeCluster", KubeschedOptionsCustomizer.class,
              () -> options -> options.fake().backoff(Duration.ofMillis(100), Duration.ofMillis(400)));

  private String file(String body) throws IOException {
    var file = dir.resolve("scheduler-config.yaml");
    Files.writeString(file, HEADER + body);
    return "kubesched.config-file=" + file;
  }

  @Test
  void the_files_profiles_place_their_pods_and_its_settings_reach_the_client_before_the_customizers()
      throws IOException {
    var config = file("""
        parallelism: 4
        podInitialBackoffSeconds: 2
        podMaxBackoffSeconds: 20
        clientConnection: {qps: 20, burst: 40}
        leaderElection: {leaderElect: false}
        profiles:
          - schedulerName: spread
          - schedulerName: pack
            plugins:
              score:
                disabled: [{name: NodeResourcesBalancedAllocation}]
            pluginConfig:
              - name: NodeResourcesFit
                args: {scoringStrategy: {type: MostAllocated}}
        """);
    runner.withPropertyValues(config).run(context -> {
      assertStarted(context);
      var options = context.getBean(Client.class).options();
      assertEquals(4, options.parallelism());
      assertEquals(20, options.qps());
      assertEquals(40, options.burst());
      assertEquals(Duration.ofMillis(100), options.initialBackoff(), "the customizer's, applied after the file");
      assertEquals(Optional.empty(), options.leaderElection());
      assertEquals("pack", options.schedulerName(), "the first profile, sorted, names the controller");
      var kube = context.getBean(Client.class).kubernetesClient();
      node(kube, "half-full", "4", "8Gi");
      node(kube, "empty", "4", "8Gi");
      bound(kube, "filler", "other-scheduler", "2", "4Gi", "half-full");
      assertEquals("empty", place(kube, "spread-0", "spread"), "least allocated, the default profile's");
      assertEquals("half-full", place(kube, "pack-0", "pack"), "most allocated, as the file says");
    });
  }

  @Test
  void a_property_given_wins_over_the_files_setting() throws IOException {
    var config = file("""
        parallelism: 4
        leaderElection:
          resourceNamespace: file-ns
          resourceName: file-lease
          leaseDuration: 30s
          renewDeadline: 20s
          retryPeriod: 4s
        profiles:
          - schedulerName: spread
        """);
    runner.withPropertyValues(config, "kubesched.parallelism=2", "kubesched.leader-election.lease-name=my-lease")
        .run(context -> {
          assertStarted(context);
          var options = context.getBean(Client.class).options();
          assertEquals(2, options.parallelism(), "the property's");
          var election = options.leaderElection().orElseThrow(() -> new AssertionError("the file elects"));
          assertEquals("file-ns", election.leaseNamespace(), "the file's: no property names one");
          assertEquals(Optional.of("my-lease"), election.leaseName(), "the property's");
          assertEquals(Duration.ofSeconds(30), election.leaseDuration(), "the file's");
          assertEquals(Duration.ofSeconds(20), election.renewDeadline());
          assertEquals(Duration.ofSeconds(4), election.retryPeriod());
        });
    runner.withPropertyValues(config, "kubesched.leader-election.enabled=false").run(context -> {
      assertStarted(context);
      assertEquals(Optional.empty(), context.getBean(Client.class).options().leaderElection());
    });
  }

  @Test
  void a_policy_bean_places_the_files_only_profile() throws IOException {
    var config = file("leaderElection: {leaderElect: false}\nprofiles:\n  - schedulerName: spot\n");
    runner.withPropertyValues(config).withBean(FinderFunc.class, () -> CHOSEN).run(context -> {
      assertStarted(context);
      var kube = context.getBean(Client.class).kubernetesClient();
      node(kube, "chosen", "1", "1Gi");
      node(kube, "other", "8", "16Gi");
      assertEquals("chosen", place(kube, "web", "spot"), "the bean's node, not the default profile's");
    });
  }

  @Test
  void a_policy_bean_places_the_profile_the_scheduler_name_names_and_the_others_keep_the_files() throws IOException {
    var config = file("""
        leaderElection: {leaderElect: false}
        profiles:
          - schedulerName: spread
          - schedulerName: spot
        """);
    runner.withPropertyValues(config, "kubesched.scheduler-name=spot").withBean(FinderFunc.class, () -> CHOSEN)
        .run(context -> {
          assertStarted(context);
          assertEquals("spot", context.getBean(Client.class).options().schedulerName());
          var kube = context.getBean(Client.class).kubernetesClient();
          node(kube, "chosen", "1", "1Gi");
          node(kube, "other", "8", "16Gi");
          assertEquals("chosen", place(kube, "spot-0", "spot"));
          assertEquals("other", place(kube, "spread-0", "spread"), "the file's default profile: least allocated");
        });
  }

  @Test
  void a_policy_bean_with_several_profiles_and_no_scheduler_name_is_refused() throws IOException {
    var config = file("profiles:\n  - schedulerName: spread\n  - schedulerName: spot\n");
    runner.withPropertyValues(config).withBean(FinderFunc.class, () -> CHOSEN).run(context -> assertFailure(
        context, "the application's FinderFunc bean and kubesched.config-file " + dir.resolve("scheduler-config.yaml")
            + " with the profiles [spread, spot]: set kubesched.scheduler-name to the profile the bean places"));
  }

  @Test
  void a_scheduler_name_that_names_no_profile_of_the_file_is_refused() throws IOException {
    var config = file("profiles:\n  - schedulerName: spread\n");
    runner.withPropertyValues(config, "kubesched.scheduler-name=spot").run(context -> assertFailure(
        context, "kubesched.scheduler-name 'spot' names none of the profiles of kubesched.config-file "
            + dir.resolve("scheduler-config.yaml") + ": [spread]"));
  }

  @Test
  void external_leadership_and_the_files_election_are_refused_naming_both() throws IOException {
    var config = file("profiles:\n  - schedulerName: spread\n"); // leaderElect: kube's default, true
    runner.withPropertyValues(config, "kubesched.external-leadership=true").run(context -> assertFailure(
        context, "kubesched.external-leadership and the leaderElection of kubesched.config-file "
            + dir.resolve("scheduler-config.yaml") + " (leaderElect true"));
    runner.withPropertyValues(config, "kubesched.external-leadership=true", "kubesched.leader-election.enabled=false")
        .run(context -> {
          assertStarted(context);
          assertTrue(context.getBean(Client.class).options().externalLeadership());
        });
  }

  @Test
  void the_files_kubeconfig_with_the_applications_client_is_refused() throws IOException {
    var config = file("clientConnection: {kubeconfig: /etc/kubernetes/scheduler.conf}\n"
        + "profiles:\n  - schedulerName: spread\n");
    runner.withPropertyValues(config)
        .withBean(KubernetesClient.class, () -> new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build())
        .run(context -> assertFailure(context, "kubesched.config-file " + dir.resolve("scheduler-config.yaml")
            + ": clientConnection.kubeconfig /etc/kubernetes/scheduler.conf cannot be honoured"));
  }

  @Test
  void the_kubeconfig_property_with_the_applications_client_is_refused() {
    runner.withPropertyValues("kubesched.kubeconfig=/etc/kubernetes/scheduler.conf")
        .withBean(KubernetesClient.class, () -> new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build())
        .run(context -> assertFailure(context,
            "kubesched.kubeconfig /etc/kubernetes/scheduler.conf cannot be honoured: the application's"
                + " KubernetesClient bean is the connection"));
  }

  @Test
  void a_lease_named_while_leader_election_is_off_is_refused_naming_both() throws IOException {
    var config = file("leaderElection: {leaderElect: false}\nprofiles:\n  - schedulerName: spread\n");
    runner.withPropertyValues(config, "kubesched.leader-election.lease-name=my-lease").run(context -> assertFailure(
        context, "kubesched.leader-election.lease-namespace/lease-name (null/my-lease) name a Lease, but leader"
            + " election is off (leaderElect is false in kubesched.config-file " + dir.resolve("scheduler-config.yaml")));
    runner.withPropertyValues("kubesched.leader-election.lease-namespace=ops").run(context -> assertFailure(
        context, "but leader election is off (kubesched.leader-election.enabled is not set)"));
  }

  @Test
  void a_missing_file_is_refused_naming_the_property_and_the_file() {
    var missing = dir.resolve("nowhere.yaml");
    runner.withPropertyValues("kubesched.config-file=" + missing).run(context -> assertFailure(
        context, "kubesched.config-file: KubeSchedulerConfiguration " + missing + " cannot be read"));
  }

  @Test
  void a_file_that_is_not_yaml_is_refused_naming_the_file() throws IOException {
    var config = file("profiles: [ {schedulerName: spread\n");
    runner.withPropertyValues(config).run(context -> assertFailure(
        context, "kubesched.config-file: KubeSchedulerConfiguration " + dir.resolve("scheduler-config.yaml")));
  }

  @Test
  void an_unknown_plugin_is_refused_naming_the_file_the_field_and_the_plugin() throws IOException {
    var config = file("""
        profiles:
          - schedulerName: spread
            plugins:
              score:
                enabled: [{name: NoSuchPlugin}]
        """);
    runner.withPropertyValues(config).run(context -> {
      var message = assertFailure(context, dir.resolve("scheduler-config.yaml").toString());
      assertTrue(message.contains("profiles[0].plugins.score.enabled[0]"), message);
      assertTrue(message.contains("NoSuchPlugin"), message);
    });
  }

  @Test
  void a_setup_bean_of_the_applications_replaces_the_file() throws IOException {
    var config = file("leaderElection: {leaderElect: false}\nprofiles:\n  - schedulerName: spread\n");
    var other = SchedulerSetup.of(io.kubesched.policy.config.SchedulerConfiguration.parse(
        HEADER + "leaderElection: {leaderElect: false}\nprofiles:\n  - schedulerName: own\n", "own.yaml"), "own.yaml");
    runner.withPropertyValues(config).withBean(SchedulerSetup.class, () -> other).run(context -> {
      assertStarted(context);
      assertEquals("own", context.getBean(Client.class).options().schedulerName());
    });
  }

  private static void assertStarted(AssertableApplicationContext context) {
    if (context.getStartupFailure() != null) {
      throw new AssertionError("the context failed to start: " + rootMessage(context.getStartupFailure()),
          context.getStartupFailure());
    }
    assertTrue(context.getBean(Controller.class).isRunning(), "started with the context");
  }

  /** @return the message of the outermost ConfigurationException the start failed with, checked to hold {@code expected} */
  private static String assertFailure(AssertableApplicationContext context, String expected) {
    assertNotNull(context.getStartupFailure(), "the context started");
    Throwable t = context.getStartupFailure();
    while (!(t instanceof ConfigurationException) && t.getCause() != null) {
      t = t.getCause();
    }
    var message = String.valueOf(t.getMessage());
    assertTrue(t instanceof ConfigurationException, "not a ConfigurationException: " + t);
    assertTrue(message.contains(expected), message);
    return message;
  }

  private static void bound(KubernetesClient kube, String name, String schedulerName, String cpu, String memory,
      String node) {
    kube.pods().inNamespace("default").resource(new PodBuilder(pod(name, schedulerName, cpu, memory).build())
        .editSpec().withNodeName(node).endSpec().build()).create();
  }

  /** Creates a pod asking for 100m and 128Mi and waits until it is bound; @return its node */
  private static String place(KubernetesClient kube, String name, String schedulerName) throws InterruptedException {
    kube.pods().inNamespace("default").resource(pod(name, schedulerName, "100m", "128Mi").build()).create();
    eventually(Duration.ofSeconds(30), name + " is bound", () -> !nodeOf(kube, name).isEmpty());
    return nodeOf(kube, name);
  }
}
